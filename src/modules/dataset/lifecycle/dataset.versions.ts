// Dataset versions (extensions section 2, "New version"): all versions of a dataset share a
// concept (migration 0200) and a concept DOI. A new version starts from copies of the newest
// version's files in the owner's staging area; its upload is deposited as a new version of the
// previous deposition, and a deposit failure leaves nothing behind but the staged files.
import { conflict, notFound } from '../../../core/http/errors.ts';
import { isUniqueViolation, type DbOrTrx } from '../../../core/db/connect.ts';
import type { Config } from '../../../core/config.ts';
import * as repo from '../dataset.repository.ts';
import * as versionsRepo from './dataset.versions.repository.ts';
import type { VersionRow } from './dataset.versions.repository.ts';
import { StagingError } from '../staging/staging.ts';
import type { StagedOriginal } from '../staging/converted-upload.ts';
import type { HubfileView } from '../../hubfile/index.ts';
import { readUploadForm, type AuthorInput, type UploadInput } from '../upload-form.ts';
import { datasetHref, type DatasetSummary, type PreparedModel, type UploadOutcome } from '../dataset.types.ts';
import { contentChanged, publicUrl, type DatasetDeps } from '../dataset.deps.ts';
import { summary } from '../pages/dataset.parts.ts';
import { persist, prepare } from '../publication/persist.ts';
import { saveStagedUpload, type StagedUploadOutcome } from '../publication/upload.ts';
import { depositDataset } from '../publication/deposit.ts';

export interface VersionLink {
  id: number;
  version: number;
  doi: string | null;
  /** The public DOI URL, like the REST object's `doi`; null while unsynchronized. */
  url: string | null;
  href: string;
}

export interface VersionNavigation {
  version: number;
  /** How many versions are published (plus this one, when it is not). */
  total: number;
  conceptDoi: string | null;
  versions: VersionLink[];
  newest: VersionLink | null;
  isNewest: boolean;
  previous: VersionLink | null;
}

export type VersionUploadOutcome = UploadOutcome | { status: 'failed'; message: string };

const NOT_FOUND = 'No such dataset among your published datasets.';

function link(config: Config, v: VersionRow): VersionLink {
  return { id: v.id, version: v.versionNumber, doi: v.doi, url: v.doi ? publicUrl(config, v.doi) : null, href: datasetHref(v.id, v.doi) };
}

/** Versions shown to anyone: the published ones, plus `row` itself when it is not published yet. */
function visible(all: VersionRow[], rowId: number): VersionRow[] {
  return all.filter((v) => v.doi !== null || v.id === rowId);
}

function versionNavigation(config: Config, rowId: number, all: VersionRow[]): VersionNavigation {
  const shown = visible(all, rowId);
  const self = shown.find((v) => v.id === rowId)!;
  const published = shown.filter((v) => v.doi !== null);
  const newest = published.at(-1) ?? null;
  const earlier = published.filter((v) => v.versionNumber < self.versionNumber);
  return {
    version: self.versionNumber,
    total: shown.length,
    conceptDoi: self.conceptDoi,
    versions: shown.map((v) => link(config, v)),
    newest: newest ? link(config, newest) : null,
    isNewest: newest === null || newest.id === rowId || newest.versionNumber < self.versionNumber,
    previous: earlier.length > 0 ? link(config, earlier.at(-1)!) : null,
  };
}

/**
 * The dataset a new version is made of: the owner's newest published version, with no other
 * version waiting to be published (so version numbers follow the deposit's order). Anyone
 * else's dataset, or a missing one: 404; the reasons the owner cannot: 409 with a sentence.
 */
async function versionBase(d: DatasetDeps, datasetId: number, userId: number): Promise<{ row: repo.DatasetRow; all: VersionRow[] }> {
  const row = await repo.findById(d.ctx.db, datasetId);
  if (!row || row.user_id !== userId) throw notFound(NOT_FOUND, { message: NOT_FOUND });
  if (row.dataset_doi === null) {
    const message = 'This dataset is not published yet (it has no DOI): publish it before making a new version.';
    throw conflict(message, { message });
  }
  const all = await versionsRepo.listVersions(d.ctx.db, row.concept_id);
  const pending = all.find((v) => v.doi === null);
  if (pending) {
    const message = `Version ${pending.versionNumber} of this dataset is waiting to be published: publish or delete it before making another version.`;
    throw conflict(message, { message });
  }
  const newest = all.at(-1)!;
  if (newest.id !== row.id) {
    const message = `Only the newest version (version ${newest.versionNumber}) can get a new version.`;
    throw conflict(message, { message, newest: newest.doi ? publicUrl(d.ctx.config, newest.doi) : null });
  }
  return { row, all };
}

function versionFields(base: { row: repo.DatasetRow; all: VersionRow[] }) {
  return { conceptId: base.row.concept_id, number: Math.max(...base.all.map((v) => v.versionNumber)) + 1, conceptDoi: base.row.concept_doi };
}

/** "Version N of M", the links to the others and the newest (for the DOI page and the REST object). */
export async function navigation(d: DatasetDeps, dataset: { id: number; conceptId: number }): Promise<VersionNavigation> {
  return versionNavigation(d.ctx.config, dataset.id, await versionsRepo.listVersions(d.ctx.db, dataset.conceptId));
}

/** The REST object's version fields of several datasets, with one query per chunk of concepts. */
export async function restFields(d: DatasetDeps, list: { id: number; conceptId: number }[]) {
  const byConcept = await versionsRepo.listVersionsOfConcepts(d.ctx.db, list.map((dataset) => dataset.conceptId));
  return new Map(list.map((dataset) => {
    const nav = versionNavigation(d.ctx.config, dataset.id, byConcept.get(dataset.conceptId) ?? []);
    return [dataset.id, {
      version: nav.version,
      concept_doi: nav.conceptDoi,
      versions: nav.versions.map((v) => ({ id: v.id, version: v.version, doi: v.doi, url: v.url })),
    }];
  }));
}

/** The DOI of the newest published version of the concept with this concept DOI. */
export async function newestByConceptDoi(d: DatasetDeps, conceptDoi: string): Promise<string | undefined> {
  const rows = await versionsRepo.findByConceptDoi(d.ctx.db, conceptDoi);
  return rows.filter((v) => v.doi !== null).at(-1)?.doi ?? undefined;
}

/**
 * The original a stored model was converted from (extensions section 7), where a new version
 * copies it from: a version's files are the models and their originals beside them.
 */
function storedOriginal(prefix: string, file: HubfileView): StagedOriginal | undefined {
  return file.original ? { key: prefix + file.original.name, name: file.original.name } : undefined;
}

/** `POST /dataset/<id>/new-version`: copies of the version's files into the owner's staging area. */
export async function startNewVersion(d: DatasetDeps, datasetId: number, userId: number): Promise<void> {
  const { row } = await versionBase(d, datasetId, userId);
  const dataset = (await summary(d, row.id))!;
  try {
    const prefix = d.ctx.services.hubfile.datasetPrefix(row.user_id, row.id);
    await d.staging.copyIn(userId, dataset.files.map((f) => ({ name: f.name, key: prefix + f.name, original: storedOriginal(prefix, f) })));
  } catch (error) {
    // A full staging area (or a name that cannot be staged): say so, keep what was staged.
    if (error instanceof StagingError) throw conflict(error.message, { message: error.message });
    throw error;
  }
}

/** The metadata the upload page starts from for a new version of `datasetId` (undefined: not allowed). */
export async function draftOf(d: DatasetDeps, datasetId: number, userId: number): Promise<DatasetSummary | undefined> {
  try {
    await versionBase(d, datasetId, userId);
  } catch {
    return undefined;
  }
  return summary(d, datasetId);
}

/**
 * `POST /dataset/upload` with `version_of`: the upload's checks, then the new rows linked to the
 * concept, then the deposit's new version. Either the version is published, or its rows and
 * files are removed again and the staged files go back to the staging area for a retry; but
 * when Zenodo could not tell whether it published the version, the version stays unsynchronized
 * (`partial`), so that a record Zenodo did publish keeps its dataset; so it does when another
 * publish of it took its deposit claim over (this one ran past the claim's stale time). The
 * removal runs under the failed deposit's own claim (depositDataset's `removeOnFailure`): a
 * publish of the version from another tab meanwhile answers 409, it does not publish a version
 * being removed, nor is a version removed while that publish runs.
 */
export async function uploadVersion(d: DatasetDeps, userId: number, fields: Record<string, string>, defaultAuthors: () => Promise<AuthorInput[]>): Promise<VersionUploadOutcome> {
  const invalid = (message: string): VersionUploadOutcome => ({ status: 'invalid', errors: { version_of: [message] } });
  const versionOf = /^\d{1,10}$/.test(fields.version_of ?? '') ? Number(fields.version_of) : NaN;
  if (!(versionOf >= 1 && versionOf <= 2147483647)) return invalid('version_of must name one of your published datasets.');
  let base: Awaited<ReturnType<typeof versionBase>>;
  try {
    base = await versionBase(d, versionOf, userId);
  } catch (error) {
    const body = (error as { body?: { message?: string } }).body;
    if (body?.message) return invalid(body.message);
    throw error;
  }
  const form = readUploadForm(fields);
  if (!form.ok) return { status: 'invalid', errors: form.errors };
  let saved: StagedUploadOutcome;
  try {
    saved = await saveStagedUpload(d, userId, form.value, defaultAuthors, { version: versionFields(base), sourcesFrom: base.row.id });
  } catch (error) {
    // Two new versions at once: the unique (concept, number) index lets one through.
    if (isUniqueViolation(error)) return invalid('Another new version of this dataset was just created: reload its page.');
    throw error;
  }
  if (saved.status === 'invalid') return saved;
  const { claim, datasetId } = saved;
  const pushed = await depositDataset(d, datasetId, { removeOnFailure: claim });
  if (!pushed.ok && (pushed.busy || pushed.takenOver)) {
    // Another publish of the version (its API or page) holds its claim, taken over from this one
    // past the claim's stale time: that publish is in charge of the version, which stays.
    await claim.discard().catch((e) => d.ctx.log.warn({ err: e }, 'claimed staged files could not be removed'));
    return { status: 'partial', datasetId, message: `The new version was saved, but this upload did not publish it: ${pushed.reason}` };
  }
  if (!pushed.ok && pushed.unsettled) {
    // Zenodo may have published it without the hub learning so: removed, the version would leave
    // that record without its dataset. Kept unsynchronized, its next publish settles it.
    await claim.discard().catch((e) => d.ctx.log.warn({ err: e }, 'claimed staged files could not be removed'));
    return {
      status: 'partial', datasetId,
      message: `The new version was saved, but Zenodo could not confirm whether it was published (${pushed.reason}). It stays unsynchronized in your datasets: publish it from there, which uses Zenodo's record if there is one.`,
    };
  }
  if (!pushed.ok) {
    // Removed (or removed meanwhile by its owner): the staged files go back for a retry.
    await claim.release().catch((e) => d.ctx.log.error({ err: e }, 'claimed staged files could not be put back'));
    return {
      status: 'failed',
      message: `The new version could not be published (${pushed.reason}). Nothing was saved; your files are still staged, so you can try again.`,
    };
  }
  await claim.discard().catch((e) => d.ctx.log.warn({ err: e }, 'claimed staged files could not be removed'));
  return { status: 'ok', datasetId, doi: pushed.doi, url: publicUrl(d.ctx.config, pushed.doi) };
}

/**
 * `POST /api/v1/datasets/<id>/versions`: a new unsynchronized version with copies of the
 * version's files and metadata; the API's publish deposits it as a new version.
 */
export async function createUnsynchronizedVersion(d: DatasetDeps, datasetId: number, userId: number): Promise<number> {
  const base = await versionBase(d, datasetId, userId);
  const dataset = (await summary(d, base.row.id))!;
  const models = dataset.featureModels.flatMap((fm, index) => fm.files.map((file) => ({ fm, index, file })));
  const input: Omit<UploadInput, 'featureModels'> = {
    title: dataset.title, description: dataset.description, publicationType: dataset.publicationType,
    publicationDoi: dataset.publicationDoi, tags: dataset.tags.join(', ') || null, authors: dataset.authors, license: dataset.license,
  };
  try {
    const prefix = d.ctx.services.hubfile.datasetPrefix(base.row.user_id, base.row.id);
    const prepared: PreparedModel[] = [];
    for (const { fm, index, file } of models) {
      const { model } = await prepare(d, {
        index, uvlFilename: file.name, title: fm.meta.title, description: fm.meta.description,
        publicationType: fm.meta.publication_type, publicationDoi: fm.meta.publication_doi,
        tags: fm.meta.tags.join(', ') || null, version: fm.meta.uvl_version,
        authors: fm.authors.map((a) => ({ name: a.name, affiliation: a.affiliation ?? null, orcid: a.orcid ?? null })),
      }, { key: prefix + file.name }, file.name, storedOriginal(prefix, file));
      prepared.push(model);
    }
    const created = (await persist(d, userId, input, prepared, { version: versionFields(base), sourcesFrom: base.row.id })).datasetId;
    await contentChanged(d, created);
    return created;
  } catch (error) {
    if (isUniqueViolation(error)) {
      const message = 'Another new version of this dataset was just created.';
      throw conflict(message, { message });
    }
    throw error;
  }
}

/**
 * The deposition a push continues: null for a first version; for a later one, the newest
 * published version's deposition (Zenodo makes new versions from the newest).
 */
export async function previousDeposition(d: DatasetDeps, row: repo.DatasetRow): Promise<number | null> {
  if (row.version_number === 1 && row.concept_id === row.id) return null;
  const all = await versionsRepo.listVersions(d.ctx.db, row.concept_id);
  const before = all.filter((v) => v.doi !== null && v.id !== row.id && v.depositionId !== null).at(-1);
  return before?.depositionId ?? null;
}

/** Stores the concept DOI on every version once a publish tells it (or the fake's, derived). */
export async function recordConceptDoi(d: DatasetDeps, row: repo.DatasetRow, conceptDoi: string | null, db: DbOrTrx = d.ctx.db): Promise<void> {
  const known = conceptDoi ?? row.concept_doi;
  if (known) await versionsRepo.setConceptDoi(db, row.concept_id, known);
}

