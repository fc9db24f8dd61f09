// Two hub instances on one database, both with analysis workers (the production setup): a freshly
// uploaded dataset is analysed once. Runs on the first server database of TEST_DATABASE_URLS
// (PostgreSQL in CI), else on one SQLite file shared by both instances.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { DEAD_UVL, FREE_UVL, VOID_UVL, BIG_UVL, fetchJson, uploadDataset, waitForAnalyses } from './analysis.test-support.ts';

const dialect = testDialects().find((d) => d.name === 'postgres') ?? testDialects().find((d) => d.name !== 'sqlite') ?? testDialects()[0]!;

describe(`analysis by two instances on one ${dialect.name} database`, () => {
  let a: TestServer;
  let b: TestServer;
  before(async () => {
    a = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true });
    b = await startTestServer({ databaseUrl: a.database.url, workingDir: a.workingDir });
  });
  after(async () => {
    await b?.close();
    await a?.close();
  });

  it('analyses each model of a fresh upload exactly once', async () => {
    const client = new TestClient(a.baseUrl);
    await client.login('user1@example.com', '1234');
    await client.get('/dataset/upload');
    // Distinct contents, so that both instances find work to claim at the same time.
    const models: [string, string][] = [
      ['dead.uvl', DEAD_UVL], ['void.uvl', VOID_UVL], ['free.uvl', FREE_UVL], ['big.uvl', BIG_UVL],
      ...Array.from({ length: 4 }, (_, i) => [`free${i}.uvl`, FREE_UVL.replace('Stapler', `Stapler${i}`)] as [string, string]),
    ];
    const { dataset_id: id } = await uploadDataset(client, 'Twin instance collection', models);
    const files = (await fetchJson(`${b.baseUrl}/api/v1/datasets/${id}`)).json.files.map((f: { file_id: number }) => f.file_id);
    assert.equal(files.length, models.length);
    const results = await waitForAnalyses(b, files);
    const shas = [...results.values()].map((r) => r.sha256);
    const rows = await a.hub.db.selectFrom('model_analysis').select(['sha256', 'status', 'attempts']).where('sha256', 'in', shas).execute();
    assert.equal(rows.length, models.length, 'one row per content');
    for (const row of rows) {
      assert.equal(row.status, 'done');
      assert.equal(Number(row.attempts), 1, `${row.sha256} was claimed once`);
    }
    // Both instances answer the same stored result.
    for (const file of files) {
      const [fromA, fromB] = await Promise.all([a, b].map((s) => fetchJson(`${s.baseUrl}/api/v1/files/${file}/analysis`)));
      assert.deepEqual(fromA!.json, fromB!.json);
    }
  });
});
