// `hub export` of a seeded hub on SQLite and the uploads folder, with a large corpus model uploaded
// and analysed, visited and downloaded, and a token; `hub import` into each test database (the
// PostgreSQL and MariaDB of TEST_DATABASE_URLS, and SQLite), on the test S3 server or a local
// folder: the same rows, DOI pages, files, counts, analyses and search; the token still works and
// new rows get fresh ids. A damaged archive and a non-empty database are refused.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { createTestDatabase, testDialects } from '../../../test/support/databases.ts';
import { startS3 } from '../../../test/support/s3.ts';
import { newUser } from '../../../test/support/accounts.ts';
import { bearer, createToken } from '../../../test/support/api.ts';
import { TestClient } from '../../../test/support/client.ts';
import { DEAD_UVL, uploadDataset, waitForAnalyses } from '../../modules/analysis/analysis.test-support.ts';
import { corpusSkipReason, findCorpus } from '../../../packages/uvl/src/corpus.support.ts';
import { loadConfig } from '../../core/config.ts';
import { connect } from '../../core/db/connect.ts';
import { createFileStore } from '../../core/storage/index.ts';
import { exportHub } from './export.ts';
import { NotEmptyError, importHub } from './import.ts';
import { archivedRows, damagedCopy, dumpTables, visibleHub, type VisibleHub } from './archive.test-support.ts';
import type { Manifest } from './manifest.ts';

const corpus = findCorpus();
const BIG_DEPOSITION_ID = 2n ** 60n + 1n;
const LARGE_MODEL = 'real/Feature_Models/Financial_Services/Financial_Services_01/financialservices01.uvl';

describe('hub export and hub import', { skip: corpus ? false : corpusSkipReason }, () => {
  const work = mkdtempSync(join(tmpdir(), 'hub-archive-'));
  const archive = join(work, 'hub.zip');
  let source: TestServer;
  let manifest: Manifest;
  let token: string;
  let dois: string[];
  let fileIds: number[];
  let rows: Record<string, string[]>;
  let seen: VisibleHub;

  before(async () => {
    source = await startTestServer({ seed: true, env: { STORAGE_URL: '' } });
    const { client } = await newUser(source, 'Mover');
    token = await createToken(client, ['read', 'write']);
    const large = corpus!.read(LARGE_MODEL);
    assert.ok(large.length > 200_000);
    const uploaded = await uploadDataset(client, 'Moved dataset', [['financial.uvl', large], ['dead.uvl', DEAD_UVL]]);
    const db = source.hub.db;
    fileIds = (await db.selectFrom('file').select('id').orderBy('id').execute()).map((r) => r.id);
    await waitForAnalyses(source, fileIds.slice(-2));
    assert.ok(uploaded.dataset_id > 0);
    dois = (await db.selectFrom('ds_meta_data').select('dataset_doi').where('dataset_doi', 'is not', null).execute()).map((r) => r.dataset_doi!);
    // A big integer past 2^53 must come back exact on every database (written before any page
    // is shown: the hub keeps the pages it rendered).
    await db.updateTable('ds_meta_data').set({ deposition_id: BIG_DEPOSITION_ID as unknown as number }).where('id', '=', 1).execute();
    // Views and downloads by three visitors.
    for (let visitor = 0; visitor < 3; visitor++) {
      const anonymous = new TestClient(source.baseUrl);
      for (const doi of dois) await anonymous.get(`/doi/${doi}/`);
      await anonymous.get(`/file/download/${fileIds[0]}`);
    }
    manifest = await exportHub({ databaseUrl: source.database.url, store: source.hub.ctx.store, out: archive });
    rows = await dumpTables(source.database.url);
    seen = await visibleHub(source.baseUrl, dois, fileIds);
  });

  after(async () => {
    await source?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('the archive lists every table and stored file with its SHA-256 and the schema version', async () => {
    assert.match(manifest.schemaVersion, /^\d{4}_\d\d_\d\d_\d{4}_/);
    for (const table of ['user', 'data_set', 'file', 'api_token', 'model_analysis', 'ds_view_record']) {
      assert.ok(manifest.tables.some((t) => t.name === table && t.rows > 0), table);
    }
    assert.ok(!manifest.tables.some((t) => t.name.includes('_fts')), 'derived full-text tables are left out');
    const stored = (await source.hub.ctx.store.list('')).map((o) => o.key).sort();
    assert.deepEqual(manifest.files.map((f) => f.key).sort(), stored);
    assert.ok(manifest.files.some((f) => f.size > 200_000 && /^[0-9a-f]{64}$/.test(f.sha256)));
  });

  for (const [i, dialect] of testDialects().entries()) {
    // PostgreSQL on S3 as the README's move; the others alternate so both stores are restored into.
    const onS3 = dialect.name !== 'mysql';
    it(`restores into ${dialect.name} on ${onS3 ? 'the test S3 server' : 'an uploads folder'}: the same hub`, async () => {
      const database = await createTestDatabase(dialect.baseUrl);
      const s3 = onS3 ? await startS3(`moved-${i}`) : undefined;
      const workingDir = mkdtempSync(join(tmpdir(), 'hub-moved-'));
      const env = { WORKING_DIR: workingDir, DATABASE_URL: database.url, ...(s3 ? s3.env : { STORAGE_URL: '' }) };
      let target: TestServer | undefined;
      try {
        const db = connect(database.url);
        const store = createFileStore(loadConfig(env));
        try {
          const summary = await importHub({ archive, db, databaseUrl: database.url, store, maxBytes: Number.MAX_SAFE_INTEGER });
          assert.equal(summary.files, manifest.files.length);
          await assert.rejects(importHub({ archive, db, databaseUrl: database.url, store, maxBytes: Number.MAX_SAFE_INTEGER }), NotEmptyError);
          await importHub({ archive, db, databaseUrl: database.url, store, replace: true, maxBytes: Number.MAX_SAFE_INTEGER });
        } finally {
          await store.close();
          await db.destroy();
        }
        assert.deepEqual(await dumpTables(database.url), rows);
        assert.ok(rows.ds_meta_data!.some((line) => line.includes(`"${BIG_DEPOSITION_ID}"`)), 'the big integer is in the rows compared');
        // And back out of this database: its export holds the same rows.
        const again = join(workingDir, 'again.zip');
        const storeAgain = createFileStore(loadConfig(env));
        await exportHub({ databaseUrl: database.url, store: storeAgain, out: again }).finally(() => storeAgain.close());
        assert.deepEqual(await archivedRows(again), rows);

        target = await startTestServer({ databaseUrl: database.url, workingDir, env });
        assert.deepEqual(await visibleHub(target.baseUrl, dois, fileIds), seen);
        // A write needs a token that authenticates; a wrong secret is refused.
        assert.equal((await bearer(target.baseUrl, `${token}x`, 'GET', '/api/v1/datasets')).status, 401);
        const created = await bearer(target.baseUrl, token, 'POST', '/api/v1/datasets/', { name: 'After the move', description: 'A new dataset on the moved hub' });
        assert.equal(created.status, 201, JSON.stringify(created.json));
        const largestImported = Math.max(...rows.data_set!.map((line) => JSON.parse(line)[0] as number));
        assert.ok(created.json.id > largestImported, 'new rows get ids past the imported ones');
        const login = await new TestClient(target.baseUrl).login('user1@example.com', '1234');
        assert.equal(login.status, 302, 'a seeded account logs in with its password');
      } finally {
        await target?.close();
        await database.drop();
        await s3?.close();
        rmSync(workingDir, { recursive: true, force: true });
      }
    });
  }

  it('refuses a damaged archive before writing anything', async () => {
    const damaged = join(work, 'damaged.zip');
    const large = manifest.files.find((f) => f.size > 200_000)!;
    await damagedCopy(archive, damaged, large.path);
    const database = await createTestDatabase('sqlite:');
    const workingDir = mkdtempSync(join(tmpdir(), 'hub-damaged-'));
    const db = connect(database.url);
    const store = createFileStore(loadConfig({ WORKING_DIR: workingDir, DATABASE_URL: database.url, STORAGE_URL: '' }));
    try {
      await assert.rejects(importHub({ archive: damaged, db, databaseUrl: database.url, store, maxBytes: Number.MAX_SAFE_INTEGER }), /SHA-256/);
      assert.deepEqual(await store.list(''), []);
      assert.deepEqual(await db.introspection.getTables(), [], 'no table was created');
    } finally {
      await store.close();
      await db.destroy();
      await database.drop();
      rmSync(workingDir, { recursive: true, force: true });
    }
  });
});
