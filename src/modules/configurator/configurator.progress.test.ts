// Pairwise progress and cancel (issue 37, item 6): while a worker computes a t-wise sample, the
// 202 carries the interactions covered of the total, the seconds spent and an estimate; Cancel
// stops the job (releasing its claim) only when no other requester waits for the same sample.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { storeModelFile } from '../../../test/support/fixtures.ts';
import { generatedModel } from './configurator.test-support.ts';

const QUERY = 'kind=twise&t=2&seed=1';

for (const dialect of testDialects()) {
  describe(`pairwise progress and cancel [${dialect.name}]`, () => {
    let server: TestServer;
    let file = 0;
    let hidden = 0;
    let visitor: TestClient;
    let member: TestClient;
    const computed = () => server.hub.ctx.services.configurator.computedHere();

    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { ANALYSIS_WORKERS: '0' } });
      file = (await storeModelFile(server, { label: 'Generated', content: generatedModel(400), name: 'generated.uvl' })).fileId;
      hidden = (await storeModelFile(server, { label: 'Draft', content: generatedModel(3), name: 'draft.uvl', doi: null })).fileId;
      // Two requesters: an anonymous visitor (its address) and a signed-in member (its account).
      visitor = new TestClient(server.baseUrl);
      await visitor.get(`/model/${file}/`);
      member = new TestClient(server.baseUrl);
      await member.login('user2@example.com', '1234');
      await member.get(`/model/${file}/`);
    });
    after(async () => server?.close());

    /** Asks for the sample until a 202 carries progress. */
    async function progressOf(client: TestClient): Promise<any> {
      for (;;) {
        const res = await client.get(`/api/v1/files/${file}/samples?${QUERY}`, { accept: 'application/json' });
        assert.equal(res.status, 202, 'the sample finished before it reported progress');
        if (res.json.progress) return res.json;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }

    it('reports interactions covered of the total, elapsed seconds and an estimate in the 202', async () => {
      const pending = await progressOf(visitor);
      assert.equal(pending.status, 'pending');
      const { covered, total, elapsed_s, estimate_s } = pending.progress;
      assert.ok(Number.isInteger(covered) && covered > 0, JSON.stringify(pending));
      assert.ok(Number.isInteger(total) && total >= covered, JSON.stringify(pending));
      assert.ok(Number.isInteger(elapsed_s) && elapsed_s >= 0);
      assert.ok(Number.isInteger(estimate_s) && estimate_s >= 0);
    });

    it('cancels only when no other requester waits, then releases the claim', async () => {
      assert.equal(computed(), 1);
      // The member asks for the same sample: now two wait for it.
      assert.equal((await member.get(`/api/v1/files/${file}/samples?${QUERY}`)).status, 202);
      const kept = await visitor.post(`/configurator/${file}/samples/cancel?${QUERY}`, { json: {} });
      assert.equal(kept.status, 200, kept.text);
      assert.deepEqual(kept.json, { running: true, cancelled: false, waiting: 1 });
      const stopped = await member.post(`/configurator/${file}/samples/cancel?${QUERY}`, { json: {} });
      assert.deepEqual(stopped.json, { running: true, cancelled: true, waiting: 0 });
      // The claim is released once the worker stops: the next request starts the sample afresh.
      while (computed() < 2) {
        assert.equal((await visitor.get(`/api/v1/files/${file}/samples?${QUERY}`)).status, 202);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // Its worker stopped on the flag, before the end of the sample (not its result thrown away at the end).
      assert.equal(server.hub.ctx.services.configurator.stoppedEarlyHere(), 1);
      const again = await visitor.post(`/configurator/${file}/samples/cancel?${QUERY}`, { json: {} });
      assert.deepEqual(again.json, { running: true, cancelled: true, waiting: 0 });
    });

    it('refuses a cancel without CSRF token, of a hidden file or with a bad query', async () => {
      const forged = await visitor.post(`/configurator/${file}/samples/cancel?${QUERY}`, { json: {}, csrf: false });
      assert.equal(forged.status, 400);
      assert.match(forged.json.message, /csrf/i);
      assert.equal((await visitor.post(`/configurator/${hidden}/samples/cancel?${QUERY}`, { json: {} })).status, 404);
      const bad = await visitor.post(`/configurator/${file}/samples/cancel?kind=nope`, { json: {} });
      assert.equal(bad.status, 400);
      assert.equal(typeof bad.json.message, 'string');
    });
  });
}
