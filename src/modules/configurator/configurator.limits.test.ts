// Honest limits (issue 36, item 4): a pairwise sample whose coverage tables would pass what the
// hub's workers may hold (a model of 17 501 features and as many classes of variant features,
// 0.4 GB of tables; automotive2_4 is such a model) is refused with the reason and the command
// line that gives the sample, not left to run out of the worker's memory or time budget.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { storeModelFile } from '../../../test/support/fixtures.ts';
import { generatedModel } from './configurator.test-support.ts';

const QUERY = 'kind=twise&t=2&seed=1';

for (const dialect of testDialects()) {
  describe(`a pairwise sample past the hub's budget [${dialect.name}]`, () => {
    let server: TestServer;
    let file = 0;

    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { ANALYSIS_WORKERS: '0' } });
      file = (await storeModelFile(server, { label: 'Large', content: generatedModel(3500, false), name: 'large.uvl' })).fileId;
    });
    after(async () => server?.close());

    it('answers 422 with the reason and the command line to use', { timeout: 300_000 }, async () => {
      const client = new TestClient(server.baseUrl);
      let res = await client.get(`/api/v1/files/${file}/samples?${QUERY}`, { accept: 'application/json' });
      while (res.status === 202) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        res = await client.get(`/api/v1/files/${file}/samples?${QUERY}`, { accept: 'application/json' });
      }
      assert.equal(res.status, 422, res.text);
      assert.match(res.json.message, /needs more memory than the hub's workers have \(pairwise coverage of \d+ classes of variant features needs \d+ MB of bits; the limit is 256 MB\)/);
      assert.match(res.json.message, /hub uvl sample FILE --twise 2/);
    });
  });
}
