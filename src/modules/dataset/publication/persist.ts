// A dataset's rows and files written together (specification, States: one transaction), and the
// one reading of a model file that every way in (upload, API, new version, seeders) shares.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { nowIso } from '../../../core/db/database.ts';
import type { DbOrTrx } from '../../../core/db/connect.ts';
import type { ObjectPlacement, PendingObject } from '../../../core/storage/index.ts';
import type { FileOriginal } from '../../hubfile/index.ts';
import { conversionOf, originalNameBeside, sha256, type StagedOriginal } from '../staging/converted-upload.ts';
import * as repo from '../dataset.repository.ts';
import type { FeatureModelInput, MetadataInput } from '../upload-form.ts';
import { DEFAULT_LICENSE } from '../licenses.ts';
import type { ModelOrigin, PreparedModel } from '../dataset.types.ts';
import type { DatasetDeps } from '../dataset.deps.ts';
import { readStored } from '../staging/staged-files.ts';
import type { Claim } from '../staging/claims.ts';
import { pauseHere } from '../../../core/test-pause.ts';
import { attachStaged, inheritSources } from '../staging/import-sources.ts';

/** What a dataset is created with; the licence defaults to CC-BY-4.0. */
export type DatasetMetadata = Omit<MetadataInput, 'license'> & { license?: string };

/** What a dataset may be created with beyond its metadata: a DOI and date (seeders), its place among versions. */
export interface PersistExtra {
  doi?: string | null;
  createdAt?: string;
  version?: { conceptId: number; number: number; conceptDoi: string | null };
  /** The staged files' claim the models come from: marked saved in the dataset's transaction. */
  claim?: Pick<Claim, 'setSaved'>;
  /** The staged names of the models: the sources of those imported from a URL become the dataset's, in its transaction. */
  stagedNames?: string[];
  /** The version the new one is made from: its sources (of models imported from a URL) are the new version's too. */
  sourcesFrom?: number;
}

/**
 * Reads and parses a model file once: syntax check, feature count, MD5 and size. A model
 * converted from another format (issue 27) brings its staged original, described here.
 */
export async function prepare(d: DatasetDeps, input: FeatureModelInput, origin: ModelOrigin, name: string, staged?: StagedOriginal, requester = 'background:dataset') {
  const bytes = 'file' in origin ? await readFile(origin.file) : await readStored(d.ctx.store, origin.key);
  // Parsed in a worker of the scheduler (check-in-worker.ts), queued as the uploader's job.
  const check = await d.stagedChecks.fullCheck(bytes, requester);
  const model: PreparedModel = {
    input, origin, name, size: bytes.length,
    checksum: createHash('md5').update(bytes).digest('hex'),
    features: check.features,
    original: staged && await describeOriginal(d, staged, name),
  };
  return { model, check };
}

async function describeOriginal(d: DatasetDeps, staged: StagedOriginal, uvlName: string): Promise<PreparedModel['original']> {
  const bytes = await readStored(d.ctx.store, staged.key);
  // Kept by content from the staging listing, which read it in a worker; read here only on a miss.
  const { format, losses } = await d.stagedChecks.conversion(staged.name, bytes);
  // Stored beside the model under the model's stem (the API may store it under another name than staged).
  return { key: staged.key, name: originalNameBeside(uvlName, staged.name), format, size: bytes.length, sha256: sha256(bytes), losses };
}

/** The objects a prepared model places in the dataset's folder: the model, and the original it was converted from. */
export function placedObjects(m: PreparedModel): PendingObject[] {
  const model: PendingObject = 'key' in m.origin ? { sourceKey: m.origin.key, name: m.name } : { source: m.origin, name: m.name };
  return m.original ? [model, { sourceKey: m.original.key, name: m.original.name }] : [model];
}

/**
 * Rows and files together (specification, States: one transaction). The copies are made while
 * the transaction is open and renamed after the commit; on any failure the copies go and, if
 * the commit already happened, so do the rows.
 */
export async function persist(d: DatasetDeps, userId: number, input: DatasetMetadata, models: PreparedModel[], extra: PersistExtra = {}): Promise<{ datasetId: number; metaId: number }> {
  const { db, log } = d.ctx;
  let placement: ObjectPlacement | undefined;
  let committed: { datasetId: number; metaId: number } | undefined;
  try {
    committed = await db.transaction().execute(async (trx) => {
      const ids = await repo.insertDataset(trx, {
        userId,
        createdAt: extra.createdAt ?? nowIso(),
        meta: {
          title: input.title, description: input.description, publication_type: input.publicationType,
          publication_doi: input.publicationDoi, tags: input.tags, dataset_doi: extra.doi ?? null,
          license: input.license ?? DEFAULT_LICENSE,
        },
        models: models.length,
        features: models.reduce((sum, m) => sum + m.features, 0),
        version: extra.version,
      });
      await repo.insertAuthors(trx, ids.metaId, input.authors);
      await insertModelRows(d, trx, ids.datasetId, models);
      await extra.claim?.setSaved(trx, true);
      if (extra.stagedNames) await attachStaged(trx, userId, ids.datasetId, extra.stagedNames);
      if (extra.sourcesFrom !== undefined) await inheritSources(trx, extra.sourcesFrom, ids.datasetId);
      // The dataset id is new, but a process killed after placing files of a transaction that
      // never committed may have left them in this folder (SQLite and MariaDB give a rolled-back
      // id again): no committed row names them, so they go (crash tests, issue 26).
      await d.ctx.services.hubfile.removeDatasetFiles(userId, ids.datasetId);
      placement = d.ctx.services.hubfile.placeFiles(userId, ids.datasetId);
      await placement.stage(models.flatMap(placedObjects));
      await pauseHere('upload:after-files');
      return ids;
    });
    await placement!.commit();
    return committed;
  } catch (error) {
    await placement?.abort().catch((e) => log.error({ err: e }, 'could not remove the copies of a failed upload'));
    if (committed) await removeRows(d, committed.datasetId);
    throw error;
  }
}

/** The feature model and file rows of the models. */
async function insertModelRows(d: DatasetDeps, trx: DbOrTrx, datasetId: number, models: PreparedModel[]): Promise<void> {
  const { featuremodel, hubfile } = d.ctx.services;
  for (const m of models) {
    await repo.insertFileName(trx, datasetId, m.name);
    const fmId = await featuremodel.createFeatureModel(trx, datasetId, {
      uvl_filename: m.name,
      title: m.input.title,
      description: m.input.description,
      publication_type: m.input.publicationType,
      publication_doi: m.input.publicationDoi,
      tags: m.input.tags,
      uvl_version: m.input.version,
      authors: m.input.authors,
    });
    await hubfile.createFile(trx, fmId, { name: m.name, checksum: m.checksum, size: m.size, original: originalRow(m) });
  }
}

/** The file row's description of the original, without its staging key. */
export function originalRow(m: PreparedModel): FileOriginal | null {
  if (!m.original) return null;
  const { key: _key, ...original } = m.original;
  return original;
}

/** The rows of a dataset whose files failed after the commit. */
async function removeRows(d: DatasetDeps, datasetId: number): Promise<void> {
  await d.ctx.db.transaction().execute(async (trx) => {
    const row = await repo.findById(trx, datasetId);
    await d.ctx.services.featuremodel.deleteByDataset(trx, datasetId);
    if (row) await repo.deleteDatasetRows(trx, row);
  }).catch((e) => d.ctx.log.error({ err: e, datasetId }, 'could not remove the rows of a dataset whose files failed'));
}
