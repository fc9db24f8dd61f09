// The number of queries of the busiest pages does not grow with the number of files or
// authors (issue 12, item 1): the DOI page, the landing page and the explore search are
// counted for a dataset of one file and one author, then for one of eight of each.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { TestClient } from '../../test/support/client.ts';
import { projectPath } from './config.ts';

const SEED = projectPath('src/modules/dataset/seed');
const FILES = ['smartphone.uvl', 'drone.uvl', 'web-shop.uvl', 'text-editor.uvl', 'bicycle.uvl', 'compiler.uvl', 'coffee-machine.uvl', 'weather-station.uvl'];

for (const dialect of testDialects()) {
  describe(`queries per page do not grow with files or authors [${dialect.name}]`, () => {
    let server: TestServer;
    let queries: string[] = [];
    let counting = false;

    before(async () => {
      // No analysis worker: its claims and results would be counted with the pages' own queries.
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { ANALYSIS_WORKERS: '0' }, onQuery: (q) => { if (counting) queries.push(q); } });
      // The first session written sweeps expired ones (once an hour): not part of any page. The
      // seeded datasets' parts are read once here, so that both measurements start alike.
      await new TestClient(server.baseUrl).get('/');
      await fetch(`${server.baseUrl}/explore`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).then((r) => r.text());
    });
    after(async () => server?.close());

    async function createDataset(n: number, doi: string): Promise<void> {
      const ctx = server.hub.ctx;
      const user = await ctx.services.auth.getUserByEmail('user1@example.com');
      const authors = Array.from({ length: n }, (_, i) => ({ name: `Author ${i}`, affiliation: `Lab ${i}`, orcid: null }));
      await ctx.services.dataset.createFromFiles(
        user!.id,
        { title: `Dataset of ${n}`, description: 'Counted', publicationType: 'none', publicationDoi: null, tags: 'a, b', authors },
        FILES.slice(0, n).map((file) => ({
          path: `${SEED}/${file}`,
          meta: { name: file, title: file, description: 'd', publicationType: 'none', publicationDoi: null, tags: 't', version: '2.0', authors },
        })),
        { doi },
      );
    }

    async function count(run: () => Promise<unknown>): Promise<number> {
      queries = [];
      counting = true;
      try {
        await run();
      } finally {
        counting = false;
      }
      return queries.length;
    }

    async function pageCounts(doi: string) {
      // Every dataset's kept parts are out of date (as after a write on another instance): the
      // pages read them again, and that reading must not grow with files or authors either.
      await server.hub.db.updateTable('data_set').set((eb) => ({ revision: eb('revision', '+', 1) })).execute();
      const visitor = new TestClient(server.baseUrl);
      const get = async (path: string) => {
        const res = await visitor.get(path);
        assert.equal(res.status, 200, path);
      };
      return {
        doiFirstVisit: await count(() => get(`/doi/${doi}/`)),
        doiReturning: await count(() => get(`/doi/${doi}/`)),
        landing: await count(() => get('/')),
        explore: await count(async () => {
          const res = await fetch(`${server.baseUrl}/explore`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": ""}' });
          assert.equal(res.status, 200);
          await res.text();
        }),
      };
    }

    it('the DOI page, the landing page and explore run as many queries for 8 files and authors as for 1', async () => {
      await createDataset(1, '10.9999/count.small');
      const small = await pageCounts('10.9999/count.small');
      await createDataset(8, '10.9999/count.large');
      const large = await pageCounts('10.9999/count.large');
      console.log(`# queries [${dialect.name}] 1 file/author: ${JSON.stringify(small)}; 8: ${JSON.stringify(large)}`);
      assert.deepEqual(large, small);
      // A returning visitor's page view writes no session row.
      const visitor = new TestClient(server.baseUrl);
      await visitor.get('/doi/10.9999/count.large/');
      await count(() => visitor.get('/doi/10.9999/count.large/'));
      assert.deepEqual(queries.filter((q) => /^\s*(insert|update|delete)\b[^;]*\bsession\b/i.test(q)), []);
    });
  });
}
