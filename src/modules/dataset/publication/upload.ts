// The upload (specification, States; decisions section 4): the staged files the form names are
// claimed, checked and saved as a dataset, which is then pushed to the deposit repository.
import type { FieldErrors } from '../../../core/http/forms.ts';
import type { Claim } from '../staging/staging.ts';
import { readUploadForm, type AuthorInput, type FeatureModelInput, type UploadInput } from '../upload-form.ts';
import { datasetHref, type PreparedModel } from '../dataset.types.ts';
import { contentChanged, type DatasetDeps } from '../dataset.deps.ts';
import { uploadVersion, type VersionUploadOutcome } from '../lifecycle/dataset.versions.ts';
import { persist, prepare, type DatasetMetadata, type PersistExtra } from './persist.ts';
import { pushOutcome } from './deposit.ts';
import { pauseHere } from '../../../core/test-pause.ts';

/** The uploader's profile as the first author, when the form names none (decisions section 4). */
export async function defaultAuthors(d: DatasetDeps, userId: number): Promise<AuthorInput[]> {
  const profile = await d.ctx.services.profile.getByUserId(userId);
  if (!profile) return [];
  return [{ name: `${profile.surname}, ${profile.name}`, affiliation: profile.affiliation ?? null, orcid: profile.orcid ?? null }];
}

export type StagedUploadOutcome = { status: 'invalid'; errors: FieldErrors } | { status: 'saved'; datasetId: number; claim: Claim };

const fieldOf = (fm: FeatureModelInput) => `feature_models-${fm.index}-uvl_filename`;

/**
 * The staged files the form names, claimed (all or none: of two submits naming the same files,
 * one gets them and the other is refused here, before anything is read or written), checked and
 * saved as a dataset. The claim stays with the caller: discarded once the dataset is kept,
 * released to put the files back. On any failure nothing is saved and the files are put back.
 */
export async function saveStagedUpload(
  d: DatasetDeps,
  userId: number,
  input: UploadInput,
  defaultAuthorsOf: () => Promise<AuthorInput[]>,
  extra: PersistExtra = {},
): Promise<StagedUploadOutcome> {
  const claimed = await d.staging.claim(userId, input.featureModels.map((fm) => fm.uvlFilename));
  if (!claimed.ok) {
    const missing = new Set(claimed.missing);
    const errors: FieldErrors = {};
    for (const fm of input.featureModels.filter((m) => missing.has(m.uvlFilename))) {
      errors[fieldOf(fm)] = [`The file ${fm.uvlFilename} is not in your staging area (it may have just been saved by another submission of this form): upload it again.`];
    }
    return { status: 'invalid', errors };
  }
  const { claim } = claimed;
  try {
    const errors: FieldErrors = {};
    const prepared: PreparedModel[] = [];
    for (const [i, fm] of input.featureModels.entries()) {
      const staged = claim.files[i]!;
      const { model, check } = await prepare(d, fm, { key: staged.key }, staged.name, staged.original, `account:${userId}`);
      // A model with syntax errors is refused, with its errors (decisions section 7).
      if (!check.valid) errors[fieldOf(fm)] = check.errors.map((e) => `${staged.name}: ${e}`);
      prepared.push(model);
    }
    if (Object.keys(errors).length > 0) {
      await claim.release();
      return { status: 'invalid', errors };
    }
    const authors = input.authors.length > 0 ? input.authors : await defaultAuthorsOf();
    // Models imported from a URL (extensions section 13): their sources become the dataset's with it.
    const stagedNames = input.featureModels.map((fm) => fm.uvlFilename);
    const { datasetId } = await persist(d, userId, { ...input, authors }, prepared, { ...extra, claim, stagedNames });
    await pauseHere('upload:after-commit');
    return { status: 'saved', datasetId, claim };
  } catch (error) {
    // Nothing was saved (persist removes what it wrote): the files go back to the staging area.
    await claim.release().catch((e) => d.ctx.log.error({ err: e }, 'claimed staged files could not be put back'));
    throw error;
  }
}

/** Saved as a draft (form field `draft` = `1`): unsynchronized, nothing deposited until its owner publishes it. */
export type DraftOutcome = { status: 'draft'; datasetId: number; href: string };

/** POST /dataset/upload: a new dataset (or draft), or with `version_of` a new version of one. */
export async function upload(d: DatasetDeps, userId: number, fields: Record<string, string>): Promise<VersionUploadOutcome | DraftOutcome> {
  if (fields.version_of !== undefined && fields.version_of !== '') return uploadVersion(d, userId, fields, () => defaultAuthors(d, userId));
  const form = readUploadForm(fields);
  if (!form.ok) return { status: 'invalid', errors: form.errors };
  const saved = await saveStagedUpload(d, userId, form.value, () => defaultAuthors(d, userId));
  if (saved.status === 'invalid') return saved;
  const { claim, datasetId } = saved;
  await claim.discard().catch((e) => d.ctx.log.warn({ err: e }, 'claimed staged files could not be removed'));
  await contentChanged(d, datasetId);
  // A draft (extensions section 9) is kept unsynchronized: nothing reaches the deposit until its owner publishes it.
  if (fields.draft === '1') return { status: 'draft', datasetId, href: datasetHref(datasetId, null) };
  return pushOutcome(d, datasetId);
}

/**
 * Creates a dataset from files on disk, without staging or push: the seeders use it so that
 * their rows and files are made exactly like an upload's.
 */
export async function createFromFiles(
  d: DatasetDeps,
  userId: number,
  input: DatasetMetadata,
  files: { path: string; meta: Omit<FeatureModelInput, 'index' | 'uvlFilename'> & { name: string } }[],
  extra: { doi?: string | null; createdAt?: string } = {},
): Promise<number> {
  const prepared: PreparedModel[] = [];
  for (const [index, f] of files.entries()) {
    const { model, check } = await prepare(d, { ...f.meta, index, uvlFilename: f.meta.name }, { file: f.path }, f.meta.name);
    if (!check.valid) throw new Error(`${f.path} is not a valid UVL model: ${check.errors.join('; ')}`);
    prepared.push(model);
  }
  const { datasetId } = await persist(d, userId, input, prepared, extra);
  await contentChanged(d, datasetId);
  return datasetId;
}
