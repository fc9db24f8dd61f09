// Queries on feature_model, fm_meta_data and the feature model authors (author rows with
// fm_meta_data_id). Plain functions over a handle or a transaction; lists are batched with
// IN lists (cut into parts by inChunks), so a page of results costs a fixed number of queries.
import type { DbOrTrx } from '../../core/db/connect.ts';
import { inChunks, insertAndGetId } from '../../core/db/connect.ts';
import type { FMMetaDataTable } from './featuremodel.tables.ts';

export type NewFMMetaData = Omit<FMMetaDataTable, 'id'>;

export interface NewAuthor {
  name: string;
  affiliation: string | null;
  orcid: string | null;
}

export function insertMetaData(db: DbOrTrx, meta: NewFMMetaData): Promise<number> {
  return insertAndGetId(db, 'fm_meta_data', { ...meta });
}

export async function insertAuthors(db: DbOrTrx, fmMetaDataId: number, authors: readonly NewAuthor[]): Promise<void> {
  if (authors.length === 0) return;
  await db.insertInto('author').values(authors.map((a, position) => ({
    name: a.name, affiliation: a.affiliation, orcid: a.orcid, position, fm_meta_data_id: fmMetaDataId, ds_meta_data_id: null,
  }))).execute();
}

export function insertFeatureModel(db: DbOrTrx, datasetId: number, fmMetaDataId: number): Promise<number> {
  return insertAndGetId(db, 'feature_model', { data_set_id: datasetId, fm_meta_data_id: fmMetaDataId });
}

export interface FeatureModelRow extends NewFMMetaData {
  id: number;
  data_set_id: number;
  fm_meta_data_id: number;
}

/** The feature models of the given datasets with their metadata, in creation order. */
export async function listWithMetaByDatasets(db: DbOrTrx, datasetIds: readonly number[]): Promise<FeatureModelRow[]> {
  const rows: FeatureModelRow[] = [];
  for (const part of inChunks(datasetIds)) {
    const found = await db.selectFrom('feature_model as fm')
      .innerJoin('fm_meta_data as md', 'md.id', 'fm.fm_meta_data_id')
      .select(['fm.id', 'fm.data_set_id', 'fm.fm_meta_data_id', 'md.uvl_filename', 'md.title', 'md.description',
        'md.publication_type', 'md.publication_doi', 'md.tags', 'md.uvl_version'])
      .where('fm.data_set_id', 'in', part)
      .orderBy('fm.id')
      .execute();
    for (const r of found) rows.push({ ...r, id: Number(r.id), data_set_id: Number(r.data_set_id), fm_meta_data_id: Number(r.fm_meta_data_id) });
  }
  return rows;
}

export interface AuthorRow extends NewAuthor {
  fm_meta_data_id: number;
}

/** Authors of the given feature model metadata rows, each list in its stored order. */
export async function listAuthorsByMetaData(db: DbOrTrx, fmMetaDataIds: readonly number[]): Promise<AuthorRow[]> {
  const rows: AuthorRow[] = [];
  for (const part of inChunks(fmMetaDataIds)) {
    const found = await db.selectFrom('author')
      .select(['fm_meta_data_id', 'name', 'affiliation', 'orcid'])
      .where('fm_meta_data_id', 'in', part)
      .orderBy('fm_meta_data_id').orderBy('position').orderBy('id')
      .execute();
    for (const r of found) rows.push({ fm_meta_data_id: Number(r.fm_meta_data_id), name: r.name, affiliation: r.affiliation, orcid: r.orcid });
  }
  return rows;
}

export async function findDatasetId(db: DbOrTrx, featureModelId: number): Promise<number | undefined> {
  const row = await db.selectFrom('feature_model').select('data_set_id').where('id', '=', featureModelId).executeTakeFirst();
  return row ? Number(row.data_set_id) : undefined;
}

export async function findIds(db: DbOrTrx, featureModelId: number): Promise<{ id: number; fm_meta_data_id: number } | undefined> {
  const row = await db.selectFrom('feature_model').select(['id', 'fm_meta_data_id']).where('id', '=', featureModelId).executeTakeFirst();
  return row && { id: Number(row.id), fm_meta_data_id: Number(row.fm_meta_data_id) };
}

export async function listIdsByDataset(db: DbOrTrx, datasetId: number): Promise<{ id: number; fm_meta_data_id: number }[]> {
  const rows = await db.selectFrom('feature_model').select(['id', 'fm_meta_data_id']).where('data_set_id', '=', datasetId).execute();
  return rows.map((r) => ({ id: Number(r.id), fm_meta_data_id: Number(r.fm_meta_data_id) }));
}

/** Removes the feature models, their authors and metadata; their files must be gone already. */
export async function deleteByIds(db: DbOrTrx, rows: readonly { id: number; fm_meta_data_id: number }[]): Promise<void> {
  for (const part of inChunks(rows)) {
    const metaIds = part.map((r) => r.fm_meta_data_id);
    await db.deleteFrom('feature_model').where('id', 'in', part.map((r) => r.id)).execute();
    await db.deleteFrom('author').where('fm_meta_data_id', 'in', metaIds).execute();
    await db.deleteFrom('fm_meta_data').where('id', 'in', metaIds).execute();
  }
}

export async function countAll(db: DbOrTrx): Promise<number> {
  const row = await db.selectFrom('feature_model').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
