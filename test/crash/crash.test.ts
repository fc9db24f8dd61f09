// Crash tests (issue 26, item 2): a real child server is paused at a named step of an upload or a
// deposit (HUB_TEST_PAUSE_AT), killed there with SIGKILL and started again on the same database
// and store; the state must then be the old one or the new one, never a mix, and the person must
// be able to carry on. On each database of TEST_DATABASE_URLS, the uploads folder or (TEST_STORAGE=s3)
// the test S3 server.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testDialects, createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { startTestServer } from '../support/server.ts';
import { startS3, testStorageIsS3, type TestS3 } from '../support/s3.ts';
import { TestClient } from '../support/client.ts';
import { bearer, createToken, uvlForm } from '../support/api.ts';
import { connect, type Db } from '../../src/core/db/connect.ts';
import { loadConfig, projectPath } from '../../src/core/config.ts';
import { createFileStore } from '../../src/core/storage/index.ts';
import type { FileStore } from '../../src/core/storage/file-store.ts';
import { VALID_UVL, stage, uploadForm } from '../../src/modules/dataset/dataset.test-support.ts';
import { killHard, reachedPause, startChild, type ChildServer } from './child-server.ts';

const SECRET_KEY = 'crash-test-secret-key-long-enough-for-sessions';

for (const dialect of testDialects()) {
  describe(`a server killed in the middle of a write [${dialect.name}]`, () => {
    let database: TestDatabase;
    let workingDir: string;
    let s3: TestS3 | undefined;
    let env: Record<string, string>;
    let db: Db;
    let store: FileStore;
    let running: ChildServer | undefined;

    before(async () => {
      database = await createTestDatabase(dialect.baseUrl);
      workingDir = mkdtempSync(join(tmpdir(), 'hub-crash-'));
      s3 = testStorageIsS3() ? await startS3() : undefined;
      env = { DATABASE_URL: database.url, SECRET_KEY, HUB_MODULES_FILE: projectPath('modules.json'), ...s3?.env };
      // Seeded in this process (users user1/user2, sample datasets), then served by children.
      const seeding = await startTestServer({ databaseUrl: database.url, workingDir, seed: true, env });
      await seeding.hub.app.close();
      await seeding.hub.db.destroy();
      db = connect(database.url);
      store = createFileStore(loadConfig({ ...env, WORKING_DIR: workingDir }));
    });
    after(async () => {
      if (running) await killHard(running);
      await db?.destroy();
      await database?.drop();
      await s3?.close();
      if (workingDir) rmSync(workingDir, { recursive: true, force: true });
    });

    const userId = async (email: string) => (await db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

    /** Every dataset keeps all its files (as many as its model count), and every file row has its stored file. */
    async function assertConsistent(): Promise<void> {
      const files = await db.selectFrom('file').innerJoin('feature_model as fm', 'fm.id', 'file.feature_model_id')
        .innerJoin('data_set as ds', 'ds.id', 'fm.data_set_id').select(['file.name', 'ds.id as datasetId', 'ds.user_id as userId']).execute();
      for (const f of files) {
        assert.ok(await store.stat(`user_${f.userId}/dataset_${f.datasetId}/${f.name}`), `file ${f.name} of dataset ${f.datasetId} is stored`);
      }
      const metrics = await db.selectFrom('data_set as ds').innerJoin('ds_meta_data as md', 'md.id', 'ds.ds_meta_data_id')
        .innerJoin('ds_metrics as mt', 'mt.id', 'md.ds_metrics_id').select(['ds.id', 'mt.number_of_models']).execute();
      for (const m of metrics) {
        const count = files.filter((f) => f.datasetId === m.id).length;
        assert.equal(count, Number(m.number_of_models), `dataset ${m.id} has all its ${m.number_of_models} files`);
      }
    }

    async function loggedIn(server: ChildServer, email: string): Promise<TestClient> {
      const client = new TestClient(server.baseUrl);
      assert.equal((await client.login(email, '1234')).status, 302);
      await client.get('/dataset/upload');
      return client;
    }

    it('an upload killed once its files are placed, before the commit: no dataset, no half; staging again and submitting works', async () => {
      const owner = await userId('user1@example.com');
      const datasetsBefore = await db.selectFrom('data_set').select('id').where('user_id', '=', owner).execute();
      running = await startChild(env, workingDir, 'upload:after-files');
      const client = await loggedIn(running, 'user1@example.com');
      assert.equal((await stage(client, 'crash.uvl', VALID_UVL)).status, 200);
      const submitted = client.post('/dataset/upload', { form: uploadForm(['crash.uvl'], { title: 'Killed upload' }) }).catch(() => undefined);
      assert.equal(await reachedPause(running), 'upload:after-files');
      await killHard(running);
      assert.equal(await submitted, undefined, 'the request got no answer');

      running = await startChild(env, workingDir);
      const after = await db.selectFrom('data_set').select('id').where('user_id', '=', owner).execute();
      assert.deepEqual(after.map((r) => r.id).sort(), datasetsBefore.map((r) => r.id).sort(), 'the old state: no dataset was kept');
      await assertConsistent();
      // A minute without its process's heartbeat passes (STALE_CLAIM_MS): the claim is stale.
      const longAgo = new Date(Date.now() - 2 * 60 * 1000).toISOString();
      await db.updateTable('staged_claim').set({ claimed_at: longAgo }).execute();
      for (const object of await store.list(`temp/${owner}/`)) {
        if (object.key.endsWith('/.claimed-at')) await store.put(object.key, longAgo);
      }
      const again = await loggedIn(running, 'user1@example.com');
      assert.equal((await stage(again, 'crash.uvl', VALID_UVL)).status, 200, 'staging again works');
      const saved = await again.post('/dataset/upload', { form: uploadForm(['crash.uvl'], { title: 'Upload after the crash' }) });
      assert.equal(saved.status, 200, saved.text.slice(0, 300));
      assert.equal(saved.json.status, 'ok');
      await assertConsistent();
      const staged = (await store.list(`temp/${owner}/`)).map((o) => o.key.slice(`temp/${owner}/`.length));
      assert.ok(staged.every((k) => !k.startsWith('.claim-')), `no claim folder is left: ${staged.join(', ')}`);
      await killHard(running);
      running = undefined;
    });

    it('a publish killed after the deposit answered, before the DOI was stored: no DOI shown, the publish can be made again', async () => {
      running = await startChild(env, workingDir, 'deposit:after-publish');
      const client = await loggedIn(running, 'user2@example.com');
      // An unsynchronized dataset with one model, made through the API.
      const token = await createToken(client, ['write']);
      const created = await bearer(running.baseUrl, token, 'POST', '/api/v1/datasets/', { name: 'Killed publish', description: 'Published when killed' });
      assert.equal(created.status, 201);
      const datasetId = created.json.id as number;
      assert.equal((await bearer(running.baseUrl, token, 'POST', `/api/v1/datasets/${datasetId}/files`, uvlForm('draft.uvl', VALID_UVL))).status, 201);
      const publishing = client.post(`/dataset/${datasetId}/publish`).catch(() => undefined);
      assert.equal(await reachedPause(running), 'deposit:after-publish');
      await killHard(running);
      await publishing;

      running = await startChild(env, workingDir);
      const row = await db.selectFrom('data_set as ds').innerJoin('ds_meta_data as md', 'md.id', 'ds.ds_meta_data_id')
        .select(['md.id as metaId', 'md.dataset_doi', 'md.deposit_claimed_at']).where('ds.id', '=', datasetId).executeTakeFirstOrThrow();
      assert.equal(row.dataset_doi, null, 'the old state: unsynchronized, no DOI shown');
      assert.notEqual(row.deposit_claimed_at, null, 'the dead process\'s claim is left');
      await assertConsistent();
      // The claim is stale once its limit passed (STALE_DEPOSIT_CLAIM_MS); then a publish takes it over.
      await db.updateTable('ds_meta_data').set({ deposit_claimed_at: new Date(Date.now() - 2 * 60 * 60 * 1000).toISOString() }).where('id', '=', row.metaId).execute();
      const again = await loggedIn(running, 'user2@example.com');
      const published = await again.post(`/dataset/${datasetId}/publish`);
      assert.equal(published.status, 200, published.text.slice(0, 300));
      assert.equal(published.json.status, 'ok');
      const stored = await db.selectFrom('data_set as ds').innerJoin('ds_meta_data as md', 'md.id', 'ds.ds_meta_data_id')
        .select(['md.dataset_doi', 'md.deposit_claimed_at']).where('ds.id', '=', datasetId).executeTakeFirstOrThrow();
      assert.equal(stored.dataset_doi, published.json.doi);
      assert.equal(stored.deposit_claimed_at, null);
      await assertConsistent();
      await killHard(running);
      running = undefined;
    });
  });
}
