// The rows of `hub import`: every row the database held is deleted and every archived row
// inserted in ONE transaction, so a row the database refuses (a duplicate key, a missing
// reference) rolls all of it back, the previous rows included. No DDL runs inside it: MariaDB
// would commit there on its own.
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../core/db/connect.ts';
import type { ArchivedTable, Manifest } from './manifest.ts';
import { rebuildSqliteFullText, type TableInfo } from './schema.ts';
import { decodeRow } from './values.ts';
import { rowLines, targetColumns } from './verify.ts';
import { ArchiveLimitError, type ZipReader } from './zip-reader.ts';

/** Rows per INSERT, and the JSON size after which a batch is sent earlier (MariaDB's packet limit). */
const BATCH_ROWS = 200;
const BATCH_BYTES = 1 << 20;

/**
 * Columns the database raises itself when a row of another table is inserted (the view and
 * download counts, migration 2026_11_24_0300): written again from the archive once every
 * record row is in, or each count would hold twice its records.
 */
const RAISED_BY_TRIGGERS = [{ table: 'data_set', key: 'id', columns: ['view_count', 'download_count'] }];

/** The archived table's rows, in batches ready to insert into the target's columns. */
async function* rowBatches(zip: ZipReader, archived: ArchivedTable, target: TableInfo, dialect: DialectName): AsyncGenerator<Record<string, unknown>[]> {
  const columns = targetColumns(archived, target);
  let batch: Record<string, unknown>[] = [];
  let bytes = 0;
  for await (const line of rowLines(zip, archived)) {
    batch.push(decodeRow(line, columns, dialect));
    bytes += line.length;
    if (batch.length >= BATCH_ROWS || bytes >= BATCH_BYTES) {
      yield batch;
      batch = [];
      bytes = 0;
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * Empties every table, those that reference others first. MariaDB checks a table's references
 * to itself row by row while deleting, so its checks are off for the deletes only (a session
 * setting of this transaction's connection, on again before any row is inserted).
 */
async function deleteRows(trx: Kysely<any>, order: TableInfo[], dialect: DialectName): Promise<void> {
  if (dialect === 'mysql') await sql`SET FOREIGN_KEY_CHECKS = 0`.execute(trx);
  try {
    for (const table of [...order].reverse()) await sql`DELETE FROM ${sql.id(table.name)}`.execute(trx);
  } finally {
    if (dialect === 'mysql') await sql`SET FOREIGN_KEY_CHECKS = 1`.execute(trx);
  }
}

async function insertRows(trx: Kysely<any>, zip: ZipReader, manifest: Manifest, order: TableInfo[], dialect: DialectName): Promise<void> {
  for (const table of order) {
    const archived = manifest.tables.find((t) => t.name === table.name)!;
    for await (const batch of rowBatches(zip, archived, table, dialect)) await trx.insertInto(table.name).values(batch).execute();
  }
  for (const raised of RAISED_BY_TRIGGERS) {
    const archived = manifest.tables.find((t) => t.name === raised.table);
    const target = order.find((t) => t.name === raised.table);
    if (!archived || !target || !raised.columns.every((c) => target.columns.some((t) => t.name === c))) continue;
    for await (const batch of rowBatches(zip, archived, target, dialect)) {
      for (const row of batch) {
        const values = Object.fromEntries(raised.columns.map((c) => [c, row[c]]));
        await trx.updateTable(raised.table).set(values).where(raised.key, '=', row[raised.key]).execute();
      }
    }
  }
}

export class RowsRefusedError extends Error {}

/**
 * Replaces every row of the database by the archive's, all or nothing. `beforeCommit` runs in
 * the same transaction once every row is in, right before the commit: a failure there, or of
 * the commit itself, rolls the rows back too (the caller then undoes what the step changed).
 */
export async function replaceRows(db: Kysely<any>, zip: ZipReader, manifest: Manifest, order: TableInfo[], dialect: DialectName,
  beforeCommit: (trx: Kysely<any>) => Promise<void>): Promise<void> {
  // How far the transaction got (a cast: assigned in the callback, which TypeScript does not follow).
  let reached = 'rows' as 'rows' | 'step' | 'commit';
  try {
    await db.transaction().execute(async (trx) => {
      await deleteRows(trx, order, dialect);
      await insertRows(trx, zip, manifest, order, dialect);
      if (dialect === 'sqlite') await rebuildSqliteFullText(trx);
      reached = 'step';
      await beforeCommit(trx);
      reached = 'commit';
    });
  } catch (error) {
    // The step's own failure is reported as it is; the rows were fine.
    if (error instanceof ArchiveLimitError || reached === 'step') throw error;
    const reason = error instanceof Error ? error.message : String(error);
    if (reached === 'commit') throw new RowsRefusedError(`The database did not commit the archive's rows (${reason}): nothing was imported`);
    throw new RowsRefusedError(`The database refused the archive's rows (${reason}): nothing was imported, the database holds what it held before`);
  }
}
