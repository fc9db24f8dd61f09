// Versions told apart in every list (extensions section 9, issue 25 item 4): "v1 of 2" and
// "v2 of 2" in My datasets, on the profile, the home page and the cart, `version` in explore's and the API's results.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { TestClient } from '../../../../test/support/client.ts';
import { VALID_UVL, newUser, stage, uploadForm } from '../dataset.test-support.ts';
import { bearer, createToken } from '../../../../test/support/api.ts';

const TITLE = 'Versioned phones';

/** The search results for the title, once the search index has both versions (it is updated after each save). */
async function searchBoth(client: TestClient): Promise<{ id: number; version: number; version_count: number }[]> {
  for (;;) {
    const res = await client.post('/explore', { json: { query: TITLE }, csrf: false });
    assert.equal(res.status, 200, res.text);
    const found = (res.json as { id: number; title: string; version: number; version_count: number }[]).filter((r) => r.title === TITLE);
    if (found.length === 2 && found.every((r) => r.version_count === 2)) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

for (const dialect of testDialects()) {
  describe(`versions in lists [${dialect.name}]`, () => {
    let server: TestServer;
    before(async () => { server = await startTestServer({ databaseBaseUrl: dialect.baseUrl }); });
    after(async () => { await server?.close(); });

    it('marks each version with its number and the count in every list', async () => {
      const { client } = await newUser(server, 'Versioner');
      await stage(client, 'phone.uvl', VALID_UVL);
      const v1 = await client.post('/dataset/upload', { form: uploadForm(['phone.uvl'], { title: TITLE }) });
      assert.equal(v1.json.status, 'ok');
      assert.equal((await client.post(`/dataset/${v1.json.dataset_id}/new-version`, { form: {} })).status, 302);
      const v2 = await client.post('/dataset/upload', { form: uploadForm(['phone.uvl'], { title: TITLE, version_of: String(v1.json.dataset_id) }) });
      assert.equal(v2.json.status, 'ok', v2.text);

      for (const path of ['/dataset/list', '/profile/summary']) {
        const page = (await client.get(path)).text;
        assert.match(page, new RegExp(`href="/doi/${v1.json.doi}/">${TITLE}</a> <span class="badge text-bg-light border dataset-version">v1 of 2</span>`), path);
        assert.match(page, new RegExp(`href="/doi/${v2.json.doi}/">${TITLE}</a> <span class="badge text-bg-light border dataset-version">v2 of 2</span>`), path);
      }

      const results = await searchBoth(new TestClient(server.baseUrl));
      assert.deepEqual(results.map((r) => [r.id, r.version]).sort(), [[v1.json.dataset_id, 1], [v2.json.dataset_id, 2]].sort());
      const token = await createToken(client, ['read']);
      const api = await bearer(server.baseUrl, token, 'POST', '/api/v1/search', { query: TITLE });
      assert.equal(api.status, 200);
      const fromApi = (api.json as { id: number; title: string; version: number; version_count: number }[]).filter((r) => r.title === TITLE);
      assert.deepEqual(fromApi.map((r) => [r.id, r.version, r.version_count]).sort(), [[v1.json.dataset_id, 1, 2], [v2.json.dataset_id, 2, 2]].sort());

      // A dataset without versions carries version 1 of 1 and no badge.
      await stage(client, 'single.uvl', VALID_UVL);
      const single = await client.post('/dataset/upload', { form: uploadForm(['single.uvl'], { title: 'Single' }) });
      assert.doesNotMatch((await client.get('/dataset/list')).text, new RegExp(`${single.json.doi}/">Single</a> <span`));
    });

    it("marks the versions on the home page's latest datasets and in the cart, where they were two identical entries", async () => {
      const title = 'Versioned cars';
      const { client } = await newUser(server, 'Homer');
      await stage(client, 'car.uvl', VALID_UVL);
      const v1 = await client.post('/dataset/upload', { form: uploadForm(['car.uvl'], { title }) });
      assert.equal(v1.json.status, 'ok', v1.text);
      assert.equal((await client.post(`/dataset/${v1.json.dataset_id}/new-version`, { form: {} })).status, 302);
      const v2 = await client.post('/dataset/upload', { form: uploadForm(['car.uvl'], { title, version_of: String(v1.json.dataset_id) }) });
      assert.equal(v2.json.status, 'ok', v2.text);

      const home = (await new TestClient(server.baseUrl).get('/')).text;
      for (const [doi, marker] of [[v1.json.doi, 'v1 of 2'], [v2.json.doi, 'v2 of 2']]) {
        assert.match(home, new RegExp(`<a href="/doi/${doi}/">${title}</a> <span class="badge text-bg-light border dataset-version">${marker}</span></h3>`));
      }

      const visitor = new TestClient(server.baseUrl);
      for (const doi of [v1.json.doi, v2.json.doi]) {
        const page = (await visitor.get(`/doi/${doi}/`)).text;
        const fileId = /data-file-id="(\d+)"/.exec(page)![1]!;
        assert.equal((await visitor.post('/cart/add', { form: { file_id: fileId } })).status, 303);
      }
      const cart = (await visitor.get('/cart')).text;
      assert.match(cart, new RegExp(`>${title}</a> <span class="badge text-bg-light border dataset-version">v1 of 2</span>`));
      assert.match(cart, new RegExp(`>${title}</a> <span class="badge text-bg-light border dataset-version">v2 of 2</span>`));
    });
  });
}
