// Results as they come (issue 24, item 6): while a model is analysed, the API answers `pending`
// with each value stored as soon as the worker has it and `running` naming what is still computed.
// The hard model's count runs for seconds while its satisfiability, core and dead features take
// milliseconds, so the partial answer is there to be seen; its budget is short so it ends as partial.
// It does not compile, so its count runs last, after the explanations.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { HARD_UVL, fetchJson, uploadDataset, waitForAnalyses } from './analysis.test-support.ts';

describe('analysis results as they come', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ seed: true, env: { ANALYSIS_WORKERS: '1', ANALYSIS_TIMEOUT_S: '6' } });
  });
  after(async () => server?.close());

  it('shows satisfiable, core and dead while the count still runs, then the whole result without `running`', async () => {
    const client = new TestClient(server.baseUrl);
    await client.login('user1@example.com', '1234');
    await client.get('/dataset/upload');
    const { dataset_id: datasetId } = await uploadDataset(client, 'Hard partial collection', [['hard.uvl', HARD_UVL]]);
    const fileId = (await fetchJson(`${server.baseUrl}/api/v1/datasets/${datasetId}`)).json.files[0].file_id as number;

    const seen: any[] = [];
    let partial: any;
    while (!partial) {
      const res = await fetchJson(`${server.baseUrl}/api/v1/files/${fileId}/analysis`);
      assert.equal(res.status, 200);
      seen.push(res.json);
      assert.equal(res.json.status, 'pending', `the hard model's count cannot finish first: ${JSON.stringify(seen.map((s) => s.running))}`);
      if (Array.isArray(res.json.core)) partial = res.json;
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(partial.satisfiable, true);
    assert.ok(Array.isArray(partial.dead));
    assert.equal(partial.configurations, null);
    assert.equal(partial.metrics.features, 301);
    assert.ok(partial.running.includes('count'), JSON.stringify(partial.running));

    // A model that does not compile is counted last (extensions 6a): its false-optional features,
    // atomic sets and explanations are there while the count still runs.
    let countLast: any;
    while (!countLast) {
      const res = await fetchJson(`${server.baseUrl}/api/v1/files/${fileId}/analysis`);
      assert.equal(res.json.status, 'pending', `the hard model's count cannot finish first: ${JSON.stringify(res.json.running)}`);
      if (JSON.stringify(res.json.running) === '["count"]') countLast = res.json;
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(countLast.configurations, null);
    assert.ok(Array.isArray(countLast.false_optional));
    assert.ok(Array.isArray(countLast.atomic_sets));

    // The model page's poll answers the same partial state, and its fact label lists what runs.
    const page = await client.get(`/model/${fileId}/`);
    assert.equal(page.status, 200, page.text.slice(0, 2000));
    assert.match(page.text, /id="analysis-running"/);

    const final = (await waitForAnalyses(server, [fileId])).get(fileId);
    assert.equal(final.status, 'partial');
    assert.ok(final.timeouts.includes('count'));
    assert.equal(final.satisfiable, true);
    assert.equal(final.running, undefined, 'a finished result lists nothing as running');
  });
});
