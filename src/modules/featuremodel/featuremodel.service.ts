// Feature model service (service contract: featuremodel). Owns feature_model, fm_meta_data
// and the feature model authors; files come from the hubfile service, the owning dataset from
// the dataset service (coupling rule 3), both looked up at call time.
import type { DbOrTrx } from '../../core/db/connect.ts';
import type { ModuleContext } from '../../core/modules.ts';
import { bindOperations } from '../../core/operations.ts';
import { publicationTypeLabel } from '../../core/publication-types.ts';
import { splitTags } from '../../core/tags.ts';
import type { HubfileView } from '../hubfile/index.ts';
import * as repo from './featuremodel.repository.ts';

export interface FeatureModelAuthor {
  name: string;
  affiliation: string | null;
  orcid: string | null;
}

export interface NewFeatureModel extends repo.NewFMMetaData {
  authors: FeatureModelAuthor[];
}

export interface FeatureModelView {
  id: number;
  datasetId: number;
  meta: {
    uvl_filename: string;
    title: string;
    description: string;
    publication_type: string;
    publicationTypeLabel: string;
    publication_doi: string | null;
    tags: string[];
    uvl_version: string | null;
  };
  authors: FeatureModelAuthor[];
  files: HubfileView[];
}

export interface DatasetRef {
  datasetId: number;
  userId: number;
  /** The dataset's DOI; null while it is unsynchronized. */
  doi: string | null;
}

/** Feature models of several datasets, each with its authors and files, in three queries whatever their number (no N+1). */
export async function listByDatasets(ctx: ModuleContext, datasetIds: number[]): Promise<Map<number, FeatureModelView[]>> {
  const { db } = ctx;
  const result = new Map<number, FeatureModelView[]>();
  const ids = [...new Set(datasetIds)];
  for (const id of ids) result.set(id, []);
  if (ids.length === 0) return result;
  const rows = await repo.listWithMetaByDatasets(db, ids);
  if (rows.length === 0) return result;
  // One query per table whatever the number of datasets (no N+1): models, authors, files.
  const [authors, files] = await Promise.all([
    repo.listAuthorsByMetaData(db, rows.map((r) => r.fm_meta_data_id)),
    ctx.services.hubfile.listByFeatureModels(rows.map((r) => r.id)),
  ]);
  const authorsByMeta = new Map<number, FeatureModelAuthor[]>();
  for (const a of authors) {
    const list = authorsByMeta.get(a.fm_meta_data_id) ?? [];
    list.push({ name: a.name, affiliation: a.affiliation, orcid: a.orcid });
    authorsByMeta.set(a.fm_meta_data_id, list);
  }
  for (const r of rows) {
    result.get(r.data_set_id)!.push({
      id: r.id,
      datasetId: r.data_set_id,
      meta: {
        uvl_filename: r.uvl_filename,
        title: r.title,
        description: r.description,
        publication_type: r.publication_type,
        publicationTypeLabel: publicationTypeLabel(r.publication_type),
        publication_doi: r.publication_doi,
        tags: splitTags(r.tags),
        uvl_version: r.uvl_version,
      },
      authors: authorsByMeta.get(r.fm_meta_data_id) ?? [],
      files: files.get(r.id) ?? [],
    });
  }
  return result;
}

/** Inserts the metadata, its authors (in the given order) and the feature model; answers the feature model id. */
export async function createFeatureModel(_ctx: ModuleContext, trx: DbOrTrx, datasetId: number, meta: NewFeatureModel): Promise<number> {
  const { authors, ...fields } = meta;
  const metaId = await repo.insertMetaData(trx, {
    uvl_filename: fields.uvl_filename,
    title: fields.title,
    description: fields.description,
    publication_type: fields.publication_type,
    publication_doi: fields.publication_doi,
    tags: fields.tags,
    uvl_version: fields.uvl_version,
  });
  await repo.insertAuthors(trx, metaId, authors);
  return repo.insertFeatureModel(trx, datasetId, metaId);
}

export async function listByDataset(ctx: ModuleContext, datasetId: number): Promise<FeatureModelView[]> {
  return (await listByDatasets(ctx, [datasetId])).get(datasetId) ?? [];
}

export async function getDatasetRef(ctx: ModuleContext, featureModelId: number): Promise<DatasetRef | undefined> {
  const datasetId = await repo.findDatasetId(ctx.db, featureModelId);
  if (datasetId === undefined) return undefined;
  return ctx.services.dataset.getOwnerRef(datasetId);
}

/** Removes the dataset's feature models with their metadata, authors, files and file records. */
export async function deleteByDataset(ctx: ModuleContext, trx: DbOrTrx, datasetId: number): Promise<void> {
  const rows = await repo.listIdsByDataset(trx, datasetId);
  if (rows.length === 0) return;
  await ctx.services.hubfile.deleteByFeatureModels(trx, rows.map((r) => r.id));
  await repo.deleteByIds(trx, rows);
}

/** Removes one feature model with its metadata, authors, files and file records (the API's file deletion). */
export async function deleteFeatureModel(ctx: ModuleContext, trx: DbOrTrx, featureModelId: number): Promise<void> {
  const row = await repo.findIds(trx, featureModelId);
  if (!row) return;
  await ctx.services.hubfile.deleteByFeatureModels(trx, [featureModelId]);
  await repo.deleteByIds(trx, [row]);
}

export function countAll(ctx: ModuleContext): Promise<number> {
  return repo.countAll(ctx.db);
}

/** A feature model's views and downloads are those of its files (specification, hubfile). */
export function totals(ctx: ModuleContext): Promise<{ views: number; downloads: number }> {
  return ctx.services.hubfile.totals();
}

export async function hasData(ctx: ModuleContext): Promise<boolean> {
  return (await repo.countAll(ctx.db)) > 0;
}

export function createFeatureModelService(ctx: ModuleContext) {
  return bindOperations(ctx, {
    createFeatureModel, listByDataset, listByDatasets, getDatasetRef, deleteByDataset, deleteFeatureModel, countAll, totals, hasData,
  });
}

export type FeatureModelService = ReturnType<typeof createFeatureModelService>;
