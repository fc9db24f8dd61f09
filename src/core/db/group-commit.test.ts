// Group commit on each database: concurrent writes share transactions, each caller gets its own
// answer once its write is committed, and one failing write costs no other its place.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { createTestDatabase, testDialects, type TestDatabase } from '../../../test/support/databases.ts';
import { compiledOnce, connect, runNow, runsNow, type Db, type DbOrTrx } from './connect.ts';
import { groupCommit } from './group-commit.ts';

for (const dialect of testDialects()) {
  describe(`group commit [${dialect.name}]`, () => {
    let database: TestDatabase;
    let db: Db;
    const statements: string[] = [];
    before(async () => {
      database = await createTestDatabase(dialect.baseUrl);
      db = connect(database.url, { onQuery: (q) => statements.push(q) });
      await (db as unknown as Kysely<any>).schema.createTable('grouped').addColumn('name', 'varchar(40)', (c) => c.primaryKey()).execute();
    });
    after(async () => {
      await db?.destroy();
      await database?.drop();
    });

    const insert = (trx: DbOrTrx, name: string) => (trx as unknown as Kysely<any>).insertInto('grouped').values({ name }).execute().then(() => `stored ${name}`);
    const names = async () => (await (db as unknown as Kysely<any>).selectFrom('grouped').select('name').orderBy('name').execute()).map((r) => r.name as string);

    it('stores every concurrent write, in fewer transactions than writes, answering each its own result', async () => {
      const write = groupCommit(db, insert);
      statements.length = 0;
      const wanted = Array.from({ length: 40 }, (_, i) => `w${String(i).padStart(2, '0')}`);
      const answers = await Promise.all(wanted.map((name) => write(name)));
      assert.deepEqual(answers, wanted.map((name) => `stored ${name}`));
      assert.deepEqual(await names(), wanted);
      const inserts = statements.filter((q) => /^insert/i.test(q)).length;
      assert.equal(inserts, 40);
      // The first write runs alone at once (on SQLite it waits for the turn of the event loop); the
      // others wait for it and go together.
      const transactions = statements.filter((q) => /^(begin|start transaction)/i.test(q)).length;
      assert.ok(transactions >= 1 && transactions < 39, `${transactions} transactions for 39 writes that waited`);
    });

    it('runs the writes it is given to run at once (SQLite) in shared transactions, and refuses only a failing one', async () => {
      const insertNow = compiledOnce((d, name: string) => (d as unknown as Kysely<any>).insertInto('grouped').values({ name }));
      const write = groupCommit(db, insert, { writeNow: (d, name: string) => {
        runNow(d, insertNow.bound(d, name));
        return `stored now ${name}`;
      } });
      const wanted = Array.from({ length: 20 }, (_, i) => `n${String(i).padStart(2, '0')}`);
      const answer = runsNow(db) ? 'stored now' : 'stored';
      assert.deepEqual(await Promise.all(wanted.map((name) => write(name))), wanted.map((name) => `${answer} ${name}`));
      assert.deepEqual((await names()).filter((name) => name.startsWith('n')), wanted);
      const results = await Promise.allSettled(['m1', 'w00', 'm2'].map((name) => write(name)));
      assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled'], 'w00 exists already');
      assert.ok((await names()).includes('m2'));
      assert.equal(runsNow(db), dialect.name === 'sqlite');
    });

    it('runs a batch as one statement when the writer can (writeMany), and a failing one as single writes', async () => {
      const batches: string[][] = [];
      const insertMany = async (d: Db, names: string[]) => {
        batches.push(names);
        await (d as unknown as Kysely<any>).insertInto('grouped').values(names.map((name) => ({ name }))).execute();
        return names.map((name) => `stored together ${name}`);
      };
      // SQLite's writes at once (writeNow) go first; without them a batch is one statement there too.
      const write = groupCommit(db, insert, { writeMany: insertMany });
      statements.length = 0;
      const wanted = Array.from({ length: 30 }, (_, i) => `g${String(i).padStart(2, '0')}`);
      const answers = await Promise.all(wanted.map((name) => write(name)));
      // The first write of a quiet moment runs alone (at once, or after SQLite's turn, in a batch of its own).
      const together = new Set(batches.flat());
      assert.deepEqual(answers, wanted.map((name) => (together.has(name) ? `stored together ${name}` : `stored ${name}`)));
      assert.ok(together.size >= 29, `${together.size} of 30 writes in batches`);
      assert.equal(statements.filter((q) => /^insert/i.test(q)).length, 30 - together.size + batches.length);
      assert.equal(statements.filter((q) => /^(begin|start transaction)/i.test(q)).length, 0, 'no transaction around a single statement');
      assert.deepEqual((await names()).filter((name) => name.startsWith('g')), wanted);
      // A batch holding a write that fails is written one by one: only that write is refused.
      const results = await Promise.allSettled(['h1', 'h2', 'w00', 'h3'].map((name) => write(name)));
      assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'fulfilled', 'rejected', 'fulfilled'], 'w00 exists already');
      assert.deepEqual((await names()).filter((name) => name.startsWith('h')), ['h1', 'h2', 'h3']);
    });

    it('refuses only the failing write of a batch; the others are stored', async () => {
      const write = groupCommit(db, insert);
      const results = await Promise.allSettled(['x1', 'x2', 'w00', 'x3'].map((name) => write(name)));
      assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'fulfilled', 'rejected', 'fulfilled'], 'w00 exists already');
      assert.ok((await names()).includes('x3'));
    });
  });
}
