// The editor's operations (extensions section 12): open a stored model the viewer may see, save
// the edited text as a draft dataset, and stage it for a new version of its dataset. Files and
// datasets are the dataset and hubfile modules' business: reached through their services.
import { Readable } from 'node:stream';
import type { ModuleContext } from '../../core/modules.ts';
import { StagingError } from '../dataset/index.ts';
import type { StoredFile } from '../hubfile/index.ts';

export class EditorError extends Error {
  constructor(readonly kind: 'unknown-file' | 'not-owner' | 'invalid', message: string, readonly errors: string[] = []) {
    super(message);
  }
}

export interface OpenedFile {
  file: StoredFile;
  text: string;
  /** The viewer owns the model's dataset: Save as new version is theirs. */
  owner: boolean;
}

/** Longest title the upload form accepts (dataset upload form, MAX_TITLE). */
export const MAX_DRAFT_TITLE = 200;

export async function openFile(ctx: ModuleContext, fileId: number, viewerId: number | null): Promise<OpenedFile> {
  const file = await ctx.services.hubfile.getVisibleFile(fileId, viewerId);
  const text = file && await ctx.services.hubfile.readText(file);
  if (!file || text === undefined) throw new EditorError('unknown-file', `There is no file with id ${fileId}.`);
  return { file, text, owner: viewerId !== null && file.userId === viewerId };
}

const stream = (text: string) => Readable.from([Buffer.from(text, 'utf8')]);

/**
 * The text staged as `name`. A staging refusal (over MAX_FEATURES, a full staging area) is the
 * save's refusal, given back with the text (extensions section 10: one clear error at staging).
 */
async function stage(ctx: ModuleContext, userId: number, name: string, text: string) {
  try {
    return await ctx.services.dataset.stageFile(userId, name, stream(text), () => false);
  } catch (error) {
    if (error instanceof StagingError) throw new EditorError('invalid', error.message, error.errors);
    throw error;
  }
}

/** A staged file name from a title: its letters and digits, else `model`. */
export function fileNameFor(title: string): string {
  const stem = title.normalize('NFKD').replace(/[^\w-]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 60);
  return `${stem || 'model'}.uvl`;
}

function checkSize(ctx: ModuleContext, text: string): void {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > ctx.config.maxUploadBytes) throw new EditorError('invalid', `The model has ${bytes} bytes; the hub takes files of at most ${ctx.config.maxUploadBytes}.`);
}

/**
 * Save as draft: the text staged and saved through the upload's own path as a draft dataset
 * (extensions section 9), unsynchronized until its owner publishes it. On a refusal nothing is
 * kept: the staged file goes again.
 */
export async function saveDraft(ctx: ModuleContext, userId: number, title: string, text: string): Promise<string> {
  const datasets = ctx.services.dataset;
  checkSize(ctx, text);
  if (title.trim() === '') throw new EditorError('invalid', 'Give the draft a title.');
  const staged = await stage(ctx, userId, fileNameFor(title), text);
  const outcome = await datasets.upload(userId, {
    title: title.trim().slice(0, MAX_DRAFT_TITLE),
    desc: 'Made in the model editor.',
    publication_type: 'none',
    'feature_models-0-uvl_filename': staged.filename,
    draft: '1',
  });
  if (outcome.status === 'draft') return outcome.href;
  await datasets.deleteStagedFile(userId, staged.filename).catch(() => {});
  const errors = outcome.status === 'invalid' ? Object.values(outcome.errors).flat() : ['The draft could not be saved.'];
  throw new EditorError('invalid', 'The draft was not saved.', errors);
}

/**
 * Save as new version: the dataset's files copied into the owner's staging area as the DOI
 * page's New version does, the edited model in place of the stored one; the caller then opens
 * the version form, which compares and publishes.
 */
export async function stageNewVersion(ctx: ModuleContext, fileId: number, userId: number, text: string): Promise<string> {
  const { file, owner } = await openFile(ctx, fileId, userId);
  if (!owner) throw new EditorError('not-owner', 'Only the owner of the dataset can save a new version of its model.');
  checkSize(ctx, text);
  const datasets = ctx.services.dataset;
  // An earlier save's edit staged under the model's name goes first (when a version may be made:
  // a refusal changes nothing), so that the copy of the stored model takes that name, to be
  // replaced below, and is not left staged beside the edit as "name (1).uvl".
  if (await datasets.versions.draftOf(file.datasetId, userId)) await datasets.deleteStagedFile(userId, file.name).catch(() => {});
  await datasets.versions.startNewVersion(file.datasetId, userId);
  await datasets.deleteStagedFile(userId, file.name);
  await stage(ctx, userId, file.name, text);
  return `/dataset/upload?version_of=${file.datasetId}`;
}

export function createEditorService(ctx: ModuleContext) {
  return {
    openFile: (fileId: number, viewerId: number | null) => openFile(ctx, fileId, viewerId),
    saveDraft: (userId: number, title: string, text: string) => saveDraft(ctx, userId, title, text),
    stageNewVersion: (fileId: number, userId: number, text: string) => stageNewVersion(ctx, fileId, userId, text),
  };
}

export type EditorService = ReturnType<typeof createEditorService>;
