// The dataset REST resource (/api/v1/datasets/, decisions sections 4 and 7) and the API's write
// flow (extensions section 3: an unsynchronized dataset, files one by one, then the deposit).
import type { Readable } from 'node:stream';
import { badRequest, conflict, type HttpError, notFound } from '../../../core/http/errors.ts';
import { isUniqueViolation } from '../../../core/db/connect.ts';
import { nowIso } from '../../../core/db/database.ts';
import * as repo from '../dataset.repository.ts';
import { pauseHere } from '../../../core/test-pause.ts';
import { safeModelName } from '../staging/staging.ts';
import { MAX_FEATURE_MODELS } from '../upload-form.ts';
import { DEFAULT_LICENSE } from '../licenses.ts';
import { contentChanged, publicUrl, type DatasetDeps } from '../dataset.deps.ts';
import { summaries, summary } from '../pages/dataset.parts.ts';
import { placedObjects, originalRow, prepare } from '../publication/persist.ts';
import { uvlNameOf } from '../staging/converted-upload.ts';
import { tooManyFeatures } from '../staging/staged-files.ts';
import { defaultAuthors } from '../publication/upload.ts';
import { alreadyPublished, deleteUnsynchronized, pushOutcome, type PushOutcome } from '../publication/deposit.ts';
import { holdAgainstDeposit } from '../publication/deposit-claim.ts';
import { restObjects } from './dataset.rest-objects.ts';
import { NOT_FOUND_BODY, ownedOrThrow, restInput } from './rest-input.ts';

const PUBLISHED = 'The dataset is published (it has a DOI): its files cannot change.';
// ---- REST /api/v1/datasets/ (decisions sections 4 and 7) -------------------------------------

export async function apiList(d: DatasetDeps, viewerId: number | null, page: number, perPage: number) {
  const [ids, total] = await Promise.all([
    repo.listVisibleIds(d.ctx.db, viewerId, perPage, (page - 1) * perPage),
    repo.countVisible(d.ctx.db, viewerId),
  ]);
  return { items: await restObjects(d, await summaries(d, ids)), page, per_page: perPage, total };
}

export async function apiGet(d: DatasetDeps, datasetId: number, viewerId: number | null) {
  const dataset = await summary(d, datasetId);
  if (!dataset || (!dataset.synchronized && dataset.userId !== viewerId)) throw notFound('DataSet not found', NOT_FOUND_BODY);
  return (await restObjects(d, [dataset]))[0];
}

/** An unsynchronized dataset without files; the creator is its first author. */
export async function apiCreate(d: DatasetDeps, userId: number, body: unknown): Promise<number> {
  const input = restInput(body, 'create');
  // Read before the transaction: SQLite has one connection, which the transaction holds.
  const authors = input.authors && input.authors.length > 0 ? input.authors : await defaultAuthors(d, userId);
  const datasetId = await d.ctx.db.transaction().execute(async (trx) => {
    const ids = await repo.insertDataset(trx, {
      userId, createdAt: nowIso(),
      meta: {
        title: input.name!, description: input.description ?? '', publication_type: input.publicationType,
        publication_doi: null, tags: input.tags ?? null, dataset_doi: null, license: input.license ?? DEFAULT_LICENSE,
      },
      models: 0, features: 0,
    });
    await repo.insertAuthors(trx, ids.metaId, authors);
    return ids.datasetId;
  });
  await contentChanged(d, datasetId);
  return datasetId;
}

/**
 * Removes the rows and the dataset folder; a synchronized dataset has a public DOI and stays (409),
 * and so does one a publish is depositing or Zenodo turns out to have published (deposit.ts).
 */
export async function apiDelete(d: DatasetDeps, datasetId: number, userId: number): Promise<void> {
  const row = await ownedOrThrow(d.ctx.db, datasetId, userId);
  if (row.dataset_doi !== null) {
    throw conflict('A synchronized dataset has a DOI and cannot be deleted.', { message: 'A synchronized dataset has a DOI and cannot be deleted.' });
  }
  await deleteUnsynchronized(d, row);
  await d.ctx.events.emit('dataset.deleted', { datasetId });
}

function tooManyModels(): HttpError {
  const message = `A dataset holds at most ${MAX_FEATURE_MODELS} models.`;
  return conflict(message, { message });
}

function duplicateName(name: string): HttpError {
  const message = `The dataset already has a file named ${name}: delete it first or rename the new one.`;
  return conflict(message, { message });
}

// ---- the API's write flow (extensions section 3): files one by one, then the deposit --------

/**
 * Adds one model to the owner's unsynchronized dataset, under the rules of an upload: the
 * staging limits and name rules, the syntax check (an invalid model is refused with its
 * errors, nothing kept), at most MAX_FEATURE_MODELS files. Answers the new file's id.
 */
export async function addFile(d: DatasetDeps, datasetId: number, userId: number, clientName: string, content: Readable, isTruncated: () => boolean): Promise<number> {
  const row = await ownedOrThrow(d.ctx.db, datasetId, userId);
  if (row.dataset_doi !== null) throw conflict(PUBLISHED, { message: PUBLISHED });
  // Checked here to spare a refused file its staging, and again in the transaction, atomically.
  if (row.number_of_models >= MAX_FEATURE_MODELS) throw tooManyModels();
  const stored = await d.apiStaging.store(userId, clientName, content, isTruncated);
  try {
    // A model of another format is converted when staged (issue 27) and stored as `<stem>.uvl`.
    const name = uvlNameOf(safeModelName(clientName));
    const { model, check } = await prepare(d, {
      index: 0, uvlFilename: name, title: name.replace(/\.uvl$/i, ''), description: '', publicationType: 'none',
      publicationDoi: null, tags: null, version: null, authors: [],
    }, { key: stored.key }, name, stored.original, `account:${userId}`);
    if (!check.valid) {
      throw badRequest(`${name} is not a valid UVL model.`, { message: `${name} is not a valid UVL model.`, errors: check.errors });
    }
    if (model.features > d.ctx.config.maxFeatures) throw tooManyFeatures(clientName, model.features, d.ctx.config.maxFeatures);
    const { hubfile, featuremodel } = d.ctx.services;
    const placement = hubfile.placeFiles(row.user_id, datasetId);
    let fileId: number;
    try {
      fileId = await d.ctx.db.transaction().execute(async (trx) => {
        // First, so that of two simultaneous uploads of one name the second stops here (the key
        // waits for the first's commit), before any file of it is placed.
        await repo.insertFileName(trx, datasetId, name).catch((error: unknown) => {
          throw isUniqueViolation(error) ? duplicateName(name) : error;
        });
        await holdAgainstDeposit(trx, row);
        const fmId = await featuremodel.createFeatureModel(trx, datasetId, {
          uvl_filename: name, title: model.input.title, description: '', publication_type: 'none',
          publication_doi: null, tags: null, uvl_version: null, authors: [],
        });
        const id = await hubfile.createFile(trx, fmId, { name, checksum: model.checksum, size: model.size, original: originalRow(model) });
        if (row.metrics_id !== null && !(await repo.addModelWithin(trx, row.metrics_id, model.features, MAX_FEATURE_MODELS))) throw tooManyModels();
        // The name is ours (its row above): an object stored under it is a killed process's leftover.
        await hubfile.removeLeftovers(row.user_id, datasetId, placedObjects(model).map((o) => o.name));
        await placement.stage(placedObjects(model));
        await pauseHere('upload:after-files');
        return id;
      });
    } catch (error) {
      await placement.abort().catch((e) => d.ctx.log.error({ err: e }, 'could not remove the copy of a refused file'));
      throw error;
    }
    await placement.commit();
    await contentChanged(d, datasetId);
    return fileId;
  } finally {
    await d.apiStaging.remove(userId, stored.name).catch(() => {});
  }
}

/** Removes one file (and its feature model) from the owner's unsynchronized dataset. */
export async function removeFile(d: DatasetDeps, datasetId: number, userId: number, fileId: number): Promise<void> {
  const row = await ownedOrThrow(d.ctx.db, datasetId, userId);
  const file = await d.ctx.services.hubfile.getFile(fileId);
  if (!file || file.datasetId !== datasetId) throw notFound('File not found', { message: 'File not found' });
  if (row.dataset_doi !== null) throw conflict(PUBLISHED, { message: PUBLISHED });
  const text = (await d.ctx.services.hubfile.readText(file)) ?? '';
  // Counted by the check the upload made (kept by content), else in a worker of the scheduler.
  const features = (await d.stagedChecks.fullCheck(Buffer.from(text, 'utf8'), `account:${userId}`)).features;
  await d.ctx.db.transaction().execute(async (trx) => {
    await holdAgainstDeposit(trx, row);
    await d.ctx.services.featuremodel.deleteFeatureModel(trx, file.featureModelId);
    await repo.deleteFileName(trx, datasetId, file.name);
    if (row.metrics_id !== null) await repo.adjustMetrics(trx, row.metrics_id, -1, -features);
  });
  await d.ctx.services.hubfile.removeStoredFile(file).catch((e) => d.ctx.log.warn({ err: e }, 'the stored file of a removed model could not be deleted'));
  await contentChanged(d, datasetId);
}

/** The deposit of the owner's unsynchronized dataset: the same push as the upload form's. */
export async function publish(d: DatasetDeps, datasetId: number, userId: number): Promise<PushOutcome> {
  const row = await ownedOrThrow(d.ctx.db, datasetId, userId);
  if (row.dataset_doi !== null) throw alreadyPublished(d, row.dataset_doi);
  if (row.number_of_models === 0) {
    const message = 'The dataset has no models yet: add at least one file before publishing.';
    throw badRequest(message, { message });
  }
  // Zenodo refuses a deposition without a description; saying so here beats a `partial` answer.
  if (row.description.trim() === '') {
    const message = 'The dataset has no description: set one (PUT /api/v1/datasets/<id>) before publishing.';
    throw badRequest(message, { message, field: 'description' });
  }
  return pushOutcome(d, datasetId);
}
