// Group commit for small writes that many requests make at once (a view record per first
// visit): the writes waiting while one commit is under way go together in the next transaction,
// so a busy server pays one commit for many of them (SQLite writes its log per commit, PostgreSQL
// flushes it). Each caller still waits for the commit that holds its write, so nothing is
// answered before it is stored. A write alone runs as before, without a transaction around it.
//
// On SQLite a statement runs to its end before anything else does, so no write ever waits for
// another's commit and nothing would be grouped: there the first write of a quiet moment waits
// for the rest of the event loop's turn (the requests read in the same turn), and they go
// together. A first visit's record touches five pages (record, unique index, sequence, the
// dataset's counter, its index), each written to the log once per commit.
//
// On SQLite a writer may also give the write as one that runs at once (runNow): a batch then runs
// in one synchronous transaction, without a promise per write (connect.ts, inSqliteTransaction).
// Elsewhere a writer may give the batch's writes as one statement (writeMany, say a multi-row
// insert): one round trip to the server for the batch instead of one per write and two for the
// transaction around them, which is what a busy server's first visits waited for on PostgreSQL.
import { SqliteAdapter } from 'kysely';
import { inSqliteTransaction, runsNow, type Db, type DbOrTrx } from './connect.ts';

interface Waiting<I, R> {
  item: I;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/** The same write as `write`, run at once on SQLite's handle (connect.ts, runNow). */
export type WriteNow<I, R> = (db: Db, item: I) => R;

/**
 * The writes of `items` as `write` would make them one by one, all of them or none (one
 * statement, or a transaction), answering each item's result in their order; undefined where the
 * writer cannot on this database (the batch then runs in a transaction of single writes).
 */
export type WriteMany<I, R> = (db: Db, items: I[]) => Promise<R[]>;

export interface GroupCommitOptions<I, R> {
  writeNow?: WriteNow<I, R>;
  writeMany?: WriteMany<I, R>;
}

export function groupCommit<I, R>(db: Db, write: (db: DbOrTrx, item: I) => Promise<R>, options: GroupCommitOptions<I, R> = {}): (item: I) => Promise<R> {
  let waiting: Waiting<I, R>[] = [];
  let running = false;
  const gatherTurn = db.getExecutor().adapter instanceof SqliteAdapter;
  const now = options.writeNow !== undefined && runsNow(db) ? options.writeNow : undefined;
  const many = now === undefined ? options.writeMany : undefined;

  /** The batch's writes together: at once on SQLite when the writer can, as one statement when it can, else in a transaction through Kysely. */
  const writeAll = (batch: Waiting<I, R>[]): Promise<R[]> => {
    if (now !== undefined) return inSqliteTransaction(db, () => batch.map((entry) => now(db, entry.item)));
    if (many !== undefined) return many(db, batch.map((entry) => entry.item));
    return db.transaction().execute(async (trx) => {
      const out: R[] = [];
      for (const entry of batch) out.push(await write(trx, entry.item));
      return out;
    });
  };

  async function runAlone(entry: Waiting<I, R>): Promise<void> {
    try {
      entry.resolve(await write(db, entry.item));
    } catch (error) {
      entry.reject(error);
    }
  }

  async function drain(): Promise<void> {
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      if (batch.length === 1 && now === undefined) {
        await runAlone(batch[0]!);
        continue;
      }
      try {
        const results = await writeAll(batch);
        batch.forEach((entry, i) => entry.resolve(results[i]!));
      } catch {
        // One failing write (say, its dataset was just removed) must not cost the others theirs.
        for (const entry of batch) await runAlone(entry);
      }
    }
    running = false;
  }

  return (item: I) => new Promise<R>((resolve, reject) => {
    waiting.push({ item, resolve, reject });
    // The first write of a quiet moment starts at once (on SQLite after this turn of the event
    // loop); later ones join the next batch.
    if (running) return;
    running = true;
    if (gatherTurn) setImmediate(() => void drain());
    else void drain();
  });
}
