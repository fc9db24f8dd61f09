// Issue 25 item 1 on the model page: the library's warnings in a panel, and a fact label that
// names the constraints the analysis left out (line and reason) instead of calling the model
// purely Boolean.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { storeModel } from './model.test-support.ts';

/** faulty/missingreference.uvl of the corpus, in short: A and B declared, the constraint names C and D. */
const MISSING_REFERENCE = 'features\n    A\n        optional\n            B\n\nconstraints\n    C | D\n';

async function finishedAnalysis(client: TestClient, fileId: number): Promise<void> {
  for (;;) {
    const res = await client.get(`/model/${fileId}/analysis.json`);
    assert.equal(res.status, 200, res.text);
    if (res.json.status !== 'pending') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

for (const dialect of testDialects()) {
  describe(`model page warnings [${dialect.name}]`, () => {
    let server: TestServer;
    before(async () => { server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true }); });
    after(async () => { await server?.close(); });

    it('shows the warnings panel and names the left-out constraint with its line and reason', async () => {
      const { fileId } = await storeModel(server, { content: MISSING_REFERENCE, name: 'missingreference.uvl' });
      const client = new TestClient(server.baseUrl);
      const first = await client.get(`/model/${fileId}/`);
      assert.equal(first.status, 200);
      assert.match(first.text, /id="model-warnings"[\s\S]*Line 7:4 - `C` is not a feature: the constraint is left out of the analysis/);
      assert.doesNotMatch(first.text, /id="model-errors"/);
      await finishedAnalysis(client, fileId);
      const page = await client.get(`/model/${fileId}/`);
      const label = /id="ignored-constraints">([\s\S]*?)<\/div>/.exec(page.text)?.[1];
      assert.ok(label, 'the label says that a constraint was left out');
      assert.match(label, /1 constraint left out of the analysis/);
      assert.match(label, /href="#L7">Line 7<\/a>: <code>C \| D<\/code>: `C` is not a feature/);
      assert.doesNotMatch(page.text, /beyond Boolean logic/);
      assert.doesNotMatch(page.text, /<dt>Language level<\/dt><dd>boolean<\/dd>/);
      assert.match(page.text, /<dt>Language level<\/dt><dd>boolean \(1 constraint left out, listed above\)<\/dd>/);
    });

    it('shows no warnings panel for a model without warnings', async () => {
      const { fileId } = await storeModel(server);
      const page = await new TestClient(server.baseUrl).get(`/model/${fileId}/`);
      assert.doesNotMatch(page.text, /id="model-warnings"/);
    });
  });
}
