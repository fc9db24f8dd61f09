// The landing page `public.index` at `/` (decisions section 3): public statistics counted in the
// database and the latest synchronized datasets, on every dialect.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { insertDatasetRow, userIdByEmail } from '../../../test/support/fixtures.ts';

function stat(html: string, id: string): number {
  const match = new RegExp(`id="${id}">(\\d+)<`).exec(html);
  assert.ok(match, `statistic ${id} is shown`);
  return Number(match[1]);
}

for (const dialect of testDialects()) {
  describe(`landing page [${dialect.name}]`, () => {
    let server: TestServer;
    before(async () => { server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true }); });
    after(async () => { await server?.close(); });

    it('is public and shows the statistics of the seeded catalogue', async () => {
      const res = await new TestClient(server.baseUrl).get('/');
      assert.equal(res.status, 200);
      assert.equal(stat(res.text, 'stat-datasets'), 4);
      assert.equal(stat(res.text, 'stat-models'), 12);
      for (const id of ['stat-dataset-views', 'stat-dataset-downloads', 'stat-file-views', 'stat-file-downloads']) assert.equal(stat(res.text, id), 0, id);
    });

    it('counts views and downloads of datasets and files as visitors make them', async () => {
      const visitor = new TestClient(server.baseUrl);
      assert.equal((await visitor.get('/doi/10.1234/dataset1/')).status, 200);
      const datasetId = (await server.hub.db.selectFrom('ds_meta_data').innerJoin('data_set', 'data_set.ds_meta_data_id', 'ds_meta_data.id')
        .select('data_set.id').where('dataset_doi', '=', '10.1234/dataset1').executeTakeFirstOrThrow()).id;
      assert.equal((await visitor.get(`/dataset/download/${datasetId}`)).status, 200);
      const fileId = (await server.hub.db.selectFrom('file').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
      assert.equal((await visitor.get(`/file/view/${fileId}`)).status, 200);
      assert.equal((await visitor.get(`/file/download/${fileId}`)).status, 200);
      const home = await new TestClient(server.baseUrl).get('/');
      assert.equal(stat(home.text, 'stat-dataset-views'), 1);
      assert.equal(stat(home.text, 'stat-dataset-downloads'), 1);
      assert.equal(stat(home.text, 'stat-file-views'), 1);
      assert.equal(stat(home.text, 'stat-file-downloads'), 1);
    });

    it('counts a visit of a model page as a model view, once per visitor (the figure stayed 0 after many model-page visits)', async () => {
      const fileId = (await server.hub.db.selectFrom('file').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id;
      const before = stat((await new TestClient(server.baseUrl).get('/')).text, 'stat-file-views');
      const visitor = new TestClient(server.baseUrl);
      for (let i = 0; i < 3; i += 1) assert.equal((await visitor.get(`/model/${fileId}/`)).status, 200);
      assert.equal(stat((await visitor.get('/')).text, 'stat-file-views'), before + 1, 'three visits of one visitor are one view');
      assert.equal((await new TestClient(server.baseUrl).get(`/model/${fileId}/`)).status, 200);
      assert.equal(stat((await visitor.get('/')).text, 'stat-file-views'), before + 2, 'another visitor is another view');
      assert.equal((await new TestClient(server.baseUrl).get('/model/999999/')).status, 404);
      assert.equal(stat((await visitor.get('/')).text, 'stat-file-views'), before + 2, 'a page that was not found is not a view');
    });

    it('lists the latest synchronized datasets, newest first, never an unsynchronized one', async () => {
      const owner = await userIdByEmail(server.hub.db, 'user1@example.com');
      await insertDatasetRow(server.hub.db, owner, { title: 'Brand new published', doi: '10.9999/landing.1', createdAt: '2099-01-02T00:00:00.000Z' });
      await insertDatasetRow(server.hub.db, owner, { title: 'Brand new draft', doi: null, createdAt: '2099-01-03T00:00:00.000Z' });
      const home = await new TestClient(server.baseUrl).get('/');
      const section = home.text.slice(home.text.indexOf('id="latest-datasets"'));
      const titles = [...section.matchAll(/<h3 class="h6 card-title"><a href="([^"]+)">([^<]+)</g)].map((m) => [m[1], m[2]]);
      assert.deepEqual(titles[0], ['/doi/10.9999/landing.1/', 'Brand new published']);
      assert.ok(titles.some(([, t]) => t === 'Sample dataset 1'));
      assert.ok(!home.text.includes('Brand new draft'), 'an unsynchronized dataset is not public');
      assert.equal(stat(home.text, 'stat-datasets'), 5, 'the draft is not counted');
    });
  });
}

describe('landing page alone', () => {
  it('answers with only the public module enabled (it requires nothing)', async () => {
    const server = await startTestServer({ modules: ['public'] });
    try {
      const res = await new TestClient(server.baseUrl).get('/');
      assert.equal(res.status, 200);
      assert.match(res.text, /<meta name="csrf-token"/);
      assert.doesNotMatch(res.text, /id="stat-datasets"/);
    } finally {
      await server.close();
    }
  });
});
