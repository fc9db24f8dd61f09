// Addresses Fastify's router refuses before any route runs: a broken %-escape and an id longer than
// 100 characters. They get the hub's answers (error page, `{"message"}`, 404 for an unknown id, the
// login redirect), not Fastify's raw JSON with its error code.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';

for (const dialect of testDialects()) {
  describe(`addresses the router refuses [${dialect.name}]`, () => {
    let server: TestServer;
    before(async () => { server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true }); });
    after(async () => { await server?.close(); });

    it('a broken %-escape answers 400 as the hub\'s page, or {"message"} on JSON routes', async () => {
      const client = new TestClient(server.baseUrl);
      for (const path of ['/%FF', '/doi/%FF%FE/', '/dataset/download/%E0%A4%A']) {
        const res = await client.get(path);
        assert.equal(res.status, 400, path);
        assert.match(res.headers.get('content-type') ?? '', /^text\/html/, path);
        assert.match(res.text, /<h1 class="display-4">400<\/h1>/, path);
        assert.doesNotMatch(res.text, /FST_ERR/, path);
      }
      for (const path of ['/api/v1/datasets/%FF', '/file/view/%FF', '/modeltool/check_uvl/%FF']) {
        const res = await client.get(path);
        assert.equal(res.status, 400, path);
        assert.deepEqual(Object.keys(res.json ?? {}), ['message'], path);
      }
    });

    it('an id of 200 digits is an unknown id like any other (404 in the route\'s shape, login first where required)', async () => {
      const client = new TestClient(server.baseUrl);
      const id = '9'.repeat(200);
      const view = await client.get(`/file/view/${id}`);
      assert.equal(view.status, 404);
      assert.equal(view.json.success, false);
      assert.equal((await client.get(`/modeltool/to_cnf/${id}`)).json.error.includes(id), true);
      assert.equal((await client.get(`/modeltool/valid/${id}`)).status, 404);
      const api = await client.get(`/api/v1/datasets/${id}`);
      assert.equal(api.status, 404);
      assert.deepEqual(api.json, { message: 'DataSet not found' });
      const zip = await client.get(`/dataset/download/${id}`);
      assert.equal(zip.status, 404);
      assert.match(zip.headers.get('content-type') ?? '', /^text\/html/);
      const unsynchronized = await client.get(`/dataset/unsynchronized/${id}/`);
      assert.equal(unsynchronized.status, 302);
      assert.match(unsynchronized.location ?? '', /^\/login/);
      await client.login('user1@example.com', '1234');
      assert.equal((await client.get(`/dataset/unsynchronized/${id}/`)).status, 404);
    });
  });
}
