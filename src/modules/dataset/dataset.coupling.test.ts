// Coupling rules of the specification that involve the dataset module: 3 (dataset, featuremodel
// and hubfile need each other and auth), 5 (the DOI page answers 500 without modeltool) and
// 6 (the deposit client is loaded only by the upload, so only the upload can fail without it).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { projectPath } from '../../core/config.ts';
import { loadModules } from '../../app/modules.ts';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { isTestCode, sourceFiles } from '../../../test/support/imports.ts';
import { insertDatasetRow } from '../../../test/support/fixtures.ts';
import { createDatasetService } from './dataset.service.ts';
import { VALID_UVL, newUser, stage, uploadForm } from './dataset.test-support.ts';

describe('dataset coupling rules', () => {
  it('rule 3: dataset requires auth, featuremodel and hubfile, and says which is missing', async () => {
    const { datasetModule } = await import('./module.ts');
    assert.deepEqual([...datasetModule.requires].sort(), ['auth', 'featuremodel', 'hubfile']);
    await assert.rejects(loadModules(['public', 'auth', 'profile', 'mail', 'dataset', 'hubfile']), /"dataset" requires "featuremodel"/);
    await assert.rejects(loadModules(['public', 'auth', 'profile', 'mail', 'dataset', 'featuremodel']), /"dataset" requires "hubfile"/);
  });

  it('rule 6: nothing in the dataset module imports the deposit module statically', () => {
    const dir = projectPath('src/modules/dataset');
    const deposit = join(dir, 'deposit') + sep;
    const sources = sourceFiles(dir).filter((f) => !isTestCode(f) && !f.startsWith(deposit));
    let dynamic = 0;
    for (const file of sources) {
      const text = readFileSync(file, 'utf8');
      const intoDeposit = (spec: string) => resolve(dirname(file), spec).startsWith(deposit);
      const statics = [...text.matchAll(/^\s*(?:import|export)\s[^;]*from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
      assert.deepEqual(statics.filter(intoDeposit), [], `${file} imports deposit at load time`);
      dynamic += [...text.matchAll(/(?<!typeof )import\(['"]([^'"]+)['"]\)/g)].filter((m) => intoDeposit(m[1]!)).length;
    }
    assert.equal(dynamic, 1, 'one dynamic import, inside the upload path');
  });
});

for (const dialect of testDialects()) {
  describe(`dataset coupling over HTTP [${dialect.name}]`, () => {
    let withoutTools: TestServer;
    let full: TestServer;
    before(async () => {
      withoutTools = await startTestServer({ databaseBaseUrl: dialect.baseUrl, modules: ['public', 'auth', 'profile', 'mail', 'dataset', 'featuremodel', 'hubfile'] });
      full = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true });
    });
    after(async () => {
      await withoutTools?.close();
      await full?.close();
    });

    it('rule 5: without modeltool the DOI landing page answers 500, while unknown DOIs still answer 404', async () => {
      const users = withoutTools.hub.ctx.services.auth;
      const user = await users.createWithProfile({ email: 'solo@example.com', password: 'pw', name: 'So', surname: 'Lo' });
      await insertDatasetRow(withoutTools.hub.db, user.id, { title: 'No tools', doi: '10.1234/notools', createdAt: new Date().toISOString() });
      const c = new TestClient(withoutTools.baseUrl);
      const res = await c.get('/doi/10.1234/notools/');
      assert.equal(res.status, 500);
      assert.doesNotMatch(res.text, /No tools/);
      assert.equal((await c.get('/doi/10.1234/unknown/')).status, 404);
      const withTools = await new TestClient(full.baseUrl).get('/doi/10.1234/dataset1/');
      assert.equal(withTools.status, 200);
    });

    it('rule 6: when the deposit module cannot be loaded, only the push fails: the upload answers partial and keeps the dataset', async () => {
      const { client, userId } = await newUser(full);
      await stage(client, 'lazy.uvl', VALID_UVL);
      const service = createDatasetService(full.hub.ctx, { loadDeposit: () => Promise.reject(new Error('Cannot find module deposit')) });
      const outcome = await service.upload(userId, uploadForm(['lazy.uvl'], { title: 'Without deposit' }));
      assert.equal(outcome.status, 'partial');
      assert.ok(outcome.status === 'partial' && /could not be published/.test(outcome.message));
      const id = outcome.status === 'partial' ? outcome.datasetId : 0;
      const page = await client.get(`/dataset/unsynchronized/${id}/`);
      assert.equal(page.status, 200);
      assert.match(page.text, /Without deposit/);
      assert.match(page.text, /lazy\.uvl/);
    });

    it('rules 3 and 5: without modeltool, staging, the upload and the zip still work (only the DOI page needs the tools)', async () => {
      const { client, userId } = await newUser(withoutTools);
      const good = await stage(client, 'plain.uvl', VALID_UVL);
      assert.equal(good.status, 200);
      assert.equal(good.json.valid, true);
      const bad = await stage(client, 'broken.uvl', 'features\n    A {{{\n');
      assert.equal(bad.status, 200);
      assert.equal(bad.json.valid, false);
      assert.match(bad.json.errors[0], /^Line \d+:\d+ - /);
      assert.equal((await client.get('/dataset/upload')).status, 200);
      const refused = await client.post('/dataset/upload', { form: uploadForm(['broken.uvl']) });
      assert.equal(refused.status, 400);
      const res = await client.post('/dataset/upload', { form: uploadForm(['plain.uvl'], { title: 'No tools upload' }) });
      assert.equal(res.status, 200);
      assert.equal(res.json.status, 'ok');
      const row = await withoutTools.hub.db.selectFrom('ds_metrics').innerJoin('ds_meta_data', 'ds_meta_data.ds_metrics_id', 'ds_metrics.id')
        .innerJoin('data_set', 'data_set.ds_meta_data_id', 'ds_meta_data.id')
        .select(['number_of_features', 'data_set.user_id']).where('data_set.id', '=', res.json.dataset_id).executeTakeFirstOrThrow();
      assert.equal(Number(row.number_of_features), 5, 'Phone, Screen, Small, Large, Camera');
      assert.equal(Number(row.user_id), userId);
      const zip = await fetch(`${withoutTools.baseUrl}/dataset/download/${res.json.dataset_id}`);
      assert.equal(zip.status, 200);
      assert.equal((await client.get(`/doi/${res.json.doi}/`)).status, 500);
    });

    it('shows the "Upload dataset" navigation entry to everyone', async () => {
      const res = await new TestClient(full.baseUrl).get('/');
      assert.match(res.text, /href="\/dataset\/upload"><i class="bi bi-cloud-upload"><\/i> Upload dataset</);
    });

    it('the landing page works without the dataset module, without statistics', async () => {
      const alone = await startTestServer({ databaseBaseUrl: dialect.baseUrl, modules: ['public'] });
      try {
        const res = await new TestClient(alone.baseUrl).get('/');
        assert.equal(res.status, 200);
        assert.doesNotMatch(res.text, /id="statistics"/);
      } finally {
        await alone.close();
      }
    });
  });
}
