// An empty body sent with `Content-Type: application/json` is no body (server-options.ts), as it
// is without the header: clients whose requests always carry that header get the answers of a
// request without a body, not Fastify's "Body cannot be empty" 400.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';

const EMPTY_JSON = { body: '', headers: { 'content-type': 'application/json' } };

for (const dialect of testDialects()) {
  describe(`an empty application/json body [${dialect.name}]`, () => {
    let server: TestServer;
    before(async () => { server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true }); });
    after(async () => { await server?.close(); });

    it('is no body: "No input data provided" on a REST create or update, 401 first when anonymous', async () => {
      const anonymous = new TestClient(server.baseUrl);
      assert.equal((await anonymous.post('/api/v1/datasets/', EMPTY_JSON)).status, 401);
      const client = new TestClient(server.baseUrl);
      await client.login('user1@example.com', '1234');
      await client.get('/');
      const create = await client.post('/api/v1/datasets/', EMPTY_JSON);
      assert.equal(create.status, 400);
      assert.deepEqual(create.json, { message: 'No input data provided' });
      const id = (await client.post('/api/v1/datasets/', { json: { name: 'Kept' } })).json.id as number;
      const update = await client.request('PUT', `/api/v1/datasets/${id}`, EMPTY_JSON);
      assert.equal(update.status, 400);
      assert.deepEqual(update.json, { message: 'No input data provided' });
      const removed = await client.request('DELETE', `/api/v1/datasets/${id}`, EMPTY_JSON);
      assert.equal(removed.status, 204, removed.text);
    });

    it('is an empty search on POST /api/v1/search, like no body', async () => {
      const client = new TestClient(server.baseUrl);
      const none = await client.post('/api/v1/search', { csrf: false });
      const empty = await client.post('/api/v1/search', { ...EMPTY_JSON, csrf: false });
      assert.equal(empty.status, 200, empty.text);
      assert.deepEqual(empty.json.map((d: { id: number }) => d.id), none.json.map((d: { id: number }) => d.id));
      assert.ok(empty.json.length > 0);
    });

    it('leaves other bodies to Fastify\'s parser: malformed JSON and prototype poisoning answer 400', async () => {
      const client = new TestClient(server.baseUrl);
      for (const body of ['{"query":', '{"__proto__": {"query": "x"}}']) {
        const res = await client.post('/api/v1/search', { body, headers: { 'content-type': 'application/json' }, csrf: false });
        assert.equal(res.status, 400, body);
        assert.equal(typeof res.json.message, 'string', body);
      }
    });
  });
}
