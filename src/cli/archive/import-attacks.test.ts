// Issue 34: `hub import --replace` with a crafted archive destroyed the hub it should replace. A
// seeded hub is exported (archive A) and imported into each test database (SQLite, and the
// PostgreSQL and MariaDB of TEST_DATABASE_URLS) with an uploads folder; archive B is A with every
// account's email changed, so that any import of B that went through shows. Each attack is B
// crafted one way; after each refusal the hub's rows, its files (by SHA-256) and, at the end, its
// pages and a login are what they were. A failed import into an empty hub leaves it empty, and B
// imports afterwards.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { createTestDatabase, testDialects, type TestDatabase } from '../../../test/support/databases.ts';
import { startS3, type TestS3 } from '../../../test/support/s3.ts';
import { TestClient } from '../../../test/support/client.ts';
import { loadConfig } from '../../core/config.ts';
import { connect } from '../../core/db/connect.ts';
import { createFileStore, type FileStore } from '../../core/storage/index.ts';
import { migrations } from '../../../migrations/index.ts';
import { importHub } from './import.ts';
import { openZip } from './zip-reader.ts';
import { exportHub } from './export.ts';
import { dataTables, hasRows } from './schema.ts';
import { dumpTables, visibleHub, type VisibleHub } from './archive.test-support.ts';
import { waitForAnalyses } from '../../modules/analysis/analysis.test-support.ts';
import { craftArchive, editRows, storedHashes, type Craft } from './crafted.test-support.ts';

const NO_LIMIT = Number.MAX_SAFE_INTEGER;
/** Inflates from about 64 KB in the zip (the was 2 GiB from 2 MB; the same attack, smaller). */
const BOMB_BYTES = 64 * 1024 * 1024;

const work = mkdtempSync(join(tmpdir(), 'hub-import-attacks-'));
const path = (name: string) => join(work, name);
/** Outside every store: a path traversal that worked would write here. */
const outsideName = `outside-${randomBytes(6).toString('hex')}.uvl`;

let sizeOfB = 0;

const otherEmails: Craft['entries'] = (entries, manifest) =>
  editRows(entries, manifest, 'user', (lines) => lines.map((l) => l.replaceAll('@example.com', '@elsewhere.org')));

/** Archive B changed by `craft` (after B's own change of emails). */
function attack(craft: Craft): Craft {
  return {
    entries: (entries, manifest) => {
      otherEmails!(entries, manifest);
      craft.entries?.(entries, manifest);
    },
    manifest: craft.manifest,
    rename: craft.rename,
  };
}


const ATTACKS: { name: string; craft: Craft; refused: RegExp; maxBytes?: () => number }[] = [
  { name: 'schemaVersion "toString"', craft: attack({ manifest: (m) => { m.schemaVersion = 'toString'; } }), refused: /schema version "toString" is unknown/ },
  { name: 'schemaVersion "__proto__"', craft: attack({ manifest: (m) => { m.schemaVersion = '__proto__'; } }), refused: /schema version "__proto__" is unknown/ },
  {
    name: 'a duplicate primary key with correct hashes',
    craft: attack({ entries: (e, m) => editRows(e, m, 'user', (lines) => [...lines, lines[0]!]) }),
    refused: /database refused the archive's rows/,
  },
  {
    name: 'an entry larger than declared (a small archive inflating to 64 MiB)',
    craft: attack({
      entries: (e, m) => {
        const bomb = Buffer.alloc(BOMB_BYTES);
        e.set('files/user_1/bomb.uvl', bomb);
        m.files.push({ key: 'user_1/bomb.uvl', path: 'files/user_1/bomb.uvl', sha256: createHash('sha256').update(bomb).digest('hex'), size: 0 });
      },
      manifest: (m) => { m.files.find((f) => f.key === 'user_1/bomb.uvl')!.size = 5; },
    }),
    refused: /bomb\.uvl holds 67108864 bytes, its manifest declares 5/,
  },
  // One byte below what B unpacks to (its manifest, tables and files).
  { name: 'a total over IMPORT_MAX_BYTES', craft: attack({}), maxBytes: () => sizeOfB - 1, refused: /unpacks to \d+ bytes, more than IMPORT_MAX_BYTES/ },
  {
    name: 'a file key that climbs out of the store',
    craft: attack({ manifest: (m) => { m.files.push({ key: `../../${outsideName}`, path: `files/../../${outsideName}`, sha256: '0'.repeat(64), size: 1 }); } }),
    refused: /is not a plain path inside the store/,
  },
  {
    name: 'a zip entry whose name climbs out of the store',
    craft: attack({ entries: (e) => { e.set(`__/${outsideName}`, Buffer.from('features\n    Escaped\n')); }, rename: [[`__/${outsideName}`, `../${outsideName}`]] }),
    refused: /not a zip this hub can read \(invalid relative path: \.\.\//,
  },
  {
    // A known migration, so it passes the version check; the hub's rows are at the newest one.
    name: 'an older schema version while the hub holds rows',
    craft: attack({ manifest: (m) => { m.schemaVersion = Object.keys(migrations).sort()[0]!; } }),
    refused: /replace it only with an archive of its own version/,
  },
  {
    // Checked before anything changes: the move into place, after the rows commit, would fail on it.
    name: 'a file where the hub has a folder (user_1/dataset_1)',
    craft: attack({
      entries: (e, m) => {
        for (const f of m.files.filter((f) => f.key.startsWith('user_1/dataset_1/'))) e.delete(f.path);
        m.files = m.files.filter((f) => !f.key.startsWith('user_1/dataset_1/'));
        e.set('files/user_1/dataset_1', Buffer.from('features\n    Folder\n'));
        m.files.push({ key: 'user_1/dataset_1', path: 'files/user_1/dataset_1', sha256: '', size: 0 });
      },
    }),
    refused: /file user_1\/dataset_1 would take the place of a folder holding user_1\/dataset_1\//,
  },
  { name: 'a wrong SHA-256', craft: attack({ manifest: (m) => { m.files[0]!.sha256 = '0'.repeat(64); } }), refused: /does not match its SHA-256/ },
  {
    name: 'a row with a value missing',
    craft: attack({ entries: (e, m) => editRows(e, m, 'user', (lines) => [JSON.stringify((JSON.parse(lines[0]!) as unknown[]).slice(1)), ...lines.slice(1)]) }),
    refused: /Row 1 of the archive's table user has \d+ values for \d+ columns/,
  },
  {
    name: 'a row with an object for an id',
    craft: attack({ entries: (e, m) => editRows(e, m, 'data_set', (lines) => lines.map((l, i) => (i === 0 ? JSON.stringify([{ id: 1 }, ...(JSON.parse(l) as unknown[]).slice(1)]) : l))) }),
    refused: /Row 1 of the archive's table data_set has a value of column id that is no integer value/,
  },
  {
    name: 'a row that is not JSON',
    craft: attack({ entries: (e, m) => editRows(e, m, 'file', (lines) => [...lines.slice(0, -1), '[1, 2']) }),
    refused: /of the archive's table file is not JSON/,
  },
];

describe('hub import never destroys a hub (issue 34)', () => {
  let source: TestServer;
  let dois: string[];
  let fileIds: number[];
  let seen: VisibleHub;

  before(async () => {
    source = await startTestServer({ seed: true, env: { STORAGE_URL: '' } });
    const db = source.hub.db;
    fileIds = (await db.selectFrom('file').select('id').orderBy('id').execute()).map((r) => r.id);
    await waitForAnalyses(source, fileIds);
    dois = (await db.selectFrom('ds_meta_data').select('dataset_doi').where('dataset_doi', 'is not', null).execute()).map((r) => r.dataset_doi!);
    await exportHub({ databaseUrl: source.database.url, store: source.hub.ctx.store, out: path('a.zip') });
    seen = await visibleHub(source.baseUrl, dois, fileIds);
    await craftArchive(path('a.zip'), path('b.zip'), { entries: otherEmails });
    const b = await openZip(path('b.zip'));
    sizeOfB = b.names().reduce((sum, name) => sum + b.size(name), 0);
    b.close();
    for (const [i, a] of ATTACKS.entries()) await craftArchive(path('a.zip'), path(`attack-${i}.zip`), a.craft);
  });

  after(async () => {
    await source?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('the crafted archives are small: the bomb is a few hundred KB, its entry 64 MiB', async () => {
    const { statSync } = await import('node:fs');
    const bomb = ATTACKS.findIndex((a) => a.name.startsWith('an entry larger'));
    assert.ok(statSync(path(`attack-${bomb}.zip`)).size < statSync(path('a.zip')).size + 512 * 1024);
    assert.ok(fileIds.length > 0 && dois.length > 0, 'the seeded hub has files and DOIs');
  });

  for (const dialect of testDialects()) {
    // PostgreSQL's hub keeps its files on the test S3 server (staging, moves and removals through S3), the others in an uploads folder.
    const onS3 = dialect.name === 'postgres';
    describe(`on ${dialect.name}${onS3 ? ' with S3' : ''}`, () => {
      let s3: TestS3 | undefined;
      let database: TestDatabase;
      let workingDir: string;
      let env: Record<string, string>;
      let store: FileStore;
      let db: ReturnType<typeof connect>;
      let rows: Record<string, string[]>;
      let files: Record<string, string>;
      const run = (archive: string, maxBytes = NO_LIMIT) => importHub({ archive, db, databaseUrl: database.url, store, replace: true, maxBytes });

      before(async () => {
        database = await createTestDatabase(dialect.baseUrl);
        workingDir = mkdtempSync(join(work, 'hub-'));
        s3 = onS3 ? await startS3('attacked') : undefined;
        env = { WORKING_DIR: workingDir, DATABASE_URL: database.url, ...(s3 ? s3.env : { STORAGE_URL: '' }) };
        store = createFileStore(loadConfig(env));
        db = connect(database.url);
        await importHub({ archive: path('a.zip'), db, databaseUrl: database.url, store, maxBytes: NO_LIMIT });
        rows = await dumpTables(database.url);
        files = await storedHashes(store);
        assert.ok(Object.keys(files).length > 0 && rows.user!.some((l) => l.includes('user1@example.com')));
      });

      after(async () => {
        await store?.close();
        await db?.destroy();
        await database?.drop();
        await s3?.close();
      });

      for (const [i, a] of ATTACKS.entries()) {
        it(`refuses ${a.name} and leaves the hub's rows and files as they were`, async () => {
          await assert.rejects(run(path(`attack-${i}.zip`), a.maxBytes?.()), a.refused);
          assert.deepEqual(await dumpTables(database.url), rows);
          assert.deepEqual(await storedHashes(store), files);
          assert.ok(!existsSync(resolve(workingDir, 'uploads', '..', '..', outsideName)) && !existsSync(join(tmpdir(), outsideName)));
        });
      }

      it('after every attack, the hub shows the same pages, files and analyses, and its accounts log in', async () => {
        const target = await startTestServer({ databaseUrl: database.url, workingDir, env });
        try {
          assert.deepEqual(await visibleHub(target.baseUrl, dois, fileIds), seen);
          assert.equal((await new TestClient(target.baseUrl).login('user1@example.com', '1234')).status, 302);
        } finally {
          await target.close();
        }
      });

      it('a good archive replaces the hub: its rows and files, the previous hub\'s other files gone, nothing left staged', async () => {
        await store.put('user_1/left-behind.uvl', 'features\n    Old\n');
        await run(path('b.zip'));
        const after = await dumpTables(database.url);
        assert.ok(after.user!.every((l) => !l.includes('@example.com')) && after.user!.some((l) => l.includes('@elsewhere.org')));
        assert.deepEqual(await storedHashes(store), files, 'the archive\'s files by SHA-256, and no other (B has A\'s files)');
        await run(path('a.zip'));
        assert.deepEqual(await dumpTables(database.url), rows);
      });

      it('a failed import into an empty hub leaves it empty, and a good import afterwards works', async () => {
        const empty = await createTestDatabase(dialect.baseUrl);
        const emptyEnv = { WORKING_DIR: mkdtempSync(join(work, 'empty-')), DATABASE_URL: empty.url, STORAGE_URL: '' };
        const emptyStore = createFileStore(loadConfig(emptyEnv));
        const emptyDb = connect(empty.url);
        const into = (archive: string) => importHub({ archive, db: emptyDb, databaseUrl: empty.url, store: emptyStore, maxBytes: NO_LIMIT });
        try {
          const duplicate = ATTACKS.findIndex((a) => a.name.startsWith('a duplicate primary key'));
          await assert.rejects(into(path(`attack-${duplicate}.zip`)), /database refused the archive's rows/);
          assert.equal(await hasRows(emptyDb, await dataTables(emptyDb, dialect.name)), false);
          assert.deepEqual(await emptyDb.introspection.getTables(), [], 'the tables made for the import are gone');
          assert.deepEqual(await emptyStore.list(''), []);
          await into(path('b.zip'));
          const emails = (await emptyDb.selectFrom('user').select('email').orderBy('email').execute()).map((r) => r.email);
          assert.deepEqual(emails, rows.user!.map((l) => (JSON.parse(l) as unknown[]).find((v) => typeof v === 'string' && v.includes('@'))).map((e) => String(e).replace('@example.com', '@elsewhere.org')).sort());
          assert.deepEqual(Object.keys(await storedHashes(emptyStore)).sort(), Object.keys(files).sort());
        } finally {
          await emptyStore.close();
          await emptyDb.destroy();
          await empty.drop();
        }
      });
    });
  }
});
