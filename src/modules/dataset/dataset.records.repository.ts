// Queries on the dataset module's record tables: view and download records, the DOI mapping and
// the edit history (split from dataset.repository.ts, which re-exports them).
import type { Db, DbOrTrx } from '../../core/db/connect.ts';
import { compiledOnce, insertUnlessDuplicateQuery, runNow } from '../../core/db/connect.ts';
import { updateElseInsert } from '../../core/db/upsert.ts';

// ---- view and download records --------------------------------------------------------------

export type RecordTable = 'ds_view_record' | 'ds_download_record';

type RecordValues = { datasetId: number; userId: number | null; cookie: string; date: string };

/**
 * One record per (user or anonymous, dataset, cookie): the unique index decides, so that
 * concurrent requests and several instances cannot count twice. Answers whether a row was added.
 */
export async function insertRecord(
  db: DbOrTrx,
  table: RecordTable,
  values: RecordValues,
): Promise<boolean> {
  // A new record raises the dataset's count in the same statement (a trigger, migration 0300).
  const result = await insertRecordQuery[table](db, values.datasetId, values.userId, values.userId ?? 0, values.cookie, values.date);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/** insertRecord at once, inside inSqliteTransaction (core/db/group-commit.ts). */
export function insertRecordNow(db: Db, table: RecordTable, values: RecordValues): boolean {
  const result = runNow(db, insertRecordQuery[table].bound(db, values.datasetId, values.userId, values.userId ?? 0, values.cookie, values.date));
  return Number(result.numAffectedRows ?? 0) > 0;
}

/**
 * insertRecord of many records of one table as one statement, answering for each whether it was
 * new; only where the database has RETURNING (supportsReturning). A record repeated in `values`
 * is new at most once, the first time.
 */
export async function insertRecords(db: DbOrTrx, table: RecordTable, values: RecordValues[]): Promise<boolean[]> {
  const rows = values.map((v) => ({ dataset_id: v.datasetId, user_id: v.userId, user_key: v.userId ?? 0, cookie: v.cookie, date: v.date }));
  const added = await insertUnlessDuplicateQuery(db, table, rows).returning(['dataset_id', 'user_key', 'cookie']).execute();
  const keyOf = (datasetId: unknown, userKey: unknown, cookie: unknown) => `${datasetId}\n${userKey}\n${cookie}`;
  const fresh = new Set(added.map((row) => keyOf(row.dataset_id, row.user_key, row.cookie)));
  return rows.map((row) => fresh.delete(keyOf(row.dataset_id, row.user_key, row.cookie)));
}

const recordInsert = (table: RecordTable) => compiledOnce((db: DbOrTrx, dataset_id: number, user_id: number | null, user_key: number, cookie: string, date: string) =>
  insertUnlessDuplicateQuery(db, table, { dataset_id, user_id, user_key, cookie, date }));
const insertRecordQuery = { ds_view_record: recordInsert('ds_view_record'), ds_download_record: recordInsert('ds_download_record') };

/** The view and download counts of one dataset (kept on its row). */
const countsQuery = compiledOnce((db: DbOrTrx, datasetId: number) =>
  db.selectFrom('data_set').select(['view_count', 'download_count']).where('id', '=', datasetId));

export async function recordCounts(db: DbOrTrx, datasetId: number): Promise<{ views: number; downloads: number }> {
  const [row] = (await countsQuery(db, datasetId)).rows;
  return { views: Number(row?.view_count ?? 0), downloads: Number(row?.download_count ?? 0) };
}

/** Counted in the database (specification, Landing page rules), so it grows with the records. */
export async function countRecords(db: DbOrTrx, table: RecordTable): Promise<number> {
  const row = await db.selectFrom(table).select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow();
  return Number(row.count);
}

// ---- DOI mapping -------------------------------------------------------------------------------

const newDoiQuery = compiledOnce((db: DbOrTrx, oldDoi: string) => db.selectFrom('doi_mapping').select('dataset_doi_new').where('dataset_doi_old', '=', oldDoi));

export async function findNewDoi(db: DbOrTrx, oldDoi: string): Promise<string | undefined> {
  return (await newDoiQuery(db, oldDoi)).rows[0]?.dataset_doi_new;
}

export async function saveDoiMapping(db: DbOrTrx, oldDoi: string, newDoi: string): Promise<void> {
  // Another process recording the same old DOI at the same moment: the update after the refused insert wins.
  await updateElseInsert(db, 'doi_mapping', 'dataset_doi_old', { dataset_doi_old: oldDoi, dataset_doi_new: newDoi });
}

// ---- edit history (extensions section 2) -------------------------------------------------------

export async function insertEdit(trx: DbOrTrx, values: { datasetId: number; userId: number; editedAt: string; fields: string[] }): Promise<void> {
  await trx.insertInto('dataset_edit').values({
    dataset_id: values.datasetId, user_id: values.userId, edited_at: values.editedAt, fields: values.fields.join(','),
  }).execute();
}

/** A dataset's edits, newest first. */
export async function listEdits(db: DbOrTrx, datasetId: number): Promise<{ userId: number; editedAt: string; fields: string[] }[]> {
  const rows = await db.selectFrom('dataset_edit').select(['user_id', 'edited_at', 'fields'])
    .where('dataset_id', '=', datasetId).orderBy('edited_at', 'desc').orderBy('id', 'desc').execute();
  return rows.map((r) => ({ userId: Number(r.user_id), editedAt: r.edited_at, fields: r.fields.split(',').filter((f) => f !== '') }));
}
