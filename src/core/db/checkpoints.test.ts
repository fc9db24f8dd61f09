// WAL checkpoints in a worker thread (checkpoints.ts): the serving connection never checkpoints
// itself, the worker keeps the log from growing without end, nothing written is lost, and a
// worker that fails hands the work back to the serving connection.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { checkpointsOf, connect, type Db } from './connect.ts';
import { MAX_LOG_PAGES, WRITES_PER_CHECKPOINT, type CheckpointResult } from './checkpoints.ts';

const raw = (d: Db) => d as unknown as Kysely<any>;
const walSize = (file: string) => statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0;

/**
 * Inserts `n` rows of about 2 KB, one statement each (each its own commit), with a turn of the
 * event loop every 20 rows, as a server's requests leave between them (the worker's answers
 * arrive there).
 */
async function insertRows(db: Db, n: number, from = 0, betweenBatches?: () => Promise<void>): Promise<void> {
  for (let i = 0; i < n; i++) {
    await raw(db).insertInto('kept').values({ n: from + i, text: 'x'.repeat(2000) }).execute();
    if (i % 20 === 19) await (betweenBatches ? betweenBatches() : new Promise((resolve) => setImmediate(resolve)));
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('SQLite checkpoints in a worker', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hub-checkpoints-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** A new file database with the table the tests write. */
  async function freshDatabase(name: string): Promise<{ file: string; db: Db }> {
    const file = join(dir, `${name}.sqlite`);
    const db = connect(`sqlite:${file}`);
    await raw(db).schema.createTable('kept').addColumn('n', 'integer').addColumn('text', 'text').execute();
    return { file, db };
  }

  it('the serving connection does not checkpoint; the worker does, and the log stops growing', async () => {
    const { file, db } = await freshDatabase('a');
    assert.equal((await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(db)).rows[0]!.wal_autocheckpoint, 0);
    const results: CheckpointResult[] = [];
    const checkpoints = checkpointsOf.get(db)!;
    checkpoints.onCheckpoint = (r) => results.push(r);
    // The worker started first, and each checkpoint asked for answered before the next batch, as a
    // server's pauses between requests allow: no count here depends on how busy the machine is.
    checkpoints.checkpoint();
    while (results.length === 0) await tick();
    const awaitAnswer = async () => { while (checkpoints['running']) await tick(); };
    // About 6,000 pages of writes: with no checkpoint at all the log would hold them all (24 MB).
    await insertRows(db, 3000, 0, awaitAnswer);
    await awaitAnswer();
    assert.ok(results.length >= 1 + 3000 / WRITES_PER_CHECKPOINT, `${results.length} checkpoints`);
    assert.ok(results.some((r) => r.checkpointed > 0), 'pages were copied back');
    // The log file keeps its largest size (SQLite reuses it from the start): bounded by the pages
    // it may hold plus the writes made while a checkpoint ran.
    const wal = walSize(file);
    assert.ok(wal < (MAX_LOG_PAGES + 2 * WRITES_PER_CHECKPOINT * 4) * 4200, `the log holds ${wal} bytes`);
    await db.destroy();
    // Every row is there for a new connection.
    const check = new SQLite(file, { readonly: true });
    assert.equal((check.prepare('select count(*) as c from kept').get() as { c: number }).c, 3000);
    check.close();
  });

  it('destroy() resolves only once the worker has closed its connection: no log file is left behind', async () => {
    const { file, db } = await freshDatabase('d');
    const checkpoints = checkpointsOf.get(db)!;
    let answered = 0;
    checkpoints.onCheckpoint = () => { answered++; };
    await insertRows(db, 10);
    checkpoints.checkpoint();
    while (answered === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await db.destroy();
    // SQLite removes the log and shared-memory files when the last connection to the file closes:
    // both there means the worker's connection was still open (a folder removed now failed with
    // ENOTEMPTY in CI).
    assert.equal(statSync(`${file}-wal`, { throwIfNoEntry: false }), undefined);
    assert.equal(statSync(`${file}-shm`, { throwIfNoEntry: false }), undefined);
  });

  it('a worker that dies hands checkpoints back to the serving connection', async () => {
    const { file, db } = await freshDatabase('b');
    const checkpoints = checkpointsOf.get(db)!;
    let answered = 0;
    checkpoints.onCheckpoint = () => { answered++; };
    checkpoints.checkpoint();
    while (answered === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await checkpoints['worker']!.terminate();
    assert.equal((await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(db)).rows[0]!.wal_autocheckpoint, 1000);
    await insertRows(db, 50);
    await db.destroy();
    const check = new SQLite(file, { readonly: true });
    assert.equal((check.prepare('select count(*) as c from kept').get() as { c: number }).c, 50);
    check.close();
  });
  it('the serving connection never checkpoints inside one of its transactions, and never throws for it', async () => {
    const { db } = await freshDatabase('c');
    const checkpoints = checkpointsOf.get(db)!;
    await raw(db).transaction().execute(async (trx) => {
      await trx.insertInto('kept').values({ n: 1, text: 'x' }).execute();
      // Run directly, SQLite answers "database table is locked" here (the OAI paging test's seeding met it).
      assert.throws(() => (checkpoints as unknown as { database: { pragma(s: string): unknown } }).database.pragma('wal_checkpoint(PASSIVE)'), /locked/);
      assert.doesNotThrow(() => checkpoints['finishHere']());
    });
    await db.destroy();
  });
});
