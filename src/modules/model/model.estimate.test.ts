// The fact label of a model whose exact count ran out of time but whose estimate finished
// (extensions 6a): "about m × 10^e" marked as an estimate with its guarantee and method, and no
// exact count anywhere; the page's analysis JSON keeps configurations null beside the estimate.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { DEAD_MODEL, storeModel } from './model.test-support.ts';

describe('the fact label of an estimated count', () => {
  let server: TestServer;
  let fileId: number;

  before(async () => {
    // No analysis workers: the test stores the result of a count out of time itself.
    server = await startTestServer({ seed: true, env: { ANALYSIS_WORKERS: '0' } });
    ({ fileId } = await storeModel(server));
  });
  after(async () => server?.close());

  it('shows "about" the estimate with its guarantee and method, never as an exact count', async () => {
    const client = new TestClient(server.baseUrl);
    assert.equal((await client.get(`/model/${fileId}/`)).status, 200);
    const estimate = { value: '1234567890123456789012345678901234567890123456', log10: 45.09, epsilon: 0.8, delta: 0.2, method: 'ApproxMC (random XOR constraints as CNF, 9 iterations, cell threshold 73)' };
    const result = {
      valid: true, boolean_only: true, ignored_constraints: 0, satisfiable: true, configurations: null, configurations_status: 'timeout', configurations_estimate: estimate,
      core: ['Car'], dead: [], false_optional: [], variant: [], atomic_sets: [], explanations: { void: [], dead: {}, false_optional: {} },
      metrics: { features: 6, leaf_features: 4, abstract_features: 0, compound_features: 2, depth: 3, groups: { or: 0, alternative: 1, cardinality: 0 }, constraints: 2, simple_constraints: 2, complex_constraints: 0, features_in_constraints: 2, attributes: 0, typed_features: 0, language_level: 'boolean' },
      timings_ms: {}, timeouts: ['count'],
    };
    const sha256 = createHash('sha256').update(DEAD_MODEL, 'utf8').digest('hex');
    const updated = await server.hub.db.updateTable('model_analysis').set({ status: 'partial', result: JSON.stringify(result) }).where('sha256', '=', sha256).executeTakeFirst();
    assert.equal(Number(updated.numUpdatedRows), 1);

    const page = await client.get(`/model/${fileId}/`);
    assert.equal(page.status, 200);
    const cell = /id="fact-configurations">([\s\S]*?)<\/dd>/.exec(page.text)![1]!;
    assert.match(cell, /<span id="count-estimate">about 1\.2 × 10<sup>45<\/sup><\/span>/);
    assert.match(cell, /An estimate, not an exact count \(which ran out of time\): within a factor 1\.8 of the exact count with probability at least 0\.8\. Method: ApproxMC/);
    assert.doesNotMatch(cell, /1234567890/, 'the estimate\'s digits are not shown as a count');
    assert.doesNotMatch(cell, /out of time<\/span>/);

    const json = await client.get(`/model/${fileId}/analysis.json`);
    assert.equal(json.json.configurations, null);
    assert.deepEqual(json.json.configurations_estimate, estimate);
  });
});
