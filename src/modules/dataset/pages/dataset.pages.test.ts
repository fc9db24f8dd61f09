// The pages of the dataset module over HTTP: DOI landing page (redirects, mapping, 404, view
// records), unsynchronized view, the owner's list, the zip download (download records), the
// landing page statistics and the seeded sample data (decisions section 5).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { buffer } from 'node:stream/consumers';
import { projectPath } from '../../../core/config.ts';
import { testDialects } from '../../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { TestClient } from '../../../../test/support/client.ts';
import { deleteStored, isStored } from '../../../../test/support/stored.ts';
import { VALID_UVL, count, modeltool, download, loggedIn, newUser, stage, unzip, uploadForm } from '../dataset.test-support.ts';

const TWO_YEARS = 63072000;

for (const dialect of testDialects()) {
  describe(`dataset pages over HTTP [${dialect.name}]`, () => {
    let server: TestServer;
    before(async () => { server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true }); });
    after(async () => { await server?.close(); });

    const db = () => server.hub.db;
    const datasetIdOf = async (doi: string) => (await db().selectFrom('data_set').innerJoin('ds_meta_data', 'ds_meta_data.id', 'data_set.ds_meta_data_id')
      .select('data_set.id').where('dataset_doi', '=', doi).executeTakeFirstOrThrow()).id;
    const records = async (table: 'ds_view_record' | 'ds_download_record', datasetId: number) => Number((await db().selectFrom(table)
      .select((eb) => eb.fn.countAll().as('n')).where('dataset_id', '=', datasetId).executeTakeFirstOrThrow()).n);

    /** A synchronized dataset of a fresh user, uploaded through the form. */
    async function published(title: string) {
      const user = await newUser(server);
      await stage(user.client, 'model.uvl', VALID_UVL);
      const res = await user.client.post('/dataset/upload', { form: uploadForm(['model.uvl'], { title }) });
      assert.equal(res.json.status, 'ok');
      return { ...user, id: res.json.dataset_id as number, doi: res.json.doi as string };
    }

    it('seeds four synchronized datasets with three models each, owned alternately, and one DOI mapping', async () => {
      const rows = await db().selectFrom('data_set').innerJoin('ds_meta_data', 'ds_meta_data.id', 'data_set.ds_meta_data_id')
        .innerJoin('user', 'user.id', 'data_set.user_id')
        .select(['data_set.id', 'data_set.user_id', 'user.email', 'title', 'tags', 'dataset_doi', 'ds_meta_data.id as meta_id'])
        .where('dataset_doi', 'like', '10.1234/dataset%').orderBy('dataset_doi').execute();
      assert.deepEqual(rows.map((r) => [r.dataset_doi, r.title, r.tags, r.email]), [
        ['10.1234/dataset1', 'Sample dataset 1', 'tag1, tag2', 'user1@example.com'],
        ['10.1234/dataset2', 'Sample dataset 2', 'tag1, tag2', 'user2@example.com'],
        ['10.1234/dataset3', 'Sample dataset 3', 'tag1, tag2', 'user1@example.com'],
        ['10.1234/dataset4', 'Sample dataset 4', 'tag1, tag2', 'user2@example.com'],
      ]);
      const seen = new Set<string>();
      for (const row of rows) {
        const authors = await db().selectFrom('author').select('name').where('ds_meta_data_id', '=', row.meta_id).execute();
        assert.equal(authors.length, 1, 'one author each');
        const files = await db().selectFrom('file').innerJoin('feature_model', 'feature_model.id', 'file.feature_model_id')
          .select(['file.name', 'file.checksum']).where('data_set_id', '=', row.id).execute();
        assert.equal(files.length, 3);
        for (const file of files) {
          const key = `${server.hub.ctx.services.hubfile.datasetPrefix(row.user_id, row.id)}${file.name}`;
          const content = await server.hub.ctx.store.get(key);
          assert.ok(content, `${key} is stored`);
          const stored = await buffer(content.body);
          assert.equal(createHash('md5').update(stored).digest('hex'), file.checksum);
          assert.deepEqual(stored, readFileSync(projectPath('src/modules/dataset/seed', file.name)), 'copied from the seed folder');
          assert.ok(modeltool(server).checkText(stored.toString('utf8')).valid, `${file.name} is a valid model`);
          seen.add(file.name);
        }
      }
      assert.equal(seen.size, 12, 'twelve different models');
      const mapping = await db().selectFrom('doi_mapping').select(['dataset_doi_old', 'dataset_doi_new']).execute();
      assert.deepEqual(mapping, [{ dataset_doi_old: '10.1234/dataset1-v0', dataset_doi_new: '10.1234/dataset1' }]);
    });

    it('shows the DOI landing page with metadata, files, tools, zip link, view count and citation', async () => {
      const id = await datasetIdOf('10.1234/dataset1');
      const files = await db().selectFrom('file').innerJoin('feature_model', 'feature_model.id', 'file.feature_model_id')
        .select(['file.id', 'file.name']).where('data_set_id', '=', id).execute();
      const res = await new TestClient(server.baseUrl).get('/doi/10.1234/dataset1/');
      assert.equal(res.status, 200);
      assert.match(res.text, /<h1[^>]*>Sample dataset 1<\/h1>/);
      assert.match(res.text, /Doe, John/);
      assert.match(res.text, /Some University/);
      assert.match(res.text, /<span class="badge[^"]*">tag1<\/span>/);
      assert.doesNotMatch(res.text, /id="publication-type"/, "no publication type row when it is none (issue 10)");
      assert.match(res.text, /\d+(\.\d+)? (bytes|KB)/, 'sizes are human readable');
      for (const file of files) {
        assert.match(res.text, new RegExp(file.name.replace(/[.]/g, '\\.')));
        for (const link of [`/file/download/${file.id}`, `/modeltool/to_glencoe/${file.id}`, `/modeltool/to_splot/${file.id}`, `/modeltool/to_cnf/${file.id}`, `/modeltool/valid/${file.id}`]) {
          assert.ok(res.text.includes(`href="${link}"`), link);
        }
        assert.match(res.text, new RegExp(`js-view-file" data-file-id="${file.id}"`));
        assert.match(res.text, new RegExp(`js-check-file" data-file-id="${file.id}"`));
      }
      assert.ok(res.text.includes(`href="/dataset/download/${id}"`));
      assert.match(res.text, /id="view-count">\d+</);
      assert.match(res.text, /id="citation-text">[^<]*Sample dataset 1[^<]*https:\/\/doi\.org\/10\.1234\/dataset1</);
      assert.doesNotMatch(res.text, /id="zenodo-url"/, 'no record link without a deposition id');
      assert.match(res.text, /<script src="\/dataset\/js\/scripts\.js" defer>/);
      const script = await new TestClient(server.baseUrl).get('/dataset/js/scripts.js');
      assert.match(script.text, /uvl-keyword/);
      assert.match(script.text, /\/modeltool\/check_uvl\//);
      assert.match(script.text, /\/file\/view\//);
    });

    it('links the deposit record only when the dataset has both a DOI and a deposition id', async () => {
      const id = await datasetIdOf('10.1234/dataset2');
      const metaId = (await db().selectFrom('data_set').select('ds_meta_data_id').where('id', '=', id).executeTakeFirstOrThrow()).ds_meta_data_id;
      await db().updateTable('ds_meta_data').set({ deposition_id: 4242 }).where('id', '=', metaId).execute();
      try {
        const res = await new TestClient(server.baseUrl).get('/doi/10.1234/dataset2/');
        assert.match(res.text, /id="zenodo-url"[^>]*>https:\/\/zenodo\.org\/records\/4242</);
        const [result] = await server.hub.ctx.services.dataset.listSearchResults([id]);
        assert.equal(result!.zenodo, 'https://zenodo.org/records/4242');
      } finally {
        await db().updateTable('ds_meta_data').set({ deposition_id: null }).where('id', '=', metaId).execute();
      }
    });

    it('redirects /doi/<doi> to /doi/<doi>/ keeping the query, a superseded DOI to its replacement, and answers 404 for unknown DOIs', async () => {
      const c = new TestClient(server.baseUrl);
      const bare = await c.get('/doi/10.1234/dataset3');
      assert.equal(bare.status, 301);
      assert.equal(bare.location, '/doi/10.1234/dataset3/');
      // The query is kept, as the original's strict-slash redirect keeps it.
      const asked = await c.get('/doi/10.1234/dataset3?utm=x&a=%C3%A9');
      assert.equal(asked.location, '/doi/10.1234/dataset3/?utm=x&a=%C3%A9');
      const unsynchronized = await c.get('/dataset/unsynchronized/3?preview=1');
      assert.equal(unsynchronized.status, 301);
      assert.equal(unsynchronized.location, '/dataset/unsynchronized/3/?preview=1');
      const compare = await c.get('/dataset/1/compare/2?x=1');
      assert.equal(compare.status, 301);
      assert.equal(compare.location, '/dataset/1/compare/2/?x=1');
      const old = await c.get('/doi/10.1234/dataset1-v0/');
      assert.equal(old.status, 302);
      assert.equal(old.location, '/doi/10.1234/dataset1/');
      assert.equal((await c.get('/doi/10.1234/dataset1-v0/?x=1')).location, '/doi/10.1234/dataset1/?x=1', 'a superseded DOI keeps the query too');
      for (const path of ['/doi/10.1234/unknown/', '/doi/10.9999/dataset1/', '/doi/', '/doi/10.1234/dataset1//']) {
        assert.equal((await c.get(path)).status, 404, path);
      }
    });

    it('finds a DOI whatever its case (DOIs are case-insensitive): redirect to the stored spelling', async () => {
      const c = new TestClient(server.baseUrl);
      for (const path of ['/doi/10.1234/DATASET4/', '/doi/10.1234/Dataset4/']) {
        const res = await c.get(path);
        assert.equal(res.status, 302, path);
        assert.equal(res.location, '/doi/10.1234/dataset4/');
      }
      assert.equal((await c.get('/doi/10.1234/dataset4/')).status, 200);
      assert.equal((await c.get('/doi/10.1234/DATASET9/')).status, 404);
    });

    it('maps DOIs through the service (hub doi:map) and refuses loops', async () => {
      const service = server.hub.ctx.services.dataset;
      await service.mapDoi('10.1234/dataset4-old', '10.1234/dataset4');
      const res = await new TestClient(server.baseUrl).get('/doi/10.1234/dataset4-old/');
      assert.equal(res.status, 302);
      assert.equal(res.location, '/doi/10.1234/dataset4/');
      await service.mapDoi('10.1234/dataset4-old', '10.1234/dataset3');
      assert.equal((await new TestClient(server.baseUrl).get('/doi/10.1234/dataset4-old/')).location, '/doi/10.1234/dataset3/', 'a second mapping replaces the first');
      await assert.rejects(service.mapDoi('10.1234/dataset1', '10.1234/dataset1-v0'), /loop/);
      await assert.rejects(service.mapDoi('10.1234/x', '10.1234/x'), /itself/);
      await assert.rejects(service.mapDoi('nonsense', '10.1234/dataset1'), /not a DOI/);
    });

    it('records one view per (visitor, dataset, view_cookie), sets the cookie only when absent, for two years', async () => {
      const { id, doi } = await published('Viewed');
      const visitor = new TestClient(server.baseUrl);
      const first = await visitor.get(`/doi/${doi}/`);
      assert.equal(first.status, 200);
      const cookie = first.setCookies.get('view_cookie');
      assert.ok(cookie, 'view_cookie is set on the first visit');
      assert.match(cookie, new RegExp(`Max-Age=${TWO_YEARS}`));
      assert.match(cookie, /Path=\//);
      assert.match(visitor.cookies.get('view_cookie')!, /^[0-9a-f-]{36}$/);
      assert.equal(await records('ds_view_record', id), 1);
      const again = await visitor.get(`/doi/${doi}/`);
      assert.equal(again.setCookies.has('view_cookie'), false, 'an existing cookie is reused, not replaced');
      assert.equal(await records('ds_view_record', id), 1, 'the same visitor is counted once');
      assert.match(again.text, /id="view-count">1</);
      await new TestClient(server.baseUrl).get(`/doi/${doi}/`);
      assert.equal(await records('ds_view_record', id), 2, 'another visitor counts');
      const user = await loggedIn(server, 'user2@example.com');
      user.cookies.set('view_cookie', visitor.cookies.get('view_cookie')!);
      await user.get(`/doi/${doi}/`);
      assert.equal(await records('ds_view_record', id), 3, 'a logged-in user with the same cookie is another (user, cookie) pair');
      await user.get(`/doi/${doi}/`);
      assert.equal(await records('ds_view_record', id), 3);
      // The count on the page is kept with the records, not counted from them at each view.
      assert.match((await user.get(`/doi/${doi}/`)).text, /id="view-count">3</);
      const kept = await db().selectFrom('data_set').select(['view_count', 'download_count']).where('id', '=', id).executeTakeFirstOrThrow();
      assert.deepEqual([Number(kept.view_count), Number(kept.download_count)], [3, 0]);
      const rows = await db().selectFrom('ds_view_record').select(['user_id', 'cookie']).where('dataset_id', '=', id).execute();
      assert.equal(rows.filter((r) => r.user_id !== null).length, 1);
      assert.equal(await records('ds_view_record', await datasetIdOf('10.1234/dataset3')) >= 0, true);
      const before = await count(server, 'ds_view_record');
      await visitor.get('/doi/10.1234/nothing/');
      await visitor.get('/doi/10.1234/dataset1-v0/');
      assert.equal(await count(server, 'ds_view_record'), before, 'a 404 or a redirect records no view');
    });

    it('counts many visitors at once, each record once, telling each whether it was new (batched writes)', async () => {
      const id = await datasetIdOf('10.1234/dataset2');
      const datasets = server.hub.ctx.services.dataset;
      const views = await records('ds_view_record', id);
      const downloads = await records('ds_download_record', id);
      // Views and downloads of 40 visitors at once, every fourth cookie twice and one visitor logged in.
      const cookies = Array.from({ length: 40 }, (_, i) => `batch-${dialect.name}-${String(i).padStart(2, '0')}`);
      const writes = [
        ...cookies.map((cookie) => ['view', cookie, null] as const),
        ...cookies.filter((_, i) => i % 4 === 0).map((cookie) => ['view', cookie, null] as const),
        ['view', cookies[0]!, 1] as const,
        ...cookies.slice(0, 10).map((cookie) => ['download', cookie, null] as const),
      ];
      const answers = await Promise.all(writes.map(([kind, cookie, user]) => Promise.resolve(kind === 'view' ? datasets.recordView(id, user, cookie) : datasets.recordDownload(id, user, cookie))));
      const newOnes = writes.filter((_, i) => answers[i] === true).map(([kind, cookie, user]) => `${kind} ${cookie} ${user}`);
      assert.equal(newOnes.length, 40 + 1 + 10, 'each distinct record is new exactly once');
      assert.equal(new Set(newOnes).size, newOnes.length);
      assert.equal(await records('ds_view_record', id), views + 41);
      assert.equal(await records('ds_download_record', id), downloads + 10);
      const kept = await db().selectFrom('data_set').select(['view_count', 'download_count']).where('id', '=', id).executeTakeFirstOrThrow();
      assert.deepEqual([Number(kept.view_count), Number(kept.download_count)], [views + 41, downloads + 10], 'the counts kept on the row follow the records');
    });

    it('streams the zip: application/zip, dataset_<id>.zip, entries dataset_<id>/<name>, one record per download_cookie', async () => {
      const id = await datasetIdOf('10.1234/dataset3');
      const names = (await db().selectFrom('file').innerJoin('feature_model', 'feature_model.id', 'file.feature_model_id')
        .select('file.name').where('data_set_id', '=', id).execute()).map((f) => f.name).sort();
      const visitor = new TestClient(server.baseUrl);
      const before = await records('ds_download_record', id);
      const res = await download(visitor, `/dataset/download/${id}`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/zip');
      assert.equal(res.headers.get('content-disposition'), `attachment; filename="dataset_${id}.zip"`);
      const entries = await unzip(res.bytes);
      assert.deepEqual([...entries.keys()].sort(), names.map((n) => `dataset_${id}/${n}`));
      for (const name of names) assert.equal(entries.get(`dataset_${id}/${name}`), readFileSync(projectPath('src/modules/dataset/seed', name), 'utf8'));
      const cookie = res.setCookies.find((c) => c.startsWith('download_cookie='));
      assert.ok(cookie);
      assert.match(cookie, new RegExp(`Max-Age=${TWO_YEARS}`));
      assert.match(cookie, /Path=\//);
      assert.equal(await records('ds_download_record', id), before + 1);
      assert.equal(Number((await db().selectFrom('data_set').select('download_count').where('id', '=', id).executeTakeFirstOrThrow()).download_count), before + 1);
      const again = await download(visitor, `/dataset/download/${id}`);
      assert.equal(again.status, 200);
      assert.equal(again.setCookies.length, 0, 'the cookie is reused');
      assert.equal(await records('ds_download_record', id), before + 1);
      await download(new TestClient(server.baseUrl), `/dataset/download/${id}`);
      assert.equal(await records('ds_download_record', id), before + 2);
    });

    it('answers 404 and counts nothing for an unknown dataset or a file missing on disk', async () => {
      const { id, userId } = await published('Losing a file');
      const c = new TestClient(server.baseUrl);
      for (const path of ['/dataset/download/999999', '/dataset/download/abc', '/dataset/download/99999999999']) {
        assert.equal((await download(c, path)).status, 404, path);
      }
      const key = `${server.hub.ctx.services.hubfile.datasetPrefix(userId, id)}model.uvl`;
      assert.ok(await isStored(server, key));
      await deleteStored(server, key);
      const before = await count(server, 'ds_download_record');
      const res = await download(c, `/dataset/download/${id}`);
      assert.equal(res.status, 404);
      assert.equal(res.headers.get('content-type')?.includes('zip'), false);
      assert.equal(await count(server, 'ds_download_record'), before);
    });

    it('shows an unsynchronized dataset only to its owner; others and unknown ids get 404', async () => {
      const owner = await newUser(server, 'Owner');
      const created = await owner.client.post('/api/v1/datasets/', { json: { name: 'Draft set', description: 'No DOI yet' } });
      assert.equal(created.status, 201);
      const id = created.json.id;
      const page = await owner.client.get(`/dataset/unsynchronized/${id}/`);
      assert.equal(page.status, 200);
      assert.match(page.text, /Draft set/);
      assert.match(page.text, /id="unsynchronized-notice"/);
      assert.doesNotMatch(page.text, /id="citation"/);
      assert.equal((await owner.client.get(`/dataset/unsynchronized/${id}`)).location, `/dataset/unsynchronized/${id}/`);
      const anonymous = await new TestClient(server.baseUrl).get(`/dataset/unsynchronized/${id}/`);
      assert.equal(anonymous.status, 302);
      assert.equal(anonymous.location, `/login?next=${encodeURIComponent(`/dataset/unsynchronized/${id}/`)}`);
      const other = await loggedIn(server, 'user1@example.com');
      assert.equal((await other.get(`/dataset/unsynchronized/${id}/`)).status, 404);
      assert.equal((await other.get('/dataset/unsynchronized/999999/')).status, 404);
      const synchronized = await datasetIdOf('10.1234/dataset2');
      const own = await loggedIn(server, 'user2@example.com');
      assert.equal((await own.get(`/dataset/unsynchronized/${synchronized}/`)).status, 404, 'a synchronized dataset lives at its DOI');
      assert.equal((await download(other, `/dataset/download/${id}`)).status, 404, "someone else's unsynchronized zip is not revealed");
      assert.equal((await download(owner.client, `/dataset/download/${id}`)).status, 200, 'the owner may download it');
    });

    it('lists the own synchronized and unsynchronized datasets, newest first (GET and POST), login required', async () => {
      const anonymous = await new TestClient(server.baseUrl).get('/dataset/list');
      assert.equal(anonymous.status, 302);
      assert.equal(anonymous.location, '/login?next=%2Fdataset%2Flist');
      const c = await loggedIn(server, 'user1@example.com');
      await c.post('/api/v1/datasets/', { json: { name: 'User1 draft' } });
      for (const res of [await c.get('/dataset/list'), await c.post('/dataset/list', { form: {} })]) {
        assert.equal(res.status, 200);
        const synced = /<table[^>]*id="synchronized"[\s\S]*?<\/table>/.exec(res.text)![0];
        assert.deepEqual([...synced.matchAll(/>(Sample dataset \d)</g)].map((m) => m[1]), ['Sample dataset 3', 'Sample dataset 1']);
        assert.doesNotMatch(synced, /Sample dataset 2|Sample dataset 4/);
        const unsynced = /<table[^>]*id="unsynchronized"[\s\S]*?<\/table>/.exec(res.text)![0];
        assert.match(unsynced, /User1 draft/);
      }
      // Read-only like POST /explore: no CSRF token needed, and nothing changes.
      const before = await server.hub.db.selectFrom('data_set').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      const noToken = await c.post('/dataset/list', { form: { title: 'x' }, csrf: false });
      assert.equal(noToken.status, 200);
      assert.match(noToken.text, /User1 draft/);
      const after = await server.hub.db.selectFrom('data_set').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      assert.equal(Number(after.n), Number(before.n));
      const anonymousPost = await new TestClient(server.baseUrl).post('/dataset/list', { form: {}, csrf: false });
      assert.equal(anonymousPost.status, 302);
      assert.equal(anonymousPost.location, '/login');
    });

    it('shows the public statistics counted in the database and the latest synchronized datasets', async () => {
      const stat = (html: string, id: string) => Number(new RegExp(`id="${id}">(\\d+)<`).exec(html)![1]);
      const page = await new TestClient(server.baseUrl).get('/');
      assert.equal(page.status, 200);
      const synchronized = Number((await db().selectFrom('ds_meta_data').select((eb) => eb.fn.countAll().as('n')).where('dataset_doi', 'is not', null).executeTakeFirstOrThrow()).n);
      assert.equal(stat(page.text, 'stat-datasets'), synchronized);
      assert.equal(stat(page.text, 'stat-models'), await count(server, 'feature_model'));
      assert.equal(stat(page.text, 'stat-dataset-views'), await count(server, 'ds_view_record'));
      assert.equal(stat(page.text, 'stat-dataset-downloads'), await count(server, 'ds_download_record'));
      // Rows written straight into the database show up: the figures are counted, not cached.
      const id = await datasetIdOf('10.1234/dataset4');
      await db().insertInto('ds_view_record').values({ dataset_id: id, user_id: null, user_key: 0, cookie: 'stat-test-cookie', date: new Date().toISOString() }).execute();
      const fileId = (await db().selectFrom('file').select('id').executeTakeFirstOrThrow()).id;
      await db().insertInto('file_download_record').values({ file_id: fileId, user_id: null, user_key: 0, cookie: 'stat-test-cookie', date: new Date().toISOString() }).execute();
      const after = await new TestClient(server.baseUrl).get('/');
      assert.equal(stat(after.text, 'stat-dataset-views'), stat(page.text, 'stat-dataset-views') + 1);
      assert.equal(stat(after.text, 'stat-file-downloads'), stat(page.text, 'stat-file-downloads') + 1);
      // Unsynchronized datasets are not public figures.
      const c = await loggedIn(server, 'user2@example.com');
      await c.post('/api/v1/datasets/', { json: { name: 'Not counted' } });
      const third = await new TestClient(server.baseUrl).get('/');
      assert.equal(stat(third.text, 'stat-datasets'), synchronized);
      const latest = /id="latest-datasets"[\s\S]*$/.exec(third.text)![0];
      assert.doesNotMatch(latest, /Not counted/);
      const titles = [...latest.matchAll(/<a href="\/doi\/[^"]+">([^<]+)</g)].map((m) => m[1]);
      assert.ok(titles.length > 0 && titles.length <= 6);
      const created = await db().selectFrom('data_set').innerJoin('ds_meta_data', 'ds_meta_data.id', 'data_set.ds_meta_data_id')
        .select('title').where('dataset_doi', 'is not', null).orderBy('created_at', 'desc').orderBy('data_set.id', 'desc').limit(titles.length).execute();
      assert.deepEqual(titles, created.map((r) => r.title), 'newest first');
    });

    it('gives explore the search result objects of decisions section 4, in the order asked, and the raw searchable texts', async () => {
      const ids = [await datasetIdOf('10.1234/dataset3'), await datasetIdOf('10.1234/dataset1')];
      const results = await server.hub.ctx.services.dataset.listSearchResults([...ids, 999999]);
      assert.deepEqual(results.map((r) => r.id), ids, 'in the order of the ids; unknown ids dropped');
      const r = results[1]!;
      assert.deepEqual(Object.keys(r).sort(), [
        'authors', 'created_at', 'created_at_timestamp', 'dataset_doi', 'description', 'download', 'files', 'files_count',
        'id', 'publication_doi', 'publication_type', 'tags', 'title', 'total_size_in_bytes', 'total_size_in_human_format', 'url', 'version', 'version_count', 'zenodo',
      ]);
      assert.equal(r.title, 'Sample dataset 1');
      assert.deepEqual(r.tags, ['tag1', 'tag2']);
      assert.equal(r.publication_type, 'None', 'the label');
      assert.equal(r.dataset_doi, '10.1234/dataset1');
      assert.equal(r.url, 'http://localhost:5000/doi/10.1234/dataset1');
      assert.equal(r.download, `http://localhost:5000/dataset/download/${ids[1]}`);
      assert.equal(r.zenodo, null);
      assert.deepEqual(r.authors, [{ name: 'Doe, John', affiliation: 'Some University', orcid: null }]);
      assert.equal(r.created_at_timestamp, Math.floor(Date.parse(r.created_at) / 1000));
      assert.equal(r.files_count, 3);
      assert.equal(r.total_size_in_bytes, r.files.reduce((sum, f) => sum + f.size, 0));
      assert.match(r.total_size_in_human_format, /^\d+(\.\d+)? (bytes|KB)$/);
      assert.deepEqual(Object.keys(r.files[0]!).sort(), ['id', 'name', 'size', 'size_human']);
      const [doc] = await server.hub.ctx.services.dataset.getSearchDocuments([ids[1]!]);
      assert.equal(doc!.synchronized, true);
      assert.equal(doc!.featureModelCount, 3);
      for (const text of ['Sample dataset 1', 'tag1, tag2', 'Doe, John', 'Some University', 'smartphone.uvl', 'Smartphone product line', 'mobile, hardware']) {
        assert.ok(doc!.texts.includes(text), text);
      }
      const all = await server.hub.ctx.services.dataset.allDatasetIds();
      assert.equal(all.length, await count(server, 'data_set'));
    });

    it('lists the real datasets on the profile summary', async () => {
      const c = await loggedIn(server, 'user2@example.com');
      const res = await c.get('/profile/summary');
      assert.match(res.text, /href="\/doi\/10\.1234\/dataset4\/">Sample dataset 4</);
      assert.match(res.text, /href="\/doi\/10\.1234\/dataset2\/">Sample dataset 2</);
    });
  });
}
