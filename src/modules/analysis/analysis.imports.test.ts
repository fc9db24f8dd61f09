// The analysis of a model that imports another file of its dataset (UVL `imports`): the worker
// names the files it lacks, the runner reads them from the dataset in rounds, and the stored
// result is that of the grafted model.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { importChain, storeModelFile } from '../../../test/support/fixtures.ts';
import { waitForAnalyses } from './analysis.test-support.ts';

/** Root, with the imported Sub optional and Sub's Extra optional: 3 configurations. */
const MAIN_UVL = 'imports\n    sub as s\nfeatures\n    Root\n        optional\n            s.Sub\n';
const SUB_UVL = 'features\n    Sub\n        optional\n            Extra\n';

for (const dialect of testDialects().slice(0, 1)) {
  describe(`the analysis of a model with imports [${dialect.name}]`, () => {
    let server: TestServer;

    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { ANALYSIS_WORKERS: '0' } });
    });
    after(async () => server?.close());

    it('counts the model with the imported file grafted in', async () => {
      const stored = await storeModelFile(server, { label: 'Imports', content: MAIN_UVL, name: 'main.uvl' });
      await server.hub.ctx.store.put(`${stored.prefix}sub.uvl`, SUB_UVL);
      // The workers start once the imported file is in place: the model is queued, not yet analysed.
      server.hub.ctx.services.analysis.start(1);
      const result = (await waitForAnalyses(server, [stored.fileId])).get(stored.fileId);
      assert.equal(result.status, 'done', JSON.stringify(result));
      assert.equal(result.configurations, '3');
    });
  });

  // A server of its own: the workers must start only once every file of the chain is in place.
  describe(`the analysis of a model with nested imports [${dialect.name}]`, () => {
    let server: TestServer;

    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { ANALYSIS_WORKERS: '0' } });
    });
    after(async () => server?.close());

    it('follows imports as deep as the parser does (12 levels, each read in its own round)', async () => {
      const chain = importChain(12);
      const stored = await storeModelFile(server, { label: 'Chain', content: chain.main, name: 'main.uvl' });
      for (const [name, text] of Object.entries(chain.files)) await server.hub.ctx.store.put(`${stored.prefix}${name}`, text);
      server.hub.ctx.services.analysis.start(1);
      const result = (await waitForAnalyses(server, [stored.fileId])).get(stored.fileId);
      assert.equal(result.status, 'done', JSON.stringify(result));
      assert.equal(result.configurations, chain.configurations);
    });
  });
}
