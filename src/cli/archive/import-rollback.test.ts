// Extensions section 11: "With `--replace`, a failure at any point leaves the previous hub as it
// was, its rows and its files." A seeded hub is exported (archive A) and imported into each test
// database (SQLite and MariaDB with an uploads folder, PostgreSQL with the test S3 server); the
// hub also holds a file of its own that A lacks and a file outside its folders. Archive B has
// other emails, one file's bytes changed and one file more. Each test imports B with --replace and
// a failure injected into the real store or database: while the files switch (a move that fails,
// or that is done but answers an error), at the commit of the rows, at the id counters. After
// each, the hub's rows (every table) and files (every key, by SHA-256) are what they were, and no
// import folder is left in the store. A good import of B then leaves no backup or staging folder.
import { after, before, beforeEach, describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { createTestDatabase, testDialects, type TestDatabase } from '../../../test/support/databases.ts';
import { startS3, type TestS3 } from '../../../test/support/s3.ts';
import { loadConfig } from '../../core/config.ts';
import { connect } from '../../core/db/connect.ts';
import { createFileStore } from '../../core/storage/index.ts';
import { exportHub } from './export.ts';
import { importHub } from './import.ts';
import { archivedRows, dumpTables } from './archive.test-support.ts';
import { craftArchive, editRows, storedHashes } from './crafted.test-support.ts';
import { failingStore, statementFaults, type FailingStore } from './faults.test-support.ts';
import type { Manifest } from './manifest.ts';

const NO_LIMIT = Number.MAX_SAFE_INTEGER;
const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
/** A file of the previous hub that archive A lacks (removed by a good import), and one outside the hub's folders (kept). */
const OWN_FILE = { key: 'user_1/left-behind.uvl', content: 'features\n    Old\n' };
const OTHER_FILE = { key: 'other/keep.txt', content: 'not the hub\'s\n' };
const ADDED_FILE = { key: 'user_1/added.uvl', content: 'features\n    Added\n' };

describe('hub import --replace: a failure up to the end leaves the previous hub as it was (extensions section 11)', () => {
  const work = mkdtempSync(join(tmpdir(), 'hub-import-rollback-'));
  const a = join(work, 'a.zip');
  const b = join(work, 'b.zip');
  let source: TestServer;
  let manifestB: Manifest;

  before(async () => {
    source = await startTestServer({ seed: true, env: { STORAGE_URL: '' } });
    await exportHub({ databaseUrl: source.database.url, store: source.hub.ctx.store, out: a });
    await craftArchive(a, b, {
      entries: (entries, manifest) => {
        editRows(entries, manifest, 'user', (lines) => lines.map((l) => l.replaceAll('@example.com', '@elsewhere.org')));
        const first = manifest.files[0]!;
        entries.set(first.path, Buffer.concat([entries.get(first.path)!, Buffer.from('// changed in B\n')]));
        entries.set(`files/${ADDED_FILE.key}`, Buffer.from(ADDED_FILE.content));
        manifest.files.push({ key: ADDED_FILE.key, path: `files/${ADDED_FILE.key}`, sha256: '', size: 0 });
      },
    });
    manifestB = await craftedManifest(b);
  });

  after(async () => {
    await source?.close();
    rmSync(work, { recursive: true, force: true });
  });

  for (const dialect of testDialects()) {
    const onS3 = dialect.name === 'postgres';
    describe(`on ${dialect.name}${onS3 ? ' with S3' : ''}`, () => {
      let s3: TestS3 | undefined;
      let database: TestDatabase;
      let store: FailingStore;
      const faults = statementFaults();
      let db: ReturnType<typeof connect>;
      let rows: Record<string, string[]>;
      let files: Record<string, string>;
      const importB = () => importHub({ archive: b, db, databaseUrl: database.url, store, replace: true, maxBytes: NO_LIMIT });

      /** The previous hub's rows and files, byte for byte, and no import folder left in the store. */
      async function assertUnchanged(): Promise<void> {
        assert.deepEqual(await dumpTables(database.url), rows);
        assert.deepEqual(await storedHashes(store), files);
      }

      before(async () => {
        database = await createTestDatabase(dialect.baseUrl);
        s3 = onS3 ? await startS3('rollback') : undefined;
        const env = { WORKING_DIR: mkdtempSync(join(work, 'hub-')), DATABASE_URL: database.url, ...(s3 ? s3.env : { STORAGE_URL: '' }) };
        store = failingStore(createFileStore(loadConfig(env)));
        db = connect(database.url, { wrapDialect: faults.wrap });
        await importHub({ archive: a, db, databaseUrl: database.url, store, maxBytes: NO_LIMIT });
        await store.put(OWN_FILE.key, OWN_FILE.content);
        await store.put(OTHER_FILE.key, OTHER_FILE.content);
        rows = await dumpTables(database.url);
        files = await storedHashes(store);
        assert.ok(rows.user!.some((l) => l.includes('@example.com')) && files[manifestB.files[0]!.key] !== manifestB.files[0]!.sha256);
      });

      after(async () => {
        await store?.close();
        await db?.destroy();
        await database?.drop();
        await s3?.close();
      });

      // Each test starts from the previous hub, whatever the test before it left (A's rows and files, and the two extra files).
      beforeEach(async () => {
        store.clear();
        faults.clear();
        if (isDeepStrictEqual(await dumpTables(database.url), rows) && isDeepStrictEqual(await storedHashes(store), files)) return;
        await importHub({ archive: a, db, databaseUrl: database.url, store, replace: true, maxBytes: NO_LIMIT });
        await store.put(OWN_FILE.key, OWN_FILE.content);
        await assertUnchanged();
      });

      /** How many files the switch moves aside before it places the first of B's (the hub's own, and B's keys the store holds). */
      const movedAside = () => Object.keys(files).filter((k) => /^(temp|user_\d+)\//.test(k) || manifestB.files.some((f) => f.key === k)).length;

      const storeFailures: { name: string; nth: () => number; when?: 'before' | 'after' }[] = [
        { name: 'the second move of the previous hub\'s files aside', nth: () => 2 },
        { name: 'the first move of a staged file onto its key', nth: () => movedAside() + 1 },
        { name: 'the move of the last staged file onto its key', nth: () => movedAside() + manifestB.files.length },
        { name: 'a move onto its key that went through but answered an error', nth: () => movedAside() + 2, when: 'after' },
      ];
      for (const failure of storeFailures) {
        it(`a failure of ${failure.name}: rows and files as they were`, async () => {
          store.failOn('move', failure.nth(), failure.when);
          await assert.rejects(importB(), /injected failure of move/);
          assert.ok(store.fired);
          await assertUnchanged();
        });
      }

      it('a failure at the commit of the rows (after the files switched): rows and files as they were', async () => {
        faults.failOn(/^commit$/i);
        await assert.rejects(importB(), /did not commit the archive's rows \(injected failure/);
        assert.ok(faults.fired);
        await assertUnchanged();
      });

      it('a failure at the id counters: rows and files as they were (or, where no counter statement runs, the import done whole)', async () => {
        // The statements that set a counter (Kysely's introspection names `auto_incrementing` too: not those).
        faults.failOn(/^\s*(select setval\(|alter table \S+ auto_increment)/i);
        if (dialect.name === 'postgres') {
          await assert.rejects(importB(), /injected failure of the statement/);
          assert.ok(faults.fired);
          await assertUnchanged();
          return;
        }
        // MariaDB's InnoDB and SQLite raise their counters themselves as the rows go in: nothing runs after the commit.
        await importB();
        assert.equal(faults.fired, false);
        faults.clear();
        assert.deepEqual(await dumpTables(database.url), await archivedRows(b));
      });

      it('a good import of B: its rows and files, the file outside the hub\'s folders kept, no backup or staging folder left', async () => {
        await importB();
        assert.deepEqual(await dumpTables(database.url), await archivedRows(b));
        const expected = Object.fromEntries([...manifestB.files.map((f) => [f.key, f.sha256]), [OTHER_FILE.key, sha256(OTHER_FILE.content)]]);
        assert.deepEqual(await storedHashes(store), expected);
        assert.deepEqual((await store.list('temp/')).map((o) => o.key), []);
      });
    });
  }
});

/** The manifest of an archive. */
async function craftedManifest(archive: string): Promise<Manifest> {
  const { openZip } = await import('./zip-reader.ts');
  const zip = await openZip(archive);
  try {
    return JSON.parse(await zip.text('manifest.json', Infinity)) as Manifest;
  } finally {
    zip.close();
  }
}
