// Two hub instances on one database (PostgreSQL in CI, else the first server database, else one
// SQLite file): a sample both are asked for at once is computed by one of them only.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { fetchJson, uploadDataset } from '../../../test/support/uploads.ts';
import { PRINTER_UVL, waitForResult } from './configurator.test-support.ts';

const dialect = testDialects().find((d) => d.name === 'postgres') ?? testDialects().find((d) => d.name !== 'sqlite') ?? testDialects()[0]!;

describe(`samples by two instances on one ${dialect.name} database`, () => {
  let a: TestServer;
  let b: TestServer;
  before(async () => {
    a = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { ANALYSIS_WORKERS: '0' } });
    b = await startTestServer({ databaseUrl: a.database.url, workingDir: a.workingDir, env: { ANALYSIS_WORKERS: '0' } });
  });
  after(async () => {
    await b?.close();
    await a?.close();
  });

  it('computes one sample once and both answer it', async () => {
    const client = new TestClient(a.baseUrl);
    await client.login('user1@example.com', '1234');
    await client.get('/dataset/upload');
    const { dataset_id: id } = await uploadDataset(client, 'Twin printer', [['twin.uvl', PRINTER_UVL]]);
    const file = (await fetchJson(`${b.baseUrl}/api/v1/datasets/${id}`)).json.files[0].file_id;
    const path = `/api/v1/files/${file}/samples?kind=uniform&n=50&seed=3`;
    const first = await Promise.all([a, b, a, b].map((s) => fetch(s.baseUrl + path)));
    assert.deepEqual(first.map((r) => r.status), [202, 202, 202, 202]);
    const [fromA, fromB] = await Promise.all([a, b].map((s) => waitForResult(s.baseUrl + path)));
    assert.deepEqual(fromA, fromB);
    assert.equal(fromA.configurations.length, 50);
    const computed = [a, b].map((s) => s.hub.ctx.services.configurator.computedHere());
    assert.equal(computed[0]! + computed[1]!, 1, `computed by a: ${computed[0]}, by b: ${computed[1]}`);
    const rows = await a.hub.db.selectFrom('model_sample').select(['status']).where('kind', '=', 'uniform').execute();
    assert.deepEqual(rows, [{ status: 'done' }]);
  });
});
