// Issue 10: the search box promises DOIs; the dataset's DOI and its publication DOI are searched
// too, on every dialect, and an index built before this (emptied by its migration) is rebuilt.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

for (const dialect of testDialects()) {
  describe(`explore finds DOIs [${dialect.name}]`, () => {
    let server: TestServer;
    before(async () => { server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true }); });
    after(async () => { await server?.close(); });

    const search = async (query: string): Promise<string[]> => {
      const res = await fetch(`${server.baseUrl}/explore`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
      assert.equal(res.status, 200);
      return ((await res.json()) as { title: string }[]).map((r) => r.title);
    };

    it('finds a dataset by its DOI, whole or in part, in any case', async () => {
      assert.deepEqual(await search('10.1234/dataset2'), ['Sample dataset 2']);
      assert.deepEqual(await search('10.1234/DATASET3'), ['Sample dataset 3']);
      assert.deepEqual(await search('dataset4'), ['Sample dataset 4'], 'a part of it');
    });

    it('finds a dataset by its publication DOI', async () => {
      const row = await server.hub.db.selectFrom('data_set').innerJoin('ds_meta_data', 'ds_meta_data.id', 'data_set.ds_meta_data_id')
        .select(['data_set.id', 'ds_meta_data.id as meta_id']).where('dataset_doi', '=', '10.1234/dataset1').executeTakeFirstOrThrow();
      assert.deepEqual(await search('10.5555/published.article'), []);
      await server.hub.db.updateTable('ds_meta_data').set({ publication_doi: '10.5555/published.article' }).where('id', '=', row.meta_id).execute();
      await server.hub.ctx.services.explore.indexDatasets([row.id]);
      assert.deepEqual(await search('10.5555/published.article'), ['Sample dataset 1']);
    });

    it('rebuilds an emptied index (what the migration leaves) at the next start', async () => {
      await server.hub.db.deleteFrom('explore_search').execute();
      assert.deepEqual(await search('10.1234/dataset2'), []);
      const synced = await server.hub.ctx.services.explore.syncIndex();
      assert.equal(synced.added, 4);
      assert.deepEqual(await search('10.1234/dataset2'), ['Sample dataset 2']);
    });
  });
}
