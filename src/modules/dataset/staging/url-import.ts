// Import from a URL (extensions section 13): the models a URL, archive or Zenodo record holds are
// staged through the staging area, one by one, as uploads are (POST /dataset/file/import), or added
// to a dataset of the API as its file upload adds them. A model the staging refuses (a name it
// cannot store, a file that does not convert) is reported beside the others, not fatal to them.
import { Readable } from 'node:stream';
import type { Config } from '../../../core/config.ts';
import { badRequest, conflict, HttpError } from '../../../core/http/errors.ts';
import { contentChanged, type DatasetDeps } from '../dataset.deps.ts';
import { stagingRefusal } from '../dataset.http.ts';
import type { StagedCheck } from '../dataset.types.ts';
import { addFile } from '../rest/dataset.rest.ts';
import { ownedOrThrow } from '../rest/rest-input.ts';
import { stageFile } from './staged-files.ts';
import { StagingError } from './staging.ts';
import { importSource, type ImportSource, type SkippedFile, type SourceOptions } from './url-sources.ts';
import { UrlImportError } from './url-fetch.ts';
import { recordForDataset, recordStaged } from './import-sources.ts';

export interface UrlImportOutcome {
  source: { url: string; doi: string | null };
  staged: StagedCheck[];
  /** Models found but refused by the staging, with the reason. */
  refused: { name: string; message: string }[];
  /** Files of the source left out (not models, or models past the 200 one import takes), with the reason. */
  skipped: SkippedFile[];
}

/** The fetch limits of this hub: only public addresses in production, unless the host is allowed. */
export function sourceOptions(config: Config): SourceOptions {
  return {
    ...config.urlImport, publicOnly: config.env === 'production',
    zenodoApiUrl: config.zenodoApiUrl ?? 'https://zenodo.org/api', maxModelBytes: config.maxUploadBytes,
  };
}

/** A failed import as the 400 of the contract: `{message, kind}`, never the exception's own text beyond its message. */
export function importRefusal(error: UrlImportError): HttpError {
  return badRequest(error.message, { message: error.message, kind: error.kind, field: 'url' });
}

async function fetchSource(d: DatasetDeps, url: unknown): Promise<ImportSource> {
  if (typeof url !== 'string' || url.trim() === '' || url.length > 2000) {
    throw badRequest('Give the URL (or DOI) to import as url.', { message: 'Give the URL (or DOI) to import as url.', field: 'url' });
  }
  try {
    return await importSource(url, sourceOptions(d.ctx.config));
  } catch (error) {
    if (error instanceof UrlImportError) throw importRefusal(error);
    throw error;
  }
}

/**
 * A fetched model past MAX_UPLOAD_BYTES, as the staging takes it: cut at the limit, so refused
 * like an upload of it (decisions section 4, extensions section 10), whatever URL_IMPORT_MAX_BYTES allows.
 */
const overUploadLimit = (d: DatasetDeps, bytes: Buffer) => () => bytes.length > d.ctx.config.maxUploadBytes;

/** A refused model's reason, in the words of the staging answer (the limit named for a file too large). */
const refusalMessage = (d: DatasetDeps, error: StagingError) => stagingRefusal(error, d.ctx.config.maxUploadBytes).message;

/** Stages every model the URL holds in the user's staging area. */
export async function importUrl(d: DatasetDeps, userId: number, url: unknown): Promise<UrlImportOutcome> {
  const source = await fetchSource(d, url);
  const outcome: UrlImportOutcome = { source: { url: source.url, doi: source.doi }, staged: [], refused: [], skipped: source.skipped };
  for (const model of source.models) {
    try {
      outcome.staged.push(await stageFile(d, userId, model.name, Readable.from([model.bytes]), overUploadLimit(d, model.bytes)));
    } catch (error) {
      if (!(error instanceof StagingError)) throw error;
      outcome.refused.push({ name: model.name, message: refusalMessage(d, error) });
    }
  }
  await recordStaged(d.ctx.db, userId, outcome.source, outcome.staged.map((f) => f.filename));
  return outcome;
}

/** Adds every valid model the URL holds to the user's unpublished dataset (the API's file upload, per model). */
export async function importUrlToDataset(d: DatasetDeps, datasetId: number, userId: number, url: unknown): Promise<{ source: UrlImportOutcome['source']; fileIds: number[]; refused: UrlImportOutcome['refused']; skipped: SkippedFile[] }> {
  // The dataset is checked before anything is fetched: a refused caller makes the hub fetch nothing.
  const row = await ownedOrThrow(d.ctx.db, datasetId, userId);
  if (row.dataset_doi !== null) throw conflict('The dataset is published: add files to a new version.', { message: 'The dataset is published: add files to a new version.' });
  const source = await fetchSource(d, url);
  const fileIds: number[] = [];
  const refused: UrlImportOutcome['refused'] = [];
  for (const model of source.models) {
    try {
      fileIds.push(await addFile(d, datasetId, userId, model.name, Readable.from([model.bytes]), overUploadLimit(d, model.bytes)));
    } catch (error) {
      // A model's own refusals (its name, its syntax, a name the dataset holds) are reported; others stop the import.
      if (error instanceof StagingError) refused.push({ name: model.name, message: refusalMessage(d, error) });
      else if (error instanceof HttpError && (error.status === 400 || (error.status === 409 && error.message.includes('already has a file')))) refused.push({ name: model.name, message: error.message });
      else throw error;
    }
  }
  if (fileIds.length > 0) {
    await recordForDataset(d.ctx.db, userId, datasetId, source);
    // The source is part of the dataset's summary: a summary read since the last file was added is outdated.
    await contentChanged(d, datasetId);
  }
  return { source: { url: source.url, doi: source.doi }, fileIds, refused, skipped: source.skipped };
}
