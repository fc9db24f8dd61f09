// The configurator on a model that imports another file of its dataset (UVL `imports`): configure,
// the page's tree, commonality and a uniform sample over the grafted model; and a large stored
// result sent compressed to a client that accepts it, the same JSON once decoded.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { importChain, storeModelFile } from '../../../test/support/fixtures.ts';
import { fetchJson } from '../../../test/support/uploads.ts';
import { waitForResult } from './configurator.test-support.ts';

/** Root, with the imported Sub optional and Sub's Extra optional: 3 configurations. */
const MAIN_UVL = 'imports\n    sub as s\nfeatures\n    Root\n        optional\n            s.Sub\n';
const SUB_UVL = 'features\n    Sub\n        optional\n            Extra\n';
/** 2000 optional features: every count has about 600 digits, the commonality is over 1 MB. */
const WIDE_UVL = `features\n    Wide\n        optional\n${Array.from({ length: 2000 }, (_, i) => `            F${i}\n`).join('')}`;

for (const dialect of testDialects()) {
  describe(`the configurator on models with imports [${dialect.name}]`, () => {
    let server: TestServer;
    let main = 0;
    const api = (path: string) => `${server.baseUrl}/api/v1/files/${main}${path}`;

    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { ANALYSIS_WORKERS: '0' } });
      const stored = await storeModelFile(server, { label: 'Imports', content: MAIN_UVL, name: 'main.uvl' });
      await server.hub.ctx.store.put(`${stored.prefix}sub.uvl`, SUB_UVL);
      main = stored.fileId;
    });
    after(async () => server?.close());

    it('configures the model with the imported features grafted in', async () => {
      const open = await fetchJson(api('/configure'), { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
      assert.equal(open.status, 200, JSON.stringify(open.json));
      assert.equal(open.json.remaining, '3');
      assert.deepEqual(open.json.features, { Root: 'forced', 's.Sub': 'open', 's.Extra': 'open' });
      const step = await fetchJson(api('/configure'), {
        method: 'POST', body: JSON.stringify({ selected: ['s.Extra'], why: 's.Sub' }), headers: { 'content-type': 'application/json' },
      });
      assert.equal(step.status, 200, JSON.stringify(step.json));
      assert.equal(step.json.remaining, '1');
      assert.equal(step.json.features['s.Sub'], 'forced');
      assert.deepEqual(step.json.why.why, ['selected s.Extra']);
    });

    it('follows imports as deep as the parser does (12 levels, each read in its own round)', async () => {
      const chain = importChain(12);
      const stored = await storeModelFile(server, { label: 'Chain', content: chain.main, name: 'main.uvl' });
      for (const [name, text] of Object.entries(chain.files)) await server.hub.ctx.store.put(`${stored.prefix}${name}`, text);
      const open = await fetchJson(`${server.baseUrl}/api/v1/files/${stored.fileId}/configure`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
      assert.equal(open.status, 200, JSON.stringify(open.json));
      assert.equal(open.json.remaining, chain.configurations);
    });

    it('draws the grafted tree on the page', async () => {
      const tree = await fetchJson(`${server.baseUrl}/configurator/${main}/tree.json`);
      assert.equal(tree.status, 200, JSON.stringify(tree.json));
      assert.deepEqual(tree.json.features, [['Root', -1, ''], ['s.Sub', 0, 'optional'], ['s.Extra', 1, 'optional']]);
    });

    it('computes commonality and a uniform sample over the imported features', async () => {
      const commonality = await waitForResult(api('/commonality'));
      assert.equal(commonality.configurations, '3');
      assert.deepEqual(commonality.features['s.Sub'], { commonality: '2', probability: 2 / 3 });
      assert.deepEqual(commonality.features['s.Extra'], { commonality: '1', probability: 1 / 3 });
      const sample = await waitForResult(api('/samples?kind=uniform&n=12&seed=3'));
      assert.deepEqual(sample.features, ['Root', 's.Extra', 's.Sub']);
      const seen = new Set(sample.configurations.map((c: string[]) => c.join(',')));
      for (const c of seen) assert.ok(['Root', 'Root,s.Sub', 'Root,s.Extra,s.Sub'].includes(c as string), `a configuration of the model, names sorted: ${c}`);
    });

    it('keeps a reference to a file that is not in the dataset one leaf feature, as the analysis does', async () => {
      const lonely = await storeModelFile(server, { label: 'Lonely', content: 'imports\n    gone\nfeatures\n    Root\n        optional\n            gone.Away\n', name: 'lonely.uvl' });
      const res = await fetchJson(`${server.baseUrl}/api/v1/files/${lonely.fileId}/configure`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
      assert.equal(res.status, 200, JSON.stringify(res.json));
      assert.deepEqual([res.json.remaining, res.json.features], ['2', { Root: 'forced', 'gone.Away': 'open' }]);
    });

    it('sends a large stored commonality compressed when the client accepts it, the same JSON decoded', async () => {
      const wide = await storeModelFile(server, { label: 'Wide', content: WIDE_UVL, name: 'wide.uvl' });
      const url = `${server.baseUrl}/api/v1/files/${wide.fileId}/commonality`;
      const plain = await waitForResult(url, { 'accept-encoding': 'identity' });
      assert.equal(plain.features.F7.commonality, (2n ** 1999n).toString());
      // Compressed in the background once read: plain until then.
      for (const encoding of ['gzip', 'br']) {
        let res = await fetch(url, { headers: { 'accept-encoding': encoding } });
        // Bounded so that a server that never compresses fails here rather than hanging the run.
        for (let tries = 0; res.headers.get('content-encoding') === null && tries < 600; tries++) {
          await res.arrayBuffer();
          await new Promise((resolve) => setTimeout(resolve, 50));
          res = await fetch(url, { headers: { 'accept-encoding': encoding } });
        }
        assert.equal(res.headers.get('content-encoding'), encoding);
        assert.equal(res.headers.get('vary'), 'accept-encoding');
        assert.deepEqual(await res.json(), plain, `${encoding} decodes to the same answer`);
      }
      const identity = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
      assert.equal(identity.headers.get('content-encoding'), null);
      assert.equal(Number(identity.headers.get('content-length')), (await identity.arrayBuffer()).byteLength);
    });
  });
}
