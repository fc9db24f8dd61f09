// A dataset's rows and files written together (specification, States: one transaction), and the
// one reading of a model file that every way in (upload, API, new version, seeders) shares.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { nowIso } from '../../../core/db/database.ts';
import type { DbOrTrx } from '../../../core/db/connect.ts';
import type { ObjectPlacement } from '../../../core/storage/index.ts';
import * as repo from '../dataset.repository.ts';
import { checkModelText } from '../model-check.ts';
import type { FeatureModelInput, MetadataInput } from '../upload-form.ts';
import { DEFAULT_LICENSE } from '../licenses.ts';
import type { ModelOrigin, PreparedModel } from '../dataset.types.ts';
import type { DatasetDeps } from '../dataset.deps.ts';
import { readStored } from '../staging/staged-files.ts';
import { pauseHere } from '../../../core/test-pause.ts';

/** What a dataset is created with; the licence defaults to CC-BY-4.0. */
export type DatasetMetadata = Omit<MetadataInput, 'license'> & { license?: string };

/** What a dataset may be created with beyond its metadata: a DOI and date (seeders), its place among versions. */
export interface PersistExtra {
  doi?: string | null;
  createdAt?: string;
  version?: { conceptId: number; number: number; conceptDoi: string | null };
}

/** Reads and parses a model file once: syntax check, feature count, MD5 and size. */
export async function prepare(d: DatasetDeps, input: FeatureModelInput, origin: ModelOrigin, name: string) {
  const bytes = 'file' in origin ? await readFile(origin.file) : await readStored(d.ctx.store, origin.key);
  const check = checkModelText(bytes.toString('utf8'));
  const model: PreparedModel = {
    input, origin, name, size: bytes.length,
    checksum: createHash('md5').update(bytes).digest('hex'),
    features: check.features,
  };
  return { model, check };
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
      // The dataset id is new, but a process killed after placing files of a transaction that
      // never committed may have left them in this folder (SQLite and MariaDB give a rolled-back
      // id again): no committed row names them, so they go (crash tests, issue 26).
      await d.ctx.services.hubfile.removeDatasetFiles(userId, ids.datasetId);
      placement = d.ctx.services.hubfile.placeFiles(userId, ids.datasetId);
      await placement.stage(models.map((m) => ('key' in m.origin ? { sourceKey: m.origin.key, name: m.name } : { source: m.origin, name: m.name })));
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
    await hubfile.createFile(trx, fmId, { name: m.name, checksum: m.checksum, size: m.size });
  }
}

/** The rows of a dataset whose files failed after the commit. */
async function removeRows(d: DatasetDeps, datasetId: number): Promise<void> {
  await d.ctx.db.transaction().execute(async (trx) => {
    const row = await repo.findById(trx, datasetId);
    await d.ctx.services.featuremodel.deleteByDataset(trx, datasetId);
    if (row) await repo.deleteDatasetRows(trx, row);
  }).catch((e) => d.ctx.log.error({ err: e, datasetId }, 'could not remove the rows of a dataset whose files failed'));
}
