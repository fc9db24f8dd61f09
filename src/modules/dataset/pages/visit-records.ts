// View and download records (specification, dataset metrics): one per (user or anonymous, dataset, cookie).
import { nowIso } from '../../../core/db/database.ts';
import { supportsReturning, type Db, type DbOrTrx } from '../../../core/db/connect.ts';
import { groupCommit } from '../../../core/db/group-commit.ts';
import { LruMap } from '../../../core/lru-map.ts';
import * as repo from '../dataset.repository.ts';

type RecordWrite = { table: repo.RecordTable; values: Parameters<typeof repo.insertRecord>[2] };

/**
 * A batch of records as one multi-row insert per table (PostgreSQL: RETURNING tells which rows
 * were new), in a transaction when the batch holds both tables, so that it is all or nothing.
 */
async function insertBatch(db: Db, writes: RecordWrite[]): Promise<boolean[]> {
  const tables = [...new Set(writes.map((w) => w.table))];
  const insertAll = async (handle: DbOrTrx) => {
    const added = new Map<RecordWrite, boolean>();
    for (const table of tables) {
      const ofTable = writes.filter((w) => w.table === table);
      const results = await repo.insertRecords(handle, table, ofTable.map((w) => w.values));
      ofTable.forEach((w, i) => added.set(w, results[i]!));
    }
    return writes.map((w) => added.get(w)!);
  };
  return tables.length === 1 ? insertAll(db) : db.transaction().execute(insertAll);
}

export class VisitRecords {
  /**
   * Records known to exist: the unique index makes a repeated one a no-op, so a returning
   * visitor's view need not reach the database. Records are never removed while their dataset
   * exists, and dataset ids are not reused, so a kept key never hides a record that is missing.
   */
  private readonly known = new LruMap<string, true>(100_000);
  /** Many first visits at once share their commits (core/db/group-commit.ts). */
  private readonly insert: (r: RecordWrite) => Promise<boolean>;

  constructor(db: Db) {
    this.insert = groupCommit(db, (db: DbOrTrx, r: RecordWrite) => repo.insertRecord(db, r.table, r.values), {
      writeNow: (db, r) => repo.insertRecordNow(db, r.table, r.values),
      writeMany: supportsReturning(db) ? insertBatch : undefined,
    });
  }

  /**
   * Answers whether this record was new: `false` at once for one known to exist (a returning
   * visitor's answer then waits for no promise), else once it is written.
   */
  recordOnce(table: repo.RecordTable, datasetId: number, userId: number | null, cookie: string): false | Promise<boolean> {
    // Joined from an array: one flat string of its own. A template literal would keep a chain of
    // pieces, and the cookie's piece a slice of the whole Cookie header (several hundred bytes
    // per key among up to 100 000, seen in the soak's heap snapshots).
    const key = [table, datasetId, userId ?? 0, cookie].join('\n');
    if (this.known.has(key)) return false;
    return this.insert({ table, values: { datasetId, userId, cookie, date: nowIso() } }).then((added) => {
      this.known.set(key, true);
      return added;
    });
  }
}
