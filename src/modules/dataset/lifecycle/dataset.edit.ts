// Editing a dataset's metadata (extensions section 2), for the owner's edit page and the API's
// PUT alike: the same rules as the upload form, the deposit updated first for a synchronized
// dataset (its DOI stays), then the hub's rows and the history row in one transaction. Also the
// owner's publish and delete of an unsynchronized dataset from the pages, which reuse the API's
// service calls. The deposit module is loaded only when a deposit is updated (coupling rule 6).
import type { Readable } from 'node:stream';
import type { FieldErrors } from '../../../core/http/forms.ts';
import { HttpError, notFound } from '../../../core/http/errors.ts';
import { nowIso } from '../../../core/db/database.ts';
import { pauseHere } from '../../../core/test-pause.ts';
import * as repo from '../dataset.repository.ts';
import type { DatasetSummary } from '../dataset.types.ts';
import { FAKE_DOI_PREFIX, type DatasetDeps, type DepositModule } from '../dataset.deps.ts';
import { summary } from '../pages/dataset.parts.ts';
import { restObjects } from '../rest/dataset.rest-objects.ts';
import { ownedOrThrow, restInput } from '../rest/rest-input.ts';
import { apiDelete, publish } from '../rest/dataset.rest.ts';
import { defaultAuthors } from '../publication/upload.ts';
import { holdAgainstDeposit } from '../publication/deposit-claim.ts';
import { normalizeTags, splitTags } from '../../../core/tags.ts';
import { readMetadataForm, type AuthorInput, type MetadataInput } from '../upload-form.ts';

// Types only, through the dynamic import's type: nothing of the deposit module loads with this file.
type DepositRepository = ReturnType<DepositModule['createDepositRepository']>;
type DepositRequest = Parameters<DepositRepository['publish']>[0];

/** The fields an edit can change, in the order the history lists them, with their labels. */
export const EDITABLE_FIELDS = [
  ['title', 'Title'],
  ['description', 'Description'],
  ['publication_type', 'Publication type'],
  ['publication_doi', 'Publication DOI'],
  ['tags', 'Tags'],
  ['authors', 'Authors'],
  ['license', 'Licence'],
] as const;

type EditableField = (typeof EDITABLE_FIELDS)[number][0];
const FIELD_LABELS = new Map<string, string>(EDITABLE_FIELDS);

export type EditOutcome =
  | { status: 'invalid'; errors: FieldErrors }
  | { status: 'unchanged' }
  | { status: 'saved'; fields: EditableField[]; labels: string[] }
  /** The deposit refused or could not be reached: nothing changed in the hub. */
  | { status: 'deposit_failed'; message: string };

export interface HistoryEntry {
  editedAt: string;
  who: string;
  fields: string[];
}

/** A dataset's current metadata in the shape of the edit form's values. */
export function metadataOf(dataset: DatasetSummary): MetadataInput {
  return {
    title: dataset.title,
    description: dataset.description,
    publicationType: dataset.publicationType,
    publicationDoi: dataset.publicationDoi,
    tags: normalizeTags(dataset.tags),
    authors: dataset.authors.map((a) => ({ name: a.name, affiliation: a.affiliation ?? null, orcid: a.orcid ?? null })),
    license: dataset.license,
  };
}

/** The request the deposit repository gets: the dataset's files with the given metadata (its own by default). */
/** `open`: a stream over one of the dataset's stored files by name (the hubfile service's openByName). */
export function depositRequest(dataset: DatasetSummary, open: (name: string) => Promise<Readable | undefined>, metadata: MetadataInput = metadataOf(dataset)): DepositRequest {
  return {
    datasetId: dataset.id,
    title: metadata.title,
    description: metadata.description,
    publicationType: metadata.publicationType,
    publicationDoi: metadata.publicationDoi,
    tags: splitTags(metadata.tags),
    license: metadata.license,
    creators: metadata.authors,
    files: dataset.files.map((f) => ({ name: f.name, open: () => open(f.name), size: Number(f.size) })),
  };
}

function changedFields(before: MetadataInput, after: MetadataInput): EditableField[] {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const checks: [EditableField, boolean][] = [
    ['title', before.title === after.title],
    ['description', before.description === after.description],
    ['publication_type', before.publicationType === after.publicationType],
    ['publication_doi', before.publicationDoi === after.publicationDoi],
    ['tags', before.tags === after.tags],
    ['authors', same(before.authors, after.authors)],
    ['license', before.license === after.license],
  ];
  return checks.filter(([, unchanged]) => !unchanged).map(([field]) => field);
}

/** 502 {"message"}: the deposit repository, not the request, failed (the API's PUT). */
const depositFailed = (message: string) => new HttpError(502, 'bad_gateway', message, { message });

/** The owner's dataset for the edit page; someone else's, in any state, answers like a missing one (404). */
export async function editable(d: DatasetDeps, datasetId: number, userId: number): Promise<DatasetSummary> {
  const ref = await repo.findOwnerRef(d.ctx.db, datasetId);
  const dataset = ref && ref.userId === userId ? await summary(d, datasetId) : undefined;
  if (!dataset) throw notFound('No such dataset among yours.', { message: 'DataSet not found' });
  return dataset;
}

/**
 * The deposit of a synchronized dataset, or null when there is none to update: a dataset
 * without a deposition id (the seeded samples, a DOI recorded by hand) lives in the hub only.
 * A DOI of the built-in fake is updated by the fake; any other needs the configured Zenodo.
 */
async function depositOf(d: DatasetDeps, dataset: DatasetSummary): Promise<{ repository: DepositRepository; depositionId: number } | null | string> {
  if (!dataset.doi || dataset.depositionId === null) return null;
  let deposit: DepositModule;
  try {
    deposit = await d.loadDeposit();
  } catch (error) {
    d.ctx.log.error({ err: error }, 'the deposit module could not be loaded');
    return 'the deposit service is not available';
  }
  if (dataset.doi.startsWith(FAKE_DOI_PREFIX)) return { repository: deposit.createFakeDeposit(), depositionId: dataset.depositionId };
  const repository = deposit.createDepositRepository(d.ctx.config);
  if (repository.kind === 'fake') return 'its record is on Zenodo, and this hub has no Zenodo access configured (ZENODO_ACCESS_TOKEN)';
  return { repository, depositionId: dataset.depositionId };
}

/** The deposit first, then the hub's rows and the history row in one transaction. */
async function applyEdit(d: DatasetDeps, dataset: DatasetSummary, userId: number, next: MetadataInput): Promise<EditOutcome> {
  const before = metadataOf(dataset);
  const fields = changedFields(before, next);
  if (fields.length === 0) return { status: 'unchanged' };
  const unchanged = 'The metadata were not changed';
  const target = await depositOf(d, dataset);
  if (typeof target === 'string') return { status: 'deposit_failed', message: `${unchanged}: the deposit could not be updated (${target}).` };
  const open = (name: string) => d.ctx.services.hubfile.openByName(dataset.userId, dataset.id, name);
  if (target) {
    try {
      const result = await target.repository.updateMetadata(target.depositionId, depositRequest(dataset, open, next));
      if (result.doi !== dataset.doi) d.ctx.log.warn({ datasetId: dataset.id, doi: dataset.doi, answered: result.doi }, 'the deposit answered another DOI to a metadata update; the stored one stays');
    } catch (error) {
      d.ctx.log.warn({ err: error, datasetId: dataset.id }, 'deposit metadata update failed');
      const said = error instanceof Error && error.name === 'DepositError' ? error.message.replace(/\.$/, '') : 'the deposit repository failed unexpectedly';
      return { status: 'deposit_failed', message: `${unchanged}: the deposit repository did not accept the change (${said}). Try again later.` };
    }
  }
  await pauseHere('edit:after-deposit');
  const row = await repo.findById(d.ctx.db, dataset.id);
  if (!row) throw notFound('The dataset was deleted meanwhile.', { message: 'DataSet not found' });
  try {
    await d.ctx.db.transaction().execute(async (trx) => {
      await holdAgainstDeposit(trx, row);
      await repo.updateMetaData(trx, row.meta_id, {
        title: next.title, description: next.description, publication_type: next.publicationType,
        publication_doi: next.publicationDoi, tags: next.tags, license: next.license,
      });
      if (fields.includes('authors')) await repo.replaceAuthors(trx, row.meta_id, next.authors);
      await repo.insertEdit(trx, { datasetId: dataset.id, userId, editedAt: nowIso(), fields });
      await repo.bumpRevision(trx, dataset.id);
      await pauseHere('edit:before-commit');
    });
  } catch (error) {
    // The deposit already shows the new metadata: put the old ones back there, so both agree again.
    if (target) {
      await target.repository.updateMetadata(target.depositionId, depositRequest(dataset, open, before))
        .catch((e) => d.ctx.log.error({ err: e, datasetId: dataset.id }, 'the deposit keeps metadata the hub could not store'));
    }
    throw error;
  }
  await d.ctx.events.emit('dataset.saved', { datasetId: dataset.id });
  return { status: 'saved', fields, labels: fields.map((f) => FIELD_LABELS.get(f)!) };
}

/** The edit form posted (urlencoded or multipart fields, as the upload form's). */
export async function edit(d: DatasetDeps, datasetId: number, userId: number, fields: Record<string, string>): Promise<EditOutcome> {
  const dataset = await editable(d, datasetId, userId);
  const form = readMetadataForm(fields);
  if (!form.ok) return { status: 'invalid', errors: form.errors };
  // As at upload (decisions section 4): no author given, the editor's profile is the author.
  const authors = form.value.authors.length > 0 ? form.value.authors : await defaultAuthors(d, userId);
  return applyEdit(d, dataset, userId, { ...form.value, authors });
}

/** The edits of a dataset, newest first, with the editor's name and the changed fields' labels. */
export async function history(d: DatasetDeps, datasetId: number): Promise<HistoryEntry[]> {
  const edits = await repo.listEdits(d.ctx.db, datasetId);
  const names = new Map<number, string>();
  for (const userId of new Set(edits.map((e) => e.userId))) {
    const profile = await d.ctx.services.profile.getByUserId(userId);
    names.set(userId, profile ? `${profile.name} ${profile.surname}` : 'A former user');
  }
  return edits.map((e) => ({
    editedAt: e.editedAt,
    who: names.get(e.userId)!,
    fields: e.fields.map((f) => FIELD_LABELS.get(f) ?? f),
  }));
}

/**
 * PUT /api/v1/datasets/<id>: name, description, tags and license through the same edit, so
 * that a synchronized deposit never drifts from the hub and the history is complete. The
 * answers keep their shapes; a deposit that refuses is 502 {"message"}, nothing changed.
 */
export async function apiUpdate(d: DatasetDeps, datasetId: number, userId: number, body: unknown) {
  await ownedOrThrow(d.ctx.db, datasetId, userId);
  const input = restInput(body, 'update');
  const dataset = (await summary(d, datasetId))!;
  const next: MetadataInput = {
    ...metadataOf(dataset),
    ...(input.name !== undefined ? { title: input.name } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.tags !== undefined ? { tags: input.tags } : {}),
    ...(input.license !== undefined ? { license: input.license } : {}),
  };
  const outcome = await applyEdit(d, dataset, userId, next);
  if (outcome.status === 'deposit_failed') throw depositFailed(outcome.message);
  return (await restObjects(d, [(await summary(d, datasetId))!]))[0];
}

/** POST /dataset/<id>/publish: the API's publish, for the owner only (anyone else 404). */
export async function publishOwn(d: DatasetDeps, datasetId: number, userId: number) {
  await editable(d, datasetId, userId);
  return publish(d, datasetId, userId);
}

/** POST /dataset/<id>/delete: the API's delete (rows and files), for the owner only (anyone else 404). */
export async function deleteOwn(d: DatasetDeps, datasetId: number, userId: number): Promise<void> {
  await editable(d, datasetId, userId);
  await apiDelete(d, datasetId, userId);
}
