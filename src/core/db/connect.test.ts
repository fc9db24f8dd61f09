// The SQLite change stamp (connect.ts): caches beside a query's result trust it to move whenever
// anything was written, by this connection or by another one on the same file.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { changeStamp, compiledOnce, connect, inSqliteTransaction, runNow, type Db } from './connect.ts';

describe('SQLite change stamp', () => {
  let dir: string;
  let db: Db;
  let other: Db;
  const raw = (d: Db) => d as unknown as Kysely<any>;
  const stamp = (d: Db) => {
    const value = changeStamp(d);
    assert.equal(typeof value, 'number');
    return value!;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hub-stamp-'));
    db = connect(`sqlite:${join(dir, 'hub.sqlite')}`);
    other = connect(`sqlite:${join(dir, 'hub.sqlite')}`);
    await raw(db).schema.createTable('kept').addColumn('n', 'integer').execute();
    await raw(db).insertInto('kept').values({ n: 1 }).execute();
  });
  after(async () => {
    await db?.destroy();
    await other?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stays put while only reads run', async () => {
    const before = stamp(db);
    await raw(db).selectFrom('kept').selectAll().execute();
    await sql`select count(*) from kept`.execute(db);
    assert.equal(stamp(db), before);
  });

  it('moves on a write of this connection, a trigger-free update and an insert alike', async () => {
    let before = stamp(db);
    await raw(db).updateTable('kept').set({ n: 2 }).execute();
    assert.notEqual(stamp(db), before);
    before = stamp(db);
    await raw(db).insertInto('kept').values({ n: 3 }).execute();
    assert.notEqual(stamp(db), before);
  });

  it('moves on a commit of another connection to the same file, from the next turn of the event loop', async () => {
    const before = stamp(db);
    await raw(other).insertInto('kept').values({ n: 4 }).execute();
    // Requests read in one turn share one look at the file (connect.ts).
    await new Promise((resolve) => setImmediate(resolve));
    assert.notEqual(stamp(db), before);
    assert.equal(stamp(db), stamp(db), 'and then stays put again');
  });
});

describe('compiledOnce', () => {
  it('builds its query once per database, inside transactions too, and runs it with each call\'s arguments', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hub-compiled-'));
    const db = connect(`sqlite:${join(dir, 'hub.sqlite')}`);
    try {
      const raw = db as unknown as Kysely<any>;
      await raw.schema.createTable('kept').addColumn('n', 'integer').execute();
      let builds = 0;
      const insert = compiledOnce((d, n: number) => {
        builds++;
        return (d as unknown as Kysely<any>).insertInto('kept').values({ n });
      });
      await insert(db, 1);
      for (const n of [2, 3]) await db.transaction().execute((trx) => insert(trx, n));
      await insert(db, 4);
      assert.equal(builds, 1);
      const rows = await raw.selectFrom('kept').select('n').orderBy('n').execute();
      assert.deepEqual(rows.map((r) => r.n), [1, 2, 3, 4]);
    } finally {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs at once on SQLite, yet never reads or writes inside a transaction of Kysely\'s that is still open', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hub-at-once-'));
    const statements: string[] = [];
    const db = connect(`sqlite:${join(dir, 'hub.sqlite')}`, { onQuery: (q) => statements.push(q) });
    try {
      const raw = db as unknown as Kysely<any>;
      await raw.schema.createTable('kept').addColumn('n', 'integer').execute();
      const count = compiledOnce((d, n: number) => (d as unknown as Kysely<any>).selectFrom('kept').select((eb) => eb.fn.countAll().as('c')).where('n', '=', n));
      const insert = compiledOnce((d, n: number) => (d as unknown as Kysely<any>).insertInto('kept').values({ n }));
      const counted = async (n: number) => Number((await count(db, n)).rows[0]!.c);
      await insert(db, 1);
      assert.equal(await counted(1), 1);
      assert.ok(statements.some((q) => /^select count/i.test(q)), 'the query logger sees queries run at once');

      // A transaction that awaits between its statements and then rolls back: a read or a write
      // that came meanwhile must neither see its row nor be rolled back with it.
      let inside!: () => void;
      const insideNow = new Promise<void>((resolve) => { inside = resolve; });
      let finish!: () => void;
      const finishing = new Promise<void>((resolve) => { finish = resolve; });
      const rolledBack = db.transaction().execute(async (trx) => {
        await (trx as unknown as Kysely<any>).insertInto('kept').values({ n: 2 }).execute();
        inside();
        await finishing;
        throw new Error('rolled back on purpose');
      }).catch((error: Error) => error.message);
      await insideNow;
      const read = counted(2);
      const written = inSqliteTransaction(db, () => Number(runNow(db, insert.bound(db, 3)).numAffectedRows));
      const writtenAlone = insert(db, 4);
      finish();
      assert.equal(await rolledBack, 'rolled back on purpose');
      assert.equal(await read, 0, 'the uncommitted row was not read');
      assert.equal(await written, 1);
      await writtenAlone;
      assert.equal(await counted(3), 1, 'the batch written meanwhile stayed');
      assert.equal(await counted(4), 1, 'the insert run meanwhile stayed');
      assert.equal(await counted(2), 0);
    } finally {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
