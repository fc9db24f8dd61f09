// REST /api/v1/datasets/ over HTTP (decisions sections 4 and 7).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testDialects } from '../../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { TestClient } from '../../../../test/support/client.ts';
import { isStored, storedEntries } from '../../../../test/support/stored.ts';
import { VALID_UVL, count, loggedIn, newUser, stage, uploadForm } from '../dataset.test-support.ts';

const DOMAIN = 'hub.example.org';

for (const dialect of testDialects()) {
  describe(`REST /api/v1/datasets/ [${dialect.name}]`, () => {
    let server: TestServer;
    const events: string[] = [];
    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { DOMAIN } });
      server.hub.ctx.events.on('dataset.saved', ({ datasetId }: { datasetId: number }) => { events.push(`saved:${datasetId}`); });
      server.hub.ctx.events.on('dataset.deleted', ({ datasetId }: { datasetId: number }) => { events.push(`deleted:${datasetId}`); });
    });
    after(async () => { await server?.close(); });

    const idOf = async (doi: string) => (await server.hub.db.selectFrom('data_set').innerJoin('ds_meta_data', 'ds_meta_data.id', 'data_set.ds_meta_data_id')
      .select('data_set.id').where('dataset_doi', '=', doi).executeTakeFirstOrThrow()).id;

    it('lists synchronized datasets publicly: {items, page, per_page, total}, newest first, exact object fields', async () => {
      const res = await new TestClient(server.baseUrl).get('/api/v1/datasets/');
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(res.json).sort(), ['items', 'page', 'per_page', 'total']);
      assert.equal(res.json.page, 1);
      assert.equal(res.json.per_page, 100);
      const synchronized = Number((await server.hub.db.selectFrom('ds_meta_data').select((eb) => eb.fn.countAll().as('n')).where('dataset_doi', 'is not', null).executeTakeFirstOrThrow()).n);
      assert.equal(res.json.total, synchronized);
      const first = res.json.items.find((d: { name: string }) => d.name === 'Sample dataset 1');
      // `models` (each file's analysis summary) comes from the analysis module, enabled in the shipped selection (issue 9).
      assert.deepEqual(Object.keys(first).sort(), ['concept_doi', 'created', 'dataset_id', 'doi', 'files', 'license', 'models', 'name', 'version', 'versions']);
      assert.equal(first.license, 'CC-BY-4.0', 'the datasets that existed got the default licence');
      assert.equal(first.doi, `http://${DOMAIN}/doi/10.1234/dataset1`);
      assert.ok(!Number.isNaN(Date.parse(first.created)) && first.created === new Date(first.created).toISOString(), 'ISO 8601');
      assert.equal(first.files.length, 3);
      for (const file of first.files) {
        assert.deepEqual(Object.keys(file).sort(), ['file_id', 'file_name', 'size']);
        assert.equal(typeof file.file_id, 'number');
        assert.match(file.size, /^\d+(\.\d+)? (bytes|KB|MB|GB)$/);
      }
      const created = res.json.items.map((d: { created: string }) => d.created);
      assert.deepEqual(created, [...created].sort().reverse(), 'newest first');
      const withUrl = await new TestClient(server.baseUrl).get('/api/v1/datasets');
      assert.equal(withUrl.status, 200);
    });

    it('pages with page and per_page (default 100, at most 1000) and refuses malformed values', async () => {
      const c = new TestClient(server.baseUrl);
      const all = (await c.get('/api/v1/datasets/')).json;
      const page2 = await c.get('/api/v1/datasets/?page=2&per_page=1');
      assert.equal(page2.status, 200);
      assert.equal(page2.json.page, 2);
      assert.equal(page2.json.per_page, 1);
      assert.equal(page2.json.total, all.total);
      assert.deepEqual(page2.json.items.map((d: { dataset_id: number }) => d.dataset_id), [all.items[1].dataset_id]);
      // "at most 1000" (decisions section 4): any larger whole number asks for 1000, however long.
      for (const large of ['1001', '5000', '2147483648', '99999999999999999999999999']) {
        const res = await c.get(`/api/v1/datasets/?per_page=${large}`);
        assert.deepEqual([res.status, res.json.per_page, res.json.total], [200, 1000, all.total], large);
      }
      assert.equal((await c.get('/api/v1/datasets/?per_page=0001')).json.per_page, 1);
      const farPage = await c.get('/api/v1/datasets/?page=2147483648');
      assert.deepEqual([farPage.status, farPage.json.field], [400, 'page']);
      for (const query of ['page=0', 'page=abc', 'per_page=-1', 'per_page=1.5', 'per_page=0', 'per_page=000', 'per_page=1e3']) {
        const res = await c.get(`/api/v1/datasets/?${query}`);
        assert.equal(res.status, 400, query);
        assert.equal(typeof res.json.message, 'string');
      }
      assert.deepEqual((await c.get('/api/v1/datasets/?page=999')).json.items, []);
    });

    it('adds the caller\'s own unsynchronized datasets, and only those, when logged in', async () => {
      const owner = await newUser(server);
      const created = await owner.client.post('/api/v1/datasets/', { json: { name: 'Mine only' } });
      const id = created.json.id;
      const ownList = await owner.client.get('/api/v1/datasets/');
      const mine = ownList.json.items.find((d: { dataset_id: number }) => d.dataset_id === id);
      assert.ok(mine);
      assert.equal(mine.doi, null, 'an unsynchronized dataset has no DOI URL');
      assert.deepEqual(mine.files, []);
      const anonymousList = await new TestClient(server.baseUrl).get('/api/v1/datasets/?per_page=1000');
      assert.equal(anonymousList.json.items.some((d: { dataset_id: number }) => d.dataset_id === id), false);
      const other = await loggedIn(server, 'user1@example.com');
      assert.equal((await other.get('/api/v1/datasets/?per_page=1000')).json.items.some((d: { dataset_id: number }) => d.dataset_id === id), false);
      assert.equal(ownList.json.total, anonymousList.json.total + 1);
    });

    it('reads one dataset, or 404 {"message": "DataSet not found"} (also for someone else\'s unsynchronized)', async () => {
      const c = new TestClient(server.baseUrl);
      const id = await idOf('10.1234/dataset2');
      const one = await c.get(`/api/v1/datasets/${id}`);
      assert.equal(one.status, 200);
      assert.equal(one.json.dataset_id, id);
      assert.equal(one.json.name, 'Sample dataset 2');
      assert.equal(one.json.doi, `http://${DOMAIN}/doi/10.1234/dataset2`);
      for (const path of ['/api/v1/datasets/999999', '/api/v1/datasets/abc']) {
        const res = await c.get(path);
        assert.equal(res.status, 404, path);
      }
      assert.deepEqual((await c.get('/api/v1/datasets/999999')).json, { message: 'DataSet not found' });
      // 0 is an id like any other that no dataset has (Flask's <int:id> takes it).
      for (const path of ['/api/v1/datasets/0', '/api/v1/datasets/00']) {
        const res = await c.get(path);
        assert.equal(res.status, 404, path);
        assert.deepEqual(res.json, { message: 'DataSet not found' }, path);
      }
      const owner = await newUser(server);
      const draft = (await owner.client.post('/api/v1/datasets/', { json: { name: 'Hidden' } })).json.id;
      assert.equal((await owner.client.get(`/api/v1/datasets/${draft}`)).status, 200);
      for (const path of [`/api/v1/datasets/${draft}/files/0`, '/api/v1/datasets/0/files/1']) {
        assert.equal((await owner.client.request('DELETE', path)).status, 404, path);
      }
      const stranger = await c.get(`/api/v1/datasets/${draft}`);
      assert.equal(stranger.status, 404);
      assert.deepEqual(stranger.json, { message: 'DataSet not found' });
    });

    it('answers 401 to anonymous writes, before the CSRF check', async () => {
      const anonymous = new TestClient(server.baseUrl);
      const id = await idOf('10.1234/dataset1');
      const before = await count(server, 'data_set');
      for (const [method, path] of [['POST', '/api/v1/datasets/'], ['PUT', `/api/v1/datasets/${id}`], ['DELETE', `/api/v1/datasets/${id}`]] as const) {
        const res = await anonymous.request(method, path, { json: { name: 'x' }, csrf: false });
        assert.equal(res.status, 401, `${method} ${path}`);
        assert.equal(typeof res.json.message, 'string');
      }
      assert.equal(await count(server, 'data_set'), before);
    });

    it('answers 401 to an anonymous write before reading its body: malformed, poisoned or oversized JSON too', async () => {
      const anonymous = new TestClient(server.baseUrl);
      const id = await idOf('10.1234/dataset1');
      const json = { 'content-type': 'application/json' };
      const bodies = ['{"name": ', '{"__proto__": {"x": 1}}', `{"name": "${'x'.repeat(3 * 1024 * 1024)}"}`];
      const writes = [['POST', '/api/v1/datasets/'], ['PUT', `/api/v1/datasets/${id}`], ['POST', `/api/v1/datasets/${id}/files/import`], ['POST', `/api/v1/datasets/${id}/publish`]] as const;
      for (const [method, path] of writes) {
        for (const body of bodies) {
          const res = await anonymous.request(method, path, { body, headers: json, csrf: false });
          assert.equal(res.status, 401, `${method} ${path} ${body.slice(0, 20)}`);
          assert.equal(typeof res.json.message, 'string');
        }
        const badToken = await anonymous.request(method, path, { body: bodies[0], headers: { ...json, authorization: 'Bearer hub_unknown' }, csrf: false });
        assert.equal(badToken.status, 401, `${method} ${path} with an unknown token`);
      }
      // Logged in, the same bodies are still parsed as before: malformed or poisoned 400, too large 413.
      const { client } = await newUser(server);
      const statuses = [];
      for (const body of bodies) statuses.push((await client.request('POST', '/api/v1/datasets/', { body, headers: json })).status);
      assert.deepEqual(statuses, [400, 400, 413]);
    });

    it('needs the X-CSRFToken header for logged-in writes (400, nothing changes)', async () => {
      const { client } = await newUser(server);
      const before = await count(server, 'data_set');
      const res = await client.post('/api/v1/datasets/', { json: { name: 'No token' }, csrf: false });
      assert.equal(res.status, 400);
      assert.equal(await count(server, 'data_set'), before);
      const wrong = await client.post('/api/v1/datasets/', { json: { name: 'Wrong token' }, csrf: false, headers: { 'x-csrftoken': 'forged' } });
      assert.equal(wrong.status, 400);
      assert.equal(await count(server, 'data_set'), before);
    });

    it('creates an unsynchronized dataset without files: 201 {message, id}; no body 400 "No input data provided"', async () => {
      const { client, userId } = await newUser(server, 'Creator');
      events.length = 0;
      const res = await client.post('/api/v1/datasets/', { json: { name: 'Created by API', description: 'Through REST', publication_type: 'report', tags: ['x', ' y ', ''] } });
      assert.equal(res.status, 201);
      assert.equal(typeof res.json.message, 'string');
      const id = res.json.id;
      const row = await server.hub.db.selectFrom('data_set').innerJoin('ds_meta_data', 'ds_meta_data.id', 'data_set.ds_meta_data_id')
        .selectAll().where('data_set.id', '=', id).executeTakeFirstOrThrow();
      assert.deepEqual([row.user_id, row.title, row.description, row.publication_type, row.tags, row.dataset_doi], [userId, 'Created by API', 'Through REST', 'report', 'x, y', null]);
      const authors = await server.hub.db.selectFrom('author').select('name').where('ds_meta_data_id', '=', row.ds_meta_data_id).execute();
      assert.deepEqual(authors, [{ name: 'Tester, Creator' }]);
      assert.deepEqual(events, [`saved:${id}`]);
      const before = await count(server, 'data_set');
      for (const body of [undefined, {}]) {
        const empty = await client.post('/api/v1/datasets/', body === undefined ? {} : { json: body });
        assert.equal(empty.status, 400);
        assert.deepEqual(empty.json, { message: 'No input data provided' });
      }
      for (const bad of [{ description: 'no name' }, { name: '' }, { name: 5 }, { name: 'ok', publication_type: 'novel' }, { name: 'ok', tags: 3 }]) {
        const res2 = await client.post('/api/v1/datasets/', { json: bad });
        assert.equal(res2.status, 400, JSON.stringify(bad));
        assert.equal(typeof res2.json.message, 'string');
      }
      assert.equal(await count(server, 'data_set'), before);
    });

    it('counts name and description in characters like the upload form (255 emoji fit) and refuses control characters in a name', async () => {
      const { client } = await newUser(server, 'Counter');
      const emoji = await client.post('/api/v1/datasets/', { json: { name: '😀'.repeat(255), description: '😀'.repeat(16000) } });
      assert.equal(emoji.status, 201, emoji.text);
      const stored = await server.hub.db.selectFrom('data_set').innerJoin('ds_meta_data', 'ds_meta_data.id', 'data_set.ds_meta_data_id')
        .select(['title', 'description']).where('data_set.id', '=', emoji.json.id).executeTakeFirstOrThrow();
      assert.equal([...stored.title].length, 255);
      assert.equal([...stored.description!].length, 16000);
      const put = await client.request('PUT', `/api/v1/datasets/${emoji.json.id}`, { json: { name: '😃'.repeat(255) } });
      assert.equal(put.status, 200, put.text);
      const before = await count(server, 'data_set');
      for (const bad of [{ name: '😀'.repeat(256) }, { name: 'a\u0007b' }, { name: 'tab\there' }, { name: 'ok', description: '😀'.repeat(16001) }]) {
        const res = await client.post('/api/v1/datasets/', { json: bad });
        assert.equal(res.status, 400, JSON.stringify(bad).slice(0, 40));
        assert.ok(res.json.errors.name || res.json.errors.description);
      }
      assert.equal(await count(server, 'data_set'), before);
    });

    it('updates name, description and tags with PUT and returns the object; 403 for another owner, 404 for a hidden one', async () => {
      const owner = await newUser(server);
      const id = (await owner.client.post('/api/v1/datasets/', { json: { name: 'Before' } })).json.id;
      events.length = 0;
      const res = await owner.client.request('PUT', `/api/v1/datasets/${id}`, { json: { name: 'After', description: 'New text', tags: 'a, b', dataset_id: 1, doi: '10.1/x' } });
      assert.equal(res.status, 200);
      assert.equal(res.json.dataset_id, id);
      assert.equal(res.json.name, 'After');
      assert.equal(res.json.doi, null, 'a PUT cannot set a DOI');
      const row = await server.hub.db.selectFrom('data_set').innerJoin('ds_meta_data', 'ds_meta_data.id', 'data_set.ds_meta_data_id')
        .select(['title', 'description', 'tags', 'dataset_doi']).where('data_set.id', '=', id).executeTakeFirstOrThrow();
      assert.deepEqual(row, { title: 'After', description: 'New text', tags: 'a, b', dataset_doi: null });
      assert.deepEqual(events, [`saved:${id}`]);
      const partial = await owner.client.request('PUT', `/api/v1/datasets/${id}`, { json: { description: 'Only this' } });
      assert.equal(partial.json.name, 'After', 'absent fields keep their value');
      const none = await owner.client.request('PUT', `/api/v1/datasets/${id}`, {});
      assert.equal(none.status, 400);
      assert.deepEqual(none.json, { message: 'No input data provided' });
      const other = await loggedIn(server, 'user1@example.com');
      const hidden = await other.request('PUT', `/api/v1/datasets/${id}`, { json: { name: 'Hijack' } });
      assert.equal(hidden.status, 404, "someone else's unsynchronized dataset is not revealed");
      const synchronizedOfUser2 = await idOf('10.1234/dataset2');
      const forbidden = await other.request('PUT', `/api/v1/datasets/${synchronizedOfUser2}`, { json: { name: 'Hijack' } });
      assert.equal(forbidden.status, 403);
      assert.equal(typeof forbidden.json.message, 'string');
      assert.equal((await other.request('PUT', '/api/v1/datasets/999999', { json: { name: 'x' } })).status, 404);
      const title = await server.hub.db.selectFrom('ds_meta_data').select('title').where('dataset_doi', '=', '10.1234/dataset2').executeTakeFirstOrThrow();
      assert.equal(title.title, 'Sample dataset 2');
    });

    it('deletes an own unsynchronized dataset with its rows and folder (204); 409 when synchronized; 403/404 for others', async () => {
      const { client, userId } = await newUser(server);
      await stage(client, 'a.uvl', VALID_UVL);
      const id = (await client.post('/api/v1/datasets/', { json: { name: 'To delete' } })).json.id;
      const prefix = server.hub.ctx.services.hubfile.datasetPrefix(userId, id);
      const other = await loggedIn(server, 'user1@example.com');
      assert.equal((await other.request('DELETE', `/api/v1/datasets/${id}`)).status, 404);
      events.length = 0;
      const res = await client.request('DELETE', `/api/v1/datasets/${id}`);
      assert.equal(res.status, 204);
      assert.equal(res.text, '');
      assert.equal(await server.hub.db.selectFrom('data_set').select('id').where('id', '=', id).executeTakeFirst(), undefined);
      assert.deepEqual(await storedEntries(server, prefix), []);
      assert.deepEqual(events, [`deleted:${id}`]);
      assert.equal((await client.request('DELETE', `/api/v1/datasets/${id}`)).status, 404);
      const up = await client.post('/dataset/upload', { form: uploadForm(['a.uvl']) });
      assert.equal(up.json.status, 'ok');
      const conflict = await client.request('DELETE', `/api/v1/datasets/${up.json.dataset_id}`);
      assert.equal(conflict.status, 409);
      assert.equal(typeof conflict.json.message, 'string');
      assert.ok(await server.hub.db.selectFrom('data_set').select('id').where('id', '=', up.json.dataset_id).executeTakeFirst());
      assert.equal((await other.request('DELETE', `/api/v1/datasets/${await idOf('10.1234/dataset2')}`)).status, 403);
    });

    it('removes the files, file rows and records of a deleted dataset that had models', async (t) => {
      const { client, userId } = await newUser(server);
      // createFromFiles reads a local file (as the seeders do), wherever the store keeps its copy.
      const source = mkdtempSync(join(tmpdir(), 'dataset-api-test-'));
      t.after(() => rmSync(source, { recursive: true, force: true }));
      writeFileSync(join(source, 'gone.uvl'), VALID_UVL);
      const service = server.hub.ctx.services.dataset;
      const id = await service.createFromFiles(userId, {
        title: 'With files', description: 'x', publicationType: 'none', publicationDoi: null, tags: null, authors: [],
      }, [{ path: join(source, 'gone.uvl'), meta: { name: 'gone.uvl', title: 'Gone', description: '', publicationType: 'none', publicationDoi: null, tags: null, version: null, authors: [] } }]);
      const prefix = server.hub.ctx.services.hubfile.datasetPrefix(userId, id);
      assert.ok(await isStored(server, `${prefix}gone.uvl`));
      const files = await count(server, 'file');
      const res = await client.request('DELETE', `/api/v1/datasets/${id}`);
      assert.equal(res.status, 204);
      assert.equal(await count(server, 'file'), files - 1);
      assert.deepEqual(await storedEntries(server, prefix), []);
    });

    it('answers 405 for methods the resource does not have', async () => {
      const { client } = await newUser(server);
      assert.equal((await client.request('DELETE', '/api/v1/datasets/')).status, 405);
      assert.equal((await client.post(`/api/v1/datasets/${await idOf('10.1234/dataset1')}`, { json: { name: 'x' } })).status, 405);
    });
  });
}
