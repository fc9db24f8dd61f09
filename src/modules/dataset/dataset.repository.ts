// Queries on the dataset module's own tables: data_set, ds_meta_data, ds_metrics,
// the dataset authors, the dataset view/download records and doi_mapping.
import { sql } from 'kysely';
import type { DbOrTrx } from '../../core/db/connect.ts';
import { compiledOnce, inChunks, insertAndGetId } from '../../core/db/connect.ts';
import { nowIso } from '../../core/db/database.ts';

export interface DatasetRow {
  id: number;
  user_id: number;
  created_at: string;
  meta_id: number;
  title: string;
  description: string;
  publication_type: string;
  publication_doi: string | null;
  dataset_doi: string | null;
  /** When the DOI was stored (setDeposit); null for a draft. */
  published_at: string | null;
  deposition_id: number | null;
  tags: string | null;
  license: string;
  metrics_id: number | null;
  number_of_models: number;
  number_of_features: number;
  revision: number;
  /** The concept's first version (this row's own id on a first version). */
  concept_id: number;
  version_number: number;
  /** Versions in the dataset's family (1 for a dataset without versions). */
  version_count: number;
  concept_doi: string | null;
}

export interface AuthorRow {
  name: string;
  affiliation: string | null;
  orcid: string | null;
}

function datasets(db: DbOrTrx) {
  return db.selectFrom('data_set as ds')
    .innerJoin('ds_meta_data as md', 'md.id', 'ds.ds_meta_data_id')
    .leftJoin('ds_metrics as mt', 'mt.id', 'md.ds_metrics_id')
    .select([
      'ds.id', 'ds.user_id', 'ds.created_at', 'md.id as meta_id', 'md.title', 'md.description', 'md.publication_type',
      'md.publication_doi', 'md.dataset_doi', 'md.published_at', 'md.deposition_id', 'md.tags', 'md.license', 'mt.id as metrics_id',
      'mt.number_of_models', 'mt.number_of_features', 'ds.revision', 'ds.concept_id', 'ds.version_number', 'md.concept_doi',
    ])
    .select(versionCount);
}

/**
 * How many versions the family of the row `ds` has, so that every list can say "v2 of 3"
 * (extensions section 9): the concept's first version (`concept_id` NULL) and the rows naming it.
 */
const versionCount = sql<number>`(select count(*) from data_set v where v.id = coalesce(ds.concept_id, ds.id) or v.concept_id = coalesce(ds.concept_id, ds.id))`.as('version_count');

// PostgreSQL answers BIGINT and COUNT as strings; MariaDB may answer DECIMAL sums as strings.
function toRow(r: Record<string, unknown>): DatasetRow {
  return {
    id: Number(r.id),
    user_id: Number(r.user_id),
    created_at: String(r.created_at),
    meta_id: Number(r.meta_id),
    title: String(r.title),
    description: String(r.description),
    publication_type: String(r.publication_type),
    publication_doi: (r.publication_doi as string | null) ?? null,
    dataset_doi: (r.dataset_doi as string | null) ?? null,
    published_at: (r.published_at as string | null) ?? null,
    deposition_id: r.deposition_id === null || r.deposition_id === undefined ? null : Number(r.deposition_id),
    tags: (r.tags as string | null) ?? null,
    license: String(r.license),
    metrics_id: r.metrics_id === null || r.metrics_id === undefined ? null : Number(r.metrics_id),
    number_of_models: Number(r.number_of_models ?? 0),
    number_of_features: Number(r.number_of_features ?? 0),
    revision: Number(r.revision ?? 0),
    concept_id: r.concept_id === null || r.concept_id === undefined ? Number(r.id) : Number(r.concept_id),
    version_number: Number(r.version_number ?? 1),
    version_count: Number(r.version_count ?? 1),
    concept_doi: (r.concept_doi as string | null) ?? null,
  };
}

export async function findById(db: DbOrTrx, id: number): Promise<DatasetRow | undefined> {
  const row = await datasets(db).where('ds.id', '=', id).executeTakeFirst();
  return row && toRow(row);
}

// The DOI page's queries run on every view: compiled once (compiledOnce).
const byDoi = compiledOnce((db: DbOrTrx, doi: string) => datasets(db).where('md.dataset_doi', '=', doi));

export async function findByDoi(db: DbOrTrx, doi: string): Promise<DatasetRow | undefined> {
  const [row] = (await byDoi(db, doi)).rows;
  return row && toRow(row);
}

/**
 * What says whether a kept DOI page is still current, in one query: the dataset's revision and
 * counts, the DOI as stored (MariaDB matches it ignoring case), a newer DOI it was moved to, and
 * its versions' number and summed revisions (a new or newly published version changes the
 * "Version N of M" links of every other).
 */
const doiPageStateQuery = compiledOnce((db: DbOrTrx, doi: string, mappedDoi: string) =>
  db.selectFrom('ds_meta_data as md').innerJoin('data_set as ds', 'ds.ds_meta_data_id', 'md.id')
    .select(['ds.id', 'ds.revision', 'ds.view_count', 'ds.download_count', 'md.dataset_doi'])
    .select((eb) => eb.selectFrom('doi_mapping').select('dataset_doi_new').where('dataset_doi_old', '=', mappedDoi).as('moved_to'))
    // One number for the whole version family, changed by any write of any version and by a
    // version added or removed: sum(revision) * 2^20 + count (a family never nears 2^20 versions).
    .select((eb) => eb.selectFrom('data_set as v')
      .select((v) => sql<number>`sum(${v.ref('v.revision')}) * 1048576 + count(*)`.as('n'))
      .where((v) => v.or([v('v.id', '=', v.fn.coalesce('ds.concept_id', 'ds.id')), v('v.concept_id', '=', v.fn.coalesce('ds.concept_id', 'ds.id'))]))
      .as('family'))
    .where('md.dataset_doi', '=', doi));

export interface DoiPageState {
  id: number;
  doi: string;
  movedTo: string | null;
  /** Changes with every write of the dataset or of any of its versions. */
  stamp: string;
  views: number;
  downloads: number;
}

export async function doiPageState(db: DbOrTrx, doi: string): Promise<DoiPageState | undefined> {
  const [row] = (await doiPageStateQuery(db, doi, doi)).rows;
  if (!row || row.dataset_doi === null) return undefined;
  return {
    id: Number(row.id),
    doi: row.dataset_doi,
    movedTo: row.moved_to ?? null,
    stamp: `${Number(row.revision)}.${Number(row.family)}`,
    views: Number(row.view_count),
    downloads: Number(row.download_count),
  };
}

/** The DOI as stored, matched ignoring case (DOIs are case-insensitive); a fallback for a missed exact lookup. */
export async function findDoiIgnoringCase(db: DbOrTrx, doi: string): Promise<string | undefined> {
  const row = await db.selectFrom('ds_meta_data').select('dataset_doi')
    .where((eb) => eb(eb.fn('lower', ['dataset_doi']), '=', doi.toLowerCase())).executeTakeFirst();
  return row?.dataset_doi ?? undefined;
}

/** Datasets by id, in no particular order. */
export async function findByIds(db: DbOrTrx, ids: number[]): Promise<DatasetRow[]> {
  const out: DatasetRow[] = [];
  for (const part of inChunks([...new Set(ids)])) {
    if (part.length === 0) continue;
    out.push(...(await datasets(db).where('ds.id', 'in', part).execute()).map(toRow));
  }
  return out;
}

export async function findOwnerRef(db: DbOrTrx, id: number) {
  const row = await db.selectFrom('data_set as ds').innerJoin('ds_meta_data as md', 'md.id', 'ds.ds_meta_data_id')
    .select(['ds.id', 'ds.user_id', 'md.dataset_doi']).where('ds.id', '=', id).executeTakeFirst();
  return row && { datasetId: Number(row.id), userId: Number(row.user_id), doi: row.dataset_doi ?? null };
}

/** One page of a user's datasets, newest first. */
export function listForUser(db: DbOrTrx, userId: number, limit: number, offset: number) {
  return db.selectFrom('data_set as ds')
    .innerJoin('ds_meta_data as md', 'md.id', 'ds.ds_meta_data_id')
    .select(['ds.id', 'ds.created_at', 'md.title', 'md.publication_type', 'md.dataset_doi', 'ds.version_number'])
    .select(versionCount)
    .where('ds.user_id', '=', userId)
    .orderBy('ds.created_at', 'desc').orderBy('ds.id', 'desc')
    .limit(limit).offset(offset)
    .execute();
}

export async function countForUser(db: DbOrTrx, userId: number): Promise<number> {
  const row = await db.selectFrom('data_set').select((eb) => eb.fn.countAll().as('count'))
    .where('user_id', '=', userId).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Every dataset of a user, newest first. */
export async function listAllForUser(db: DbOrTrx, userId: number): Promise<DatasetRow[]> {
  const rows = await datasets(db).where('ds.user_id', '=', userId)
    .orderBy('ds.created_at', 'desc').orderBy('ds.id', 'desc').execute();
  return rows.map(toRow);
}

/** Synchronized datasets plus, for a logged-in caller, the caller's own unsynchronized ones (decisions section 4). */
function visibleTo(db: DbOrTrx, userId: number | null) {
  return db.selectFrom('data_set as ds')
    .innerJoin('ds_meta_data as md', 'md.id', 'ds.ds_meta_data_id')
    .where((eb) => (userId === null
      ? eb('md.dataset_doi', 'is not', null)
      : eb.or([eb('md.dataset_doi', 'is not', null), eb('ds.user_id', '=', userId)])));
}

export async function listVisibleIds(db: DbOrTrx, userId: number | null, limit: number, offset: number): Promise<number[]> {
  const rows = await visibleTo(db, userId).select('ds.id')
    .orderBy('ds.created_at', 'desc').orderBy('ds.id', 'desc').limit(limit).offset(offset).execute();
  return rows.map((r) => Number(r.id));
}

export async function countVisible(db: DbOrTrx, userId: number | null): Promise<number> {
  const row = await visibleTo(db, userId).select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function latestSynchronizedIds(db: DbOrTrx, limit: number): Promise<number[]> {
  const rows = await db.selectFrom('data_set as ds').innerJoin('ds_meta_data as md', 'md.id', 'ds.ds_meta_data_id')
    .select('ds.id').where('md.dataset_doi', 'is not', null)
    .orderBy('ds.created_at', 'desc').orderBy('ds.id', 'desc').limit(limit).execute();
  return rows.map((r) => Number(r.id));
}

/** Marks a write of the dataset's searchable content. */
export async function bumpRevision(db: DbOrTrx, datasetId: number): Promise<void> {
  await db.updateTable('data_set').set((eb) => ({ revision: eb('revision', '+', 1) })).where('id', '=', datasetId).execute();
}

/** Every dataset's id with its revision. */
export async function allRevisions(db: DbOrTrx): Promise<{ id: number; revision: number }[]> {
  const rows = await db.selectFrom('data_set').select(['id', 'revision']).orderBy('id').execute();
  return rows.map((r) => ({ id: Number(r.id), revision: Number(r.revision) }));
}

export async function allIds(db: DbOrTrx): Promise<number[]> {
  const rows = await db.selectFrom('data_set').select('id').orderBy('id').execute();
  return rows.map((r) => Number(r.id));
}

export async function countAll(db: DbOrTrx): Promise<number> {
  const row = await db.selectFrom('data_set').select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function countSynchronized(db: DbOrTrx): Promise<number> {
  const row = await db.selectFrom('data_set as ds').innerJoin('ds_meta_data as md', 'md.id', 'ds.ds_meta_data_id')
    .select((eb) => eb.fn.countAll().as('count')).where('md.dataset_doi', 'is not', null).executeTakeFirstOrThrow();
  return Number(row.count);
}

// ---- writes -------------------------------------------------------------------------------

export interface NewMetaData {
  title: string;
  description: string;
  publication_type: string;
  publication_doi: string | null;
  tags: string | null;
  dataset_doi: string | null;
  license: string;
}

export async function insertDataset(
  trx: DbOrTrx,
  values: {
    userId: number; createdAt: string; meta: NewMetaData; models: number; features: number;
    /** A later version of a concept: its first version's id, the version's number and the concept DOI. */
    version?: { conceptId: number; number: number; conceptDoi: string | null };
  },
): Promise<{ datasetId: number; metaId: number }> {
  const metricsId = await insertAndGetId(trx, 'ds_metrics', { number_of_models: values.models, number_of_features: values.features });
  const metaId = await insertAndGetId(trx, 'ds_meta_data', {
    ...values.meta, deposition_id: null, ds_metrics_id: metricsId, concept_doi: values.version?.conceptDoi ?? null,
    // A dataset made with its DOI (seeders) was published when it was created.
    published_at: values.meta.dataset_doi === null ? null : values.createdAt,
  });
  const datasetId = await insertAndGetId(trx, 'data_set', {
    user_id: values.userId, ds_meta_data_id: metaId, created_at: values.createdAt,
    concept_id: values.version?.conceptId ?? null, version_number: values.version?.number ?? 1,
  });
  return { datasetId, metaId };
}

export async function insertAuthors(trx: DbOrTrx, metaId: number, authors: AuthorRow[]): Promise<void> {
  if (authors.length === 0) return;
  await trx.insertInto('author').values(authors.map((a, position) => ({
    name: a.name, affiliation: a.affiliation, orcid: a.orcid, position, ds_meta_data_id: metaId, fm_meta_data_id: null,
  }))).execute();
}

export async function authorsByMetaIds(db: DbOrTrx, metaIds: number[]): Promise<Map<number, AuthorRow[]>> {
  const byMeta = new Map<number, AuthorRow[]>();
  for (const part of inChunks([...new Set(metaIds)])) {
    if (part.length === 0) continue;
    const rows = await db.selectFrom('author').select(['ds_meta_data_id', 'name', 'affiliation', 'orcid'])
      .where('ds_meta_data_id', 'in', part).orderBy('ds_meta_data_id').orderBy('position').orderBy('id').execute();
    for (const r of rows) {
      const key = Number(r.ds_meta_data_id);
      byMeta.set(key, [...(byMeta.get(key) ?? []), { name: r.name, affiliation: r.affiliation, orcid: r.orcid }]);
    }
  }
  return byMeta;
}

/**
 * Stores the DOI and the time of publication (the OAI-PMH datestamp) in one statement; the
 * deposition that was pending is settled by it. Dated here, in the caller's transaction, so the
 * time is as close to the commit as the DOI's. Only under the deposit claim taken at `claimedAt`
 * (ds_meta_data.deposit_claimed_at): a publish that ran past the claim's stale time and lost it to
 * a newer one records nothing over that one's. Answers whether it was stored.
 */
export async function setDeposit(db: DbOrTrx, metaId: number, claimedAt: string, doi: string, depositionId: number | null): Promise<boolean> {
  const result = await db.updateTable('ds_meta_data')
    .set({ dataset_doi: doi, published_at: nowIso(), deposition_id: depositionId, pending_deposition_id: null })
    .where('id', '=', metaId).where('deposit_claimed_at', '=', claimedAt).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Takes the name in the dataset; a unique violation when a file of that name is there (or arriving). */
export async function insertFileName(trx: DbOrTrx, datasetId: number, name: string): Promise<void> {
  await trx.insertInto('dataset_file_name').values({ data_set_id: datasetId, name }).execute();
}

export async function deleteFileName(trx: DbOrTrx, datasetId: number, name: string): Promise<void> {
  await trx.deleteFrom('dataset_file_name').where('data_set_id', '=', datasetId).where('name', '=', name).execute();
}

export async function updateMetaData(
  db: DbOrTrx,
  metaId: number,
  changes: Partial<{ title: string; description: string; publication_type: string; publication_doi: string | null; tags: string | null; license: string }>,
): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('ds_meta_data').set(changes).where('id', '=', metaId).execute();
}

/** The dataset's authors become `authors`, in this order. */
export async function replaceAuthors(trx: DbOrTrx, metaId: number, authors: AuthorRow[]): Promise<void> {
  await trx.deleteFrom('author').where('ds_meta_data_id', '=', metaId).execute();
  await insertAuthors(trx, metaId, authors);
}

/** Adds to the metrics (negative to subtract) in one statement, so concurrent changes do not lose counts. */
export async function adjustMetrics(db: DbOrTrx, metricsId: number, models: number, features: number): Promise<void> {
  await db.updateTable('ds_metrics').set((eb) => ({
    number_of_models: eb('number_of_models', '+', models),
    number_of_features: eb('number_of_features', '+', features),
  })).where('id', '=', metricsId).execute();
}

/**
 * Counts one more model of `features` features while the dataset holds fewer than `max`; answers
 * false (nothing changed) at the limit. One conditional UPDATE: of simultaneous additions at the
 * limit's edge, the row lock lets one through and the others see its count.
 */
export async function addModelWithin(db: DbOrTrx, metricsId: number, features: number, max: number): Promise<boolean> {
  const result = await db.updateTable('ds_metrics').set((eb) => ({
    number_of_models: eb('number_of_models', '+', 1),
    number_of_features: eb('number_of_features', '+', features),
  })).where('id', '=', metricsId).where('number_of_models', '<', max).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Removes the dataset's own rows; its feature models must be gone already (featuremodel.deleteByDataset). */
export async function deleteDatasetRows(trx: DbOrTrx, row: { id: number; meta_id: number; metrics_id: number | null }): Promise<void> {
  await trx.deleteFrom('ds_view_record').where('dataset_id', '=', row.id).execute();
  await trx.deleteFrom('ds_download_record').where('dataset_id', '=', row.id).execute();
  await trx.deleteFrom('dataset_edit').where('dataset_id', '=', row.id).execute();
  await trx.deleteFrom('dataset_file_name').where('data_set_id', '=', row.id).execute();
  await trx.deleteFrom('data_set').where('id', '=', row.id).execute();
  await trx.deleteFrom('author').where('ds_meta_data_id', '=', row.meta_id).execute();
  await trx.deleteFrom('ds_meta_data').where('id', '=', row.meta_id).execute();
  if (row.metrics_id !== null) await trx.deleteFrom('ds_metrics').where('id', '=', row.metrics_id).execute();
}

export * from './dataset.records.repository.ts';
