// Editing a dataset's metadata, its history, the licence, and the owner's publish and delete
// pages (extensions section 2), over HTTP on every database: with the built-in fake deposit,
// and with the app pointed at a Zenodo-speaking server with a fault injected at each step.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testDialects } from '../../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { TestClient } from '../../../../test/support/client.ts';
import { useHubWithFakeZenodo, type FakeZenodo } from '../../../../test/support/fake-zenodo.ts';
import { isStored, storedEntries } from '../../../../test/support/stored.ts';
import { VALID_UVL, loggedIn, newUser, stage, uploadForm } from '../dataset.test-support.ts';

/** The edit form's fields for the given values (the upload form's names). */
function editForm(values: Record<string, string> = {}): Record<string, string> {
  return {
    title: 'Edited title', desc: 'Edited description', publication_type: 'report', publication_doi: '10.1000/edited.1',
    tags: 'alpha, beta', license: 'CC0-1.0',
    'authors-0-name': 'Roe, Jane', 'authors-0-affiliation': 'Edit Lab', 'authors-0-orcid': '0000-0002-1825-0097',
    ...values,
  };
}

/** Everything an edit may change, read from the database: rows, authors, history. */
async function snapshot(server: TestServer, datasetId: number) {
  const db = server.hub.db;
  const meta = await db.selectFrom('data_set').innerJoin('ds_meta_data', 'ds_meta_data.id', 'data_set.ds_meta_data_id')
    .select(['ds_meta_data.id as meta_id', 'title', 'description', 'publication_type', 'publication_doi', 'tags', 'license', 'dataset_doi', 'deposition_id'])
    .where('data_set.id', '=', datasetId).executeTakeFirstOrThrow();
  const authors = await db.selectFrom('author').select(['name', 'affiliation', 'orcid']).where('ds_meta_data_id', '=', meta.meta_id).orderBy('position').execute();
  const edits = await db.selectFrom('dataset_edit').select(['user_id', 'fields', 'edited_at']).where('dataset_id', '=', datasetId).orderBy('id').execute();
  return { meta: { ...meta, deposition_id: meta.deposition_id === null ? null : Number(meta.deposition_id) }, authors, edits };
}

async function revision(server: TestServer, datasetId: number): Promise<number> {
  const row = await server.hub.db.selectFrom('data_set').select('revision').where('id', '=', datasetId).executeTakeFirstOrThrow();
  return Number(row.revision);
}

/** An upload of one valid model; answers the upload's JSON. */
async function upload(client: TestClient, name: string, extra: Record<string, string> = {}) {
  await stage(client, name, VALID_UVL);
  const res = await client.post('/dataset/upload', { form: uploadForm([name], extra) });
  assert.equal(res.status, 200, res.text);
  return res.json as { status: string; dataset_id: number; doi?: string; url?: string; message?: string };
}

for (const dialect of testDialects()) {
  describe(`dataset edit, history, licence, publish and delete [${dialect.name}]`, () => {
    let server: TestServer;
    const saved: number[] = [];
    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true });
      server.hub.ctx.events.on('dataset.saved', ({ datasetId }: { datasetId: number }) => { saved.push(datasetId); });
    });
    after(async () => { await server?.close(); });

    it('shows the edit form to the owner only, prefilled like the upload page; 404 for anyone else', async () => {
      const owner = await newUser(server, 'Owner');
      const up = await upload(owner.client, 'form.uvl', { title: 'Form <b>test</b>', tags: 'x, y', license: 'MIT', 'authors-0-name': 'Doe, John', 'authors-0-orcid': '0000-0002-1825-0097' });
      const id = up.dataset_id;
      const anonymous = new TestClient(server.baseUrl);
      const redirected = await anonymous.get(`/dataset/${id}/edit`);
      assert.equal(redirected.status, 302);
      assert.equal(redirected.location, `/login?next=${encodeURIComponent(`/dataset/${id}/edit`)}`);
      const stranger = await newUser(server, 'Stranger');
      assert.equal((await stranger.client.get(`/dataset/${id}/edit`)).status, 404);
      assert.equal((await owner.client.get('/dataset/999999/edit')).status, 404);
      assert.equal((await owner.client.get('/dataset/abc/edit')).status, 404);
      const page = await owner.client.get(`/dataset/${id}/edit`);
      assert.equal(page.status, 200);
      assert.match(page.text, /name="csrf_token" value="[^"]+"/);
      assert.match(page.text, /id="title" name="title" required maxlength="255" value="Form &lt;b&gt;test&lt;\/b&gt;"/, 'escaped');
      assert.match(page.text, /<textarea[^>]*name="desc"[^>]*>Some models<\/textarea>/);
      assert.match(page.text, /value="x, y"/);
      assert.match(page.text, /<option value="MIT" selected>/);
      assert.match(page.text, /name="authors-0-name" value="Doe, John"/);
      assert.match(page.text, /name="authors-0-orcid" value="0000-0002-1825-0097"/);
      assert.match(page.text, /name="authors-1-name" value=""/, 'one empty row to add an author without the script');
      for (const label of ['Title', 'Description', 'Publication type', 'Publication DOI', 'Tags', 'Licence']) assert.match(page.text, new RegExp(`<label for="[a-z_]+" class="form-label">${label}`));
      assert.doesNotMatch(page.text, /type="file"/, 'no files on the edit page');
      assert.doesNotMatch(page.text, /<script>(?!<\/script>)/, 'no inline script');
      assert.equal((await owner.client.get('/dataset/js/edit.js')).status, 200);
      const view = await owner.client.get(`/doi/${up.doi}/`);
      assert.match(view.text, new RegExp(`href="/dataset/${id}/edit"`), 'the owner sees Edit');
      assert.doesNotMatch((await stranger.client.get(`/doi/${up.doi}/`)).text, new RegExp(`/dataset/${id}/edit`), 'others do not');
    });

    it('refuses a post without the CSRF token (400) and from anyone but the owner (404); nothing changes', async () => {
      const owner = await newUser(server);
      const { dataset_id: id } = await upload(owner.client, 'csrf.uvl');
      const before = await snapshot(server, id);
      const noToken = await owner.client.post(`/dataset/${id}/edit`, { form: editForm(), csrf: false });
      assert.equal(noToken.status, 400);
      const stranger = await newUser(server);
      assert.equal((await stranger.client.post(`/dataset/${id}/edit`, { form: editForm() })).status, 404);
      const anonymous = await new TestClient(server.baseUrl).post(`/dataset/${id}/edit`, { form: editForm(), csrf: false });
      assert.equal(anonymous.status, 302);
      assert.equal(anonymous.location, '/login');
      assert.deepEqual(await snapshot(server, id), before);
    });

    it('validates like the upload: 400 with the form, each field marked, the posted values kept, nothing saved', async () => {
      const owner = await newUser(server);
      const { dataset_id: id } = await upload(owner.client, 'invalid.uvl');
      const before = await snapshot(server, id);
      const res = await owner.client.post(`/dataset/${id}/edit`, {
        form: editForm({ title: ' ', desc: '', publication_type: 'novel', publication_doi: 'nope', license: 'WTFPL', 'authors-0-orcid': '1234', 'authors-3-affiliation': 'Nameless' }),
      });
      assert.equal(res.status, 400);
      assert.match(res.headers.get('content-type') ?? '', /text\/html/);
      assert.match(res.text, /Nothing was saved/);
      for (const field of ['title', 'desc', 'publication_type', 'publication_doi', 'license', 'authors-0-orcid', 'authors-3-name']) {
        assert.match(res.text, new RegExp(`id="${field}-errors"`), field);
      }
      assert.match(res.text, /Title is required\./);
      assert.match(res.text, /Not a known licence: choose one of CC-BY-4\.0, CC0-1\.0/);
      assert.match(res.text, /name="authors-3-affiliation" value="Nameless"/, 'the posted row is shown again under its index');
      assert.doesNotMatch(res.text, /at .*\.ts:\d+/, 'no stack');
      assert.deepEqual(await snapshot(server, id), before);
    });

    it('refuses a NUL character in the edit form with field errors (400), not a database error', async () => {
      const owner = await newUser(server);
      const { dataset_id: id } = await upload(owner.client, 'nul.uvl');
      const before = await snapshot(server, id);
      const res = await owner.client.post(`/dataset/${id}/edit`, { form: editForm({ title: 'a\u0000b', desc: 'c\u0000d', 'authors-0-name': 'e\u0000' }) });
      assert.equal(res.status, 400);
      for (const field of ['title', 'desc', 'authors-0-name']) assert.match(res.text, new RegExp(`id="${field}-errors"`), field);
      assert.deepEqual(await snapshot(server, id), before);
    });

    it('edits an unsynchronized dataset: rows and authors replaced, history recorded, revision raised', async () => {
      const owner = await newUser(server, 'Drafter');
      const id = (await owner.client.post('/api/v1/datasets/', { json: { name: 'Draft', description: 'Before' } })).json.id;
      const rev = await revision(server, id);
      saved.length = 0;
      const res = await owner.client.post(`/dataset/${id}/edit`, {
        form: editForm({ 'authors-0-name': 'Second, Ann', 'authors-5-name': 'Third, Bo', 'authors-2-name': '', 'authors-2-affiliation': '' }),
      });
      assert.equal(res.status, 302);
      assert.equal(res.location, `/dataset/unsynchronized/${id}/`);
      const after = await snapshot(server, id);
      assert.deepEqual(
        [after.meta.title, after.meta.description, after.meta.publication_type, after.meta.publication_doi, after.meta.tags, after.meta.license, after.meta.dataset_doi],
        ['Edited title', 'Edited description', 'report', '10.1000/edited.1', 'alpha, beta', 'CC0-1.0', null],
      );
      assert.deepEqual(after.authors, [
        { name: 'Second, Ann', affiliation: 'Edit Lab', orcid: '0000-0002-1825-0097' },
        { name: 'Third, Bo', affiliation: null, orcid: null },
      ]);
      assert.equal(after.edits.length, 1);
      assert.equal(after.edits[0]!.user_id, owner.userId);
      assert.deepEqual(after.edits[0]!.fields.split(','), ['title', 'description', 'publication_type', 'publication_doi', 'tags', 'authors', 'license']);
      assert.ok(await revision(server, id) > rev, 'the search revision moved');
      assert.deepEqual(saved, [id]);
      const page = await owner.client.get(`/dataset/unsynchronized/${id}/`);
      assert.match(page.text, /Saved\. Changed: Title, Description, Publication type, Publication DOI, Tags, Authors, Licence\./);
      assert.match(page.text, /id="history"/);
      assert.match(page.text, /<span class="history-who">Drafter Tester<\/span>/);
      assert.match(page.text, /<span class="history-fields">Title, Description, Publication type, Publication DOI, Tags, Authors, Licence<\/span>/);
      assert.match(page.text, /id="dataset-license"><a href="https:\/\/creativecommons\.org\/publicdomain\/zero\/1\.0\/legalcode"/);
    });

    it('while a publish of the dataset runs, the edit form comes back as posted with the reason (409); nothing saved', async () => {
      const owner = await newUser(server, 'Waiter');
      const id = (await owner.client.post('/api/v1/datasets/', { json: { name: 'Being published', description: 'Before' } })).json.id;
      const metaId = (await server.hub.db.selectFrom('data_set').select('ds_meta_data_id').where('id', '=', id).executeTakeFirstOrThrow()).ds_meta_data_id;
      await server.hub.db.updateTable('ds_meta_data').set({ deposit_claimed_at: new Date().toISOString() }).where('id', '=', metaId).execute();
      const res = await owner.client.post(`/dataset/${id}/edit`, { form: editForm() });
      assert.equal(res.status, 409);
      assert.match(res.text, /id="edit-failure" role="alert">A publish of this dataset is under way/);
      assert.match(res.text, /value="Edited title"/, 'the posted values are kept');
      assert.equal((await snapshot(server, id)).meta.title, 'Being published');
      await server.hub.db.updateTable('ds_meta_data').set({ deposit_claimed_at: null }).where('id', '=', metaId).execute();
      assert.equal((await owner.client.post(`/dataset/${id}/edit`, { form: editForm() })).status, 302);
    });

    it('records only the fields that changed; an unchanged form records nothing; no author falls back to the profile', async () => {
      const owner = await newUser(server, 'Careful');
      const { dataset_id: id } = await upload(owner.client, 'same.uvl', { tags: 'a' });
      const page = await owner.client.get(`/dataset/${id}/edit`);
      // The form as the page shows it, posted back untouched.
      const shown: Record<string, string> = {};
      for (const m of page.text.matchAll(/<input type="text"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) shown[m[1]!] = m[2]!.replace(/&amp;/g, '&');
      shown.desc = /<textarea[^>]*name="desc"[^>]*>([^<]*)<\/textarea>/.exec(page.text)![1]!;
      shown.publication_type = /<option value="([a-z]+)" selected>/.exec(page.text)![1]!;
      shown.license = /<option value="([A-Za-z0-9.-]+)" selected>/.exec(page.text.slice(page.text.indexOf('name="license"')))![1]!;
      const same = await owner.client.post(`/dataset/${id}/edit`, { form: shown });
      assert.equal(same.status, 302);
      assert.equal(shown.title, 'My dataset', 'the form was read back');
      assert.match((await owner.client.get(same.location!)).text, /Nothing was changed\./);
      assert.equal((await snapshot(server, id)).edits.length, 0);
      const tagsOnly = await owner.client.post(`/dataset/${id}/edit`, { form: { ...shown, tags: 'a, b' } });
      assert.equal(tagsOnly.status, 302);
      const noAuthors: Record<string, string> = { ...shown, tags: 'a, b' };
      for (const key of Object.keys(noAuthors)) if (key.startsWith('authors-')) noAuthors[key] = '';
      noAuthors['authors-0-name'] = 'Other, Person';
      await owner.client.post(`/dataset/${id}/edit`, { form: noAuthors });
      noAuthors['authors-0-name'] = '';
      await owner.client.post(`/dataset/${id}/edit`, { form: noAuthors });
      const after = await snapshot(server, id);
      assert.deepEqual(after.edits.map((e) => e.fields), ['tags', 'authors', 'authors']);
      assert.deepEqual(after.authors, [{ name: 'Tester, Careful', affiliation: null, orcid: null }], 'the editor\'s profile, as at upload');
    });

    it('edits a synchronized dataset through the built-in fake deposit: the DOI stays, the DOI page lists the history', async () => {
      const owner = await newUser(server, 'Publisher');
      const up = await upload(owner.client, 'sync.uvl', { title: 'Synchronized' });
      assert.equal(up.status, 'ok');
      const id = up.dataset_id;
      const res = await owner.client.post(`/dataset/${id}/edit`, { form: editForm({ title: 'Synchronized, renamed' }) });
      assert.equal(res.status, 302);
      assert.equal(res.location, `/doi/${up.doi}/`);
      const after = await snapshot(server, id);
      assert.equal(after.meta.dataset_doi, up.doi);
      assert.equal(after.meta.title, 'Synchronized, renamed');
      assert.equal(after.edits.length, 1);
      const page = await new TestClient(server.baseUrl).get(`/doi/${up.doi}/`);
      assert.equal(page.status, 200);
      assert.match(page.text, /Synchronized, renamed/);
      assert.match(page.text, /<span class="history-who">Publisher Tester<\/span>/);
      assert.match(page.text, /id="dataset-license"><a href="https:\/\/creativecommons\.org\/publicdomain\/zero\/1\.0\/legalcode" rel="noopener license">CC0-1\.0<\/a>/);
      // The fake deposit refuses what Zenodo would: through the API an empty description reaches it.
      const refused = await owner.client.request('PUT', `/api/v1/datasets/${id}`, { json: { description: '' } });
      assert.equal(refused.status, 502);
      assert.match(refused.json.message, /not changed.*description/);
      assert.equal((await snapshot(server, id)).meta.description, 'Edited description');
    });

    it('edits a seeded dataset (a DOI without deposit record) in the hub only', async () => {
      const client = await loggedIn(server, 'user1@example.com');
      const id = Number((await server.hub.db.selectFrom('data_set').innerJoin('ds_meta_data', 'ds_meta_data.id', 'data_set.ds_meta_data_id')
        .select('data_set.id').where('dataset_doi', '=', '10.1234/dataset3').executeTakeFirstOrThrow()).id);
      const page = await client.get(`/dataset/${id}/edit`);
      assert.match(page.text, /no deposit record to update/);
      const res = await client.post(`/dataset/${id}/edit`, { form: editForm({ title: 'Sample dataset 3, edited' }) });
      assert.equal(res.status, 302);
      assert.equal(res.location, '/doi/10.1234/dataset3/');
      assert.equal((await snapshot(server, id)).meta.title, 'Sample dataset 3, edited');
      const other = await loggedIn(server, 'user2@example.com');
      assert.equal((await other.get(`/dataset/${id}/edit`)).status, 404, 'a synchronized dataset of someone else is 404 too');
    });

    it('licence at upload: the default CC-BY-4.0, a chosen one, an unknown one refused in the upload\'s error shape', async () => {
      const owner = await newUser(server);
      const form = await owner.client.get('/dataset/upload');
      assert.match(form.text, /<select class="form-select" id="license" name="license"/);
      assert.match(form.text, /<option value="CC-BY-4.0" selected>/);
      for (const id of ['CC0-1.0', 'CC-BY-SA-4.0', 'MIT', 'Apache-2.0', 'GPL-3.0-only']) assert.match(form.text, new RegExp(`<option value="${id}">`));
      const plain = await upload(owner.client, 'default.uvl');
      assert.equal((await snapshot(server, plain.dataset_id)).meta.license, 'CC-BY-4.0');
      const chosen = await upload(owner.client, 'chosen.uvl', { license: 'Apache-2.0' });
      assert.equal((await snapshot(server, chosen.dataset_id)).meta.license, 'Apache-2.0');
      await stage(owner.client, 'unknown.uvl', VALID_UVL);
      const refused = await owner.client.post('/dataset/upload', { form: uploadForm(['unknown.uvl'], { license: 'WTFPL' }) });
      assert.equal(refused.status, 400);
      assert.deepEqual(Object.keys(refused.json.errors), ['license']);
      assert.match(refused.json.errors.license[0], /Not a known licence/);
      const rest = await owner.client.get(`/api/v1/datasets/${chosen.dataset_id}`);
      assert.equal(rest.json.license, 'Apache-2.0');
      const page = await owner.client.get(`/doi/${chosen.doi}/`);
      assert.match(page.text, />Apache-2\.0<\/a> <span class="text-muted small">\(Apache License 2\.0\)<\/span>/);
    });

    it('licence in the API: POST and PUT take it, an unknown one is 400; the PUT goes through the edit (history)', async () => {
      const owner = await newUser(server, 'Scripter');
      const created = await owner.client.post('/api/v1/datasets/', { json: { name: 'By API', description: 'x', license: 'MIT' } });
      assert.equal(created.status, 201);
      const id = created.json.id;
      assert.equal((await owner.client.get(`/api/v1/datasets/${id}`)).json.license, 'MIT');
      const unknown = await owner.client.post('/api/v1/datasets/', { json: { name: 'Bad', license: 'Beerware' } });
      assert.equal(unknown.status, 400);
      assert.equal(typeof unknown.json.message, 'string');
      const defaulted = await owner.client.post('/api/v1/datasets/', { json: { name: 'Default' } });
      assert.equal((await owner.client.get(`/api/v1/datasets/${defaulted.json.id}`)).json.license, 'CC-BY-4.0');
      const put = await owner.client.request('PUT', `/api/v1/datasets/${id}`, { json: { license: 'GPL-3.0-only', name: 'Renamed by API' } });
      assert.equal(put.status, 200);
      assert.equal(put.json.license, 'GPL-3.0-only');
      assert.equal(put.json.name, 'Renamed by API');
      assert.equal((await owner.client.request('PUT', `/api/v1/datasets/${id}`, { json: { license: 'nope' } })).status, 400);
      const after = await snapshot(server, id);
      assert.equal(after.meta.license, 'GPL-3.0-only');
      assert.deepEqual(after.edits.map((e) => e.fields), ['title,license']);
      assert.equal(after.edits[0]!.user_id, owner.userId);
    });

    it('publishes an unsynchronized dataset again from its page (the upload\'s JSON answer); 404 for others, CSRF required', async () => {
      const owner = await newUser(server);
      const id = (await owner.client.post('/api/v1/datasets/', { json: { name: 'To publish', description: 'Ready' } })).json.id;
      const form = new FormData();
      form.append('file', new Blob([VALID_UVL]), 'published.uvl');
      assert.equal((await owner.client.post(`/api/v1/datasets/${id}/files`, { body: form })).status, 201);
      const page = await owner.client.get(`/dataset/unsynchronized/${id}/`);
      assert.match(page.text, new RegExp(`<form method="post" action="/dataset/${id}/publish" class="js-publish-form">`));
      assert.match(page.text, new RegExp(`<form method="post" action="/dataset/${id}/delete"`));
      assert.match(page.text, /<script src="\/dataset\/js\/manage\.js" defer><\/script>/);
      const list = await owner.client.get('/dataset/list');
      assert.match(list.text, new RegExp(`action="/dataset/${id}/publish"`), 'the list offers it too');
      const stranger = await newUser(server);
      assert.equal((await stranger.client.post(`/dataset/${id}/publish`, { form: {} })).status, 404);
      const noToken = await owner.client.post(`/dataset/${id}/publish`, { form: {}, csrf: false });
      assert.equal(noToken.status, 400);
      assert.equal((await snapshot(server, id)).meta.dataset_doi, null);
      const res = await owner.client.post(`/dataset/${id}/publish`, { form: {} });
      assert.equal(res.status, 200);
      assert.deepEqual(res.json, { status: 'ok', dataset_id: id, doi: `10.1234/fakenodo.${id}`, url: `http://localhost:5000/doi/10.1234/fakenodo.${id}` });
      assert.equal((await snapshot(server, id)).meta.dataset_doi, `10.1234/fakenodo.${id}`);
      const again = await owner.client.post(`/dataset/${id}/publish`, { form: {} });
      assert.equal(again.status, 409);
      assert.equal(typeof again.json.message, 'string');
      assert.doesNotMatch((await owner.client.get(`/doi/10.1234/fakenodo.${id}/`)).text, /js-publish-form/, 'no publish button once synchronized');
    });

    it('deletes an unsynchronized dataset with its files (302 to /dataset/list); 404 for others, CSRF required, 409 when synchronized', async (t) => {
      const owner = await newUser(server);
      // createFromFiles reads a local file (as the seeders do), wherever the store keeps its copy.
      const source = mkdtempSync(join(tmpdir(), 'dataset-edit-test-'));
      t.after(() => rmSync(source, { recursive: true, force: true }));
      writeFileSync(join(source, 'doomed.uvl'), VALID_UVL);
      const id = await server.hub.ctx.services.dataset.createFromFiles(owner.userId, {
        title: 'Doomed', description: 'x', publicationType: 'none', publicationDoi: null, tags: null, authors: [],
      }, [{ path: join(source, 'doomed.uvl'), meta: { name: 'doomed.uvl', title: 'Doomed', description: '', publicationType: 'none', publicationDoi: null, tags: null, version: null, authors: [] } }]);
      await owner.client.post(`/dataset/${id}/edit`, { form: editForm() });
      const prefix = server.hub.ctx.services.hubfile.datasetPrefix(owner.userId, id);
      assert.ok(await isStored(server, `${prefix}doomed.uvl`));
      const stranger = await newUser(server);
      assert.equal((await stranger.client.post(`/dataset/${id}/delete`, { form: {} })).status, 404);
      assert.equal((await owner.client.post(`/dataset/${id}/delete`, { form: {}, csrf: false })).status, 400);
      assert.ok(await isStored(server, `${prefix}doomed.uvl`));
      const res = await owner.client.post(`/dataset/${id}/delete`, { form: {} });
      assert.equal(res.status, 302);
      assert.equal(res.location, '/dataset/list');
      assert.equal(await server.hub.db.selectFrom('data_set').select('id').where('id', '=', id).executeTakeFirst(), undefined);
      assert.equal((await server.hub.db.selectFrom('dataset_edit').select('id').where('dataset_id', '=', id).execute()).length, 0, 'its history went with it');
      assert.deepEqual(await storedEntries(server, prefix), []);
      assert.match((await owner.client.get('/dataset/list')).text, /The dataset &quot;Edited title&quot; was deleted, with its files\./);
      assert.equal((await owner.client.post(`/dataset/${id}/delete`, { form: {} })).status, 404);
      const up = await upload(owner.client, 'kept.uvl');
      assert.equal((await owner.client.post(`/dataset/${up.dataset_id}/delete`, { form: {} })).status, 409);
      assert.ok(await server.hub.db.selectFrom('data_set').select('id').where('id', '=', up.dataset_id).executeTakeFirst());
    });
  });

  describe(`dataset edit with a Zenodo-speaking deposit server [${dialect.name}]`, () => {
    const hubs = useHubWithFakeZenodo({ databaseBaseUrl: dialect.baseUrl, seed: true });
    let server: TestServer;
    let zenodo: FakeZenodo;
    before(() => ({ server, zenodo } = hubs));

    it('sends the licence with the deposit, and an edit updates the record: same DOI, new metadata, history', async () => {
      zenodo.reset();
      const owner = await newUser(server, 'Zen');
      const up = await upload(owner.client, 'zen.uvl', { title: 'On Zenodo', license: 'CC-BY-SA-4.0' });
      assert.equal(up.status, 'ok');
      const deposition = [...zenodo.depositions.values()].at(-1)!;
      assert.equal(deposition.metadata!.license, 'cc-by-sa-4.0');
      zenodo.reset();
      const res = await owner.client.post(`/dataset/${up.dataset_id}/edit`, { form: editForm({ title: 'On Zenodo, edited', license: 'MIT' }) });
      assert.equal(res.status, 302);
      assert.deepEqual(zenodo.requests.map((r) => `${r.method} ${r.path.replace(/\d+/g, 'N')}`), [
        'POST /api/deposit/depositions/N/actions/edit', 'PUT /api/deposit/depositions/N', 'POST /api/deposit/depositions/N/actions/publish',
      ]);
      assert.equal(deposition.metadata!.title, 'On Zenodo, edited');
      assert.equal(deposition.metadata!.license, 'mit');
      assert.deepEqual(deposition.metadata!.creators, [{ name: 'Roe, Jane', affiliation: 'Edit Lab', orcid: '0000-0002-1825-0097' }]);
      assert.equal(deposition.doi, up.doi);
      const after = await snapshot(server, up.dataset_id);
      assert.equal(after.meta.dataset_doi, up.doi);
      assert.equal(after.meta.title, 'On Zenodo, edited');
      assert.equal(after.edits.length, 1);
      assert.match((await owner.client.get(`/doi/${up.doi}/`)).text, /The deposit was updated; the DOI stays the same\./);
    });

    for (const [step, status, discardToo] of [['edit', 500, false], ['metadata', 400, false], ['publish', 502, false], ['publish', 500, true]] as const) {
      it(`keeps the hub's metadata exactly when Zenodo fails the ${step} step (${status})${discardToo ? ' and the discard' : ''}, and says why`, async () => {
        zenodo.reset();
        const owner = await newUser(server);
        const up = await upload(owner.client, `fault-${step}.uvl`, { title: `Fault ${step}`, tags: 'one' });
        const deposition = [...zenodo.depositions.values()].at(-1)!;
        const published = structuredClone(deposition.metadata);
        const before = await snapshot(server, up.dataset_id);
        const rev = await revision(server, up.dataset_id);
        zenodo.failOn(step, status);
        if (discardToo) zenodo.failOn('discard', 503);
        const res = await owner.client.post(`/dataset/${up.dataset_id}/edit`, { form: editForm({ title: 'Must not stick' }) });
        assert.equal(res.status, 502);
        assert.match(res.text, /id="edit-failure" role="alert">The metadata were not changed: the deposit repository did not accept the change/);
        assert.match(res.text, new RegExp(`Zenodo refused the ${step} step with status ${status}`));
        assert.doesNotMatch(res.text, /at .*\.ts:\d+|DepositError/, 'no stack');
        assert.match(res.text, /value="Must not stick"/, 'the form keeps what was typed');
        assert.deepEqual(await snapshot(server, up.dataset_id), before, 'the hub\'s metadata, authors and history are the old ones');
        assert.equal(await revision(server, up.dataset_id), rev);
        if (!discardToo) assert.deepEqual(deposition.metadata, published, 'the record shows the old metadata');
        else assert.deepEqual(deposition.publishedMetadata, published, 'what is published is the old metadata');
        const api = await owner.client.request('PUT', `/api/v1/datasets/${up.dataset_id}`, { json: { name: 'Nor this' } });
        assert.equal(api.status, 502);
        assert.match(api.json.message, /not changed/);
        assert.deepEqual(await snapshot(server, up.dataset_id), before);
      });
    }

    it('publishes again from the page: partial while Zenodo fails, ok once it works', async () => {
      zenodo.reset();
      zenodo.failOn('create', 503);
      const owner = await newUser(server);
      const up = await upload(owner.client, 'retry.uvl', { title: 'Retry' });
      assert.equal(up.status, 'partial');
      const id = up.dataset_id;
      const partial = await owner.client.post(`/dataset/${id}/publish`, { form: {} });
      assert.equal(partial.status, 200);
      assert.deepEqual(Object.keys(partial.json).sort(), ['dataset_id', 'message', 'status']);
      assert.equal(partial.json.status, 'partial');
      assert.match(partial.json.message, /could not be published/);
      assert.equal((await snapshot(server, id)).meta.dataset_doi, null);
      zenodo.reset();
      const ok = await owner.client.post(`/dataset/${id}/publish`, { form: {} });
      assert.equal(ok.status, 200);
      assert.equal(ok.json.status, 'ok');
      const deposition = [...zenodo.depositions.values()].at(-1)!;
      assert.equal(ok.json.doi, deposition.doi);
      assert.equal(deposition.metadata!.license, 'cc-by-4.0');
      assert.equal((await snapshot(server, id)).meta.dataset_doi, ok.json.doi);
    });
  });
}
