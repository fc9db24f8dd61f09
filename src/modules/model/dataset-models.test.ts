// Each model's facts for the DOI page (models.json) and the dataset's CSV of them (issue 24,
// item 7): exact values on the hand-made model with a dead feature, a pending one, the 404 of
// another's unsynchronized dataset, and the CSV's quoting.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { storeModel } from './model.test-support.ts';
import { CSV_COLUMNS, modelsCsv } from './dataset-models.ts';

describe('model facts of a dataset (models.json, models.csv)', () => {
  let server: TestServer;
  const anonymous = () => new TestClient(server.baseUrl);
  before(async () => {
    server = await startTestServer({ seed: true });
  });
  after(async () => server?.close());

  it('gives each file its features, constraints, configurations and anomaly counts once analysed', async () => {
    const { fileId, datasetId, doi } = await storeModel(server);
    // The fixture is stored without the upload's queueing: the model page's JSON queues it.
    assert.equal((await anonymous().get(`/model/${fileId}/analysis.json`)).status, 200);
    let body: any;
    for (;;) {
      const res = await anonymous().get(`/model/dataset/${datasetId}/models.json`);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      body = res.json;
      if (body.models[0].status !== 'pending') break;
      assert.deepEqual([body.models[0].features, body.models[0].dead], [null, null], 'nothing before the analysis');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.deepEqual(body, {
      dataset_id: datasetId, analysed: true,
      models: [{ file_id: fileId, name: 'cars.uvl', status: 'done', features: 4, constraints: 2, configurations: '1', satisfiable: true, core: 3, dead: 1, false_optional: 1 }],
    });

    const csv = await anonymous().get(`/model/dataset/${datasetId}/models.csv`);
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
    assert.match(csv.headers.get('content-disposition') ?? '', new RegExp(`attachment; filename="dataset-${datasetId}-models.csv"`));
    assert.equal(csv.text, `${CSV_COLUMNS.join(',')}\r\n${fileId},cars.uvl,done,4,2,1,true,3,1,1\r\n`);

    // The DOI page links the CSV (its script shows the facts in each file's row).
    const page = await anonymous().get(`/doi/${doi}/`);
    assert.ok(page.text.includes(`id="models-csv" href="/model/dataset/${datasetId}/models.csv"`));
  });

  it("answers 404 for another's unsynchronized dataset and an unknown one, and shows it to its owner", async () => {
    const { datasetId } = await storeModel(server, { owner: 'user2@example.com', doi: null });
    for (const path of [`/model/dataset/${datasetId}/models.json`, `/model/dataset/${datasetId}/models.csv`, '/model/dataset/999999/models.json', '/model/dataset/99999999999/models.csv']) {
      assert.equal((await anonymous().get(path)).status, 404, path);
    }
    const owner = new TestClient(server.baseUrl);
    assert.equal((await owner.login('user2@example.com', '1234')).status, 302);
    const res = await owner.get(`/model/dataset/${datasetId}/models.json`);
    assert.equal(res.status, 200);
    assert.equal(res.json.models.length, 1);
  });

  it('quotes names with commas, quotes and line breaks, and defuses spreadsheet formulas', () => {
    const row = (name: string) => ({ file_id: 1, name, status: 'pending' as const, features: null, constraints: null, configurations: null, satisfiable: null, core: null, dead: null, false_optional: null });
    const lines = modelsCsv([row('a,b.uvl'), row('say "hi".uvl'), row('=HYPERLINK("x").uvl'), row('two\nlines.uvl')]).split('\r\n');
    assert.equal(lines[1], '1,"a,b.uvl",pending,,,,,,,');
    assert.equal(lines[2], '1,"say ""hi"".uvl",pending,,,,,,,');
    assert.equal(lines[3], `1,"'=HYPERLINK(""x"").uvl",pending,,,,,,,`);
    assert.equal(lines[4], '1,"two\nlines.uvl",pending,,,,,,,', 'a line break stays inside its quoted field');
  });
});
