// Collections over HTTP on every dialect (extensions section 13): create, add a file or a whole
// dataset, remove, two users (nobody changes or sees another's unpublished collection), the
// facts as CSV and JSON, the citations, the cart's zip, and the API object whose SHA-256 equal
// the files' bytes.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { newUser } from '../../../test/support/accounts.ts';
import { download, unzip } from '../../../test/support/zip.ts';

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

async function datasetIdOf(server: TestServer, doi: string): Promise<number> {
  const row = await server.hub.db.selectFrom('data_set').innerJoin('ds_meta_data', 'ds_meta_data.id', 'data_set.ds_meta_data_id')
    .select('data_set.id').where('ds_meta_data.dataset_doi', '=', doi).executeTakeFirstOrThrow();
  return Number(row.id);
}

async function fileIdsOf(server: TestServer, datasetId: number): Promise<number[]> {
  const rows = await server.hub.db.selectFrom('file').innerJoin('feature_model', 'feature_model.id', 'file.feature_model_id')
    .select('file.id').where('feature_model.data_set_id', '=', datasetId).orderBy('file.id').execute();
  return rows.map((r) => Number(r.id));
}

/** A new collection of the client's, by the form; its id. */
async function createCollection(client: TestClient, title: string): Promise<number> {
  await client.get('/collections');
  const res = await client.post('/collections', { form: { title, description: 'Models for a study', tags: 'study, sat' } });
  assert.equal(res.status, 303);
  const id = Number(/^\/collection\/(\d+)\/$/.exec(res.location ?? '')?.[1]);
  assert.ok(id > 0, `redirected to the collection: ${res.location}`);
  return id;
}

for (const dialect of testDialects()) {
  describe(`collections [${dialect.name}]`, () => {
    let server: TestServer;
    let dataset1: number;
    let dataset2: number;
    let files1: number[];
    let files2: number[];

    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { ANALYSIS_WORKERS: '0' } });
      dataset1 = await datasetIdOf(server, '10.1234/dataset1');
      dataset2 = await datasetIdOf(server, '10.1234/dataset2');
      files1 = await fileIdsOf(server, dataset1);
      files2 = await fileIdsOf(server, dataset2);
      assert.ok(files1.length > 0 && files2.length > 0, 'the seed has files');
    });
    after(async () => server?.close());

    it('sends a visitor to the login and refuses a missing title or CSRF token without a row', async () => {
      const visitor = new TestClient(server.baseUrl);
      const page = await visitor.get('/collections');
      assert.equal(page.status, 302);
      assert.match(page.location ?? '', /^\/login/);
      const { client } = await newUser(server, 'Empty');
      await client.get('/collections');
      const before = await server.hub.db.selectFrom('collection').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      // A title of spaces passes the browser's `required`: the form comes back as typed, the reason under
      // the title, not an error page that loses the description.
      const spaces = await client.post('/collections', { form: { title: '  ', description: 'Typed at length', tags: 'study' } });
      assert.equal(spaces.status, 400);
      assert.match(spaces.text, /id="collection-title"[^>]*is-invalid|class="[^"]*is-invalid[^"]*" id="collection-title"/);
      assert.match(spaces.text, /id="collection-title-errors">\s*<div>The title is required\.<\/div>/);
      assert.match(spaces.text, /<textarea[^>]*id="collection-description"[^>]*>Typed at length<\/textarea>/);
      assert.match(spaces.text, /id="collection-tags"[^>]*value="study"/);
      const asJson = await client.post('/collections', { form: { title: '  ' }, headers: { accept: 'application/json' } });
      assert.equal(asJson.status, 400);
      assert.deepEqual(asJson.json, { message: 'The title is required.', errors: { title: ['The title is required.'] } });
      assert.equal((await client.post('/collections', { form: { title: 'x'.repeat(201) } })).status, 400);
      assert.equal((await client.post('/collections', { form: { title: 'No token' }, csrf: false })).status, 400);
      const afterCount = await server.hub.db.selectFrom('collection').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      assert.equal(Number(afterCount.n), Number(before.n));
      assert.match((await client.get('/collections')).text, /id="collections-empty"/);
    });

    it('answers a client asking for JSON {"message", "field"} for a bad member or picker id, not {"field"} alone', async () => {
      const { client } = await newUser(server, 'Asker');
      const id = await createCollection(client, 'Bad ids');
      const json = { accept: 'application/json' };
      const add = await client.post(`/collection/${id}/add`, { form: { file_id: 'abc' }, headers: json });
      assert.equal(add.status, 400);
      assert.deepEqual(add.json, { message: 'Give file_id (a file id) or dataset_id (a dataset id).', field: 'file_id' });
      const picker = await client.get('/collection/add?file_id=abc', json);
      assert.equal(picker.status, 400, picker.text);
      assert.deepEqual(picker.json, { message: 'file_id must be an id.', field: 'file_id' });
    });

    it('gives each dataset of its citations.bib its own key, also when two would share one (Doe2026Sample)', async () => {
      const { client } = await newUser(server, 'Citer');
      const id = await createCollection(client, 'Two Does');
      for (const doi of ['10.1234/dataset1', '10.1234/dataset4']) {
        assert.equal((await client.post(`/collection/${id}/add`, { form: { dataset_id: String(await datasetIdOf(server, doi)) } })).status, 303);
      }
      const bib = (await client.get(`/collection/${id}/citations.bib`)).text;
      const keys = [...bib.matchAll(/^@\w+\{([^,]+),/gm)].map((m) => m[1]!);
      assert.equal(keys.length, 2, bib);
      assert.equal(new Set(keys).size, 2, `two entries, two keys: ${keys.join(', ')}`);
    });

    it('adds a file and a whole dataset, lists them with facts, CSV, JSON and citations, and removes them', async () => {
      const { client } = await newUser(server, 'Collector');
      const id = await createCollection(client, 'Study models');
      assert.match((await client.get('/collections')).text, new RegExp(`data-collection-id="${id}"`));
      assert.equal((await client.post(`/collection/${id}/add`, { form: { file_id: String(files1[0]) } })).status, 303);
      assert.equal((await client.post(`/collection/${id}/add`, { form: { file_id: String(files1[0]) } })).status, 303, 'a second add changes nothing');
      assert.equal((await client.post(`/collection/${id}/add`, { form: { dataset_id: String(dataset2) } })).status, 303);
      const page = await client.get(`/collection/${id}/`);
      assert.equal(page.status, 200);
      // Without the final slash, a redirect to the page (as /doi/<doi> and /model/<id>), the query kept.
      for (const [bare, target] of [[`/collection/${id}`, `/collection/${id}/`], [`/collection/${id}?x=1`, `/collection/${id}/?x=1`]]) {
        const res = await client.get(bare!);
        assert.deepEqual([res.status, res.location], [301, target]);
      }
      const shown = [...page.text.matchAll(/class="collection-member" data-file-id="(\d+)"/g)].map((m) => Number(m[1]));
      assert.deepEqual(shown, [files1[0], ...files2]);
      assert.match(page.text, /10\.1234\/dataset1/);

      const csv = await client.get(`/collection/${id}/facts.csv`);
      assert.equal(csv.status, 200);
      const lines = csv.text.trim().split('\r\n');
      assert.equal(lines[0], 'file_id,file_name,dataset_id,dataset_title,dataset_doi,features,constraints,configurations,core,dead,false_optional');
      assert.equal(lines.length, 1 + shown.length);
      const json = JSON.parse((await client.get(`/collection/${id}/facts.json`)).text);
      assert.deepEqual(json.members.map((m: { file_id: number }) => m.file_id), shown);
      assert.ok('features' in json.members[0] && 'configurations' in json.members[0] && 'dead' in json.members[0]);
      const bib = (await client.get(`/collection/${id}/citations.bib`)).text;
      assert.equal((bib.match(/^@\w+\{/gm) ?? []).length, 2, 'one citation per member dataset');

      assert.equal((await client.post(`/collection/${id}/remove`, { form: { dataset_id: String(dataset2) } })).status, 303);
      const after = await client.get(`/collection/${id}/`);
      assert.deepEqual([...after.text.matchAll(/class="collection-member" data-file-id="(\d+)"/g)].map((m) => Number(m[1])), [files1[0]]);
    });

    it('refuses bad and unknown members with 400 and 404, changing nothing', async () => {
      const { client } = await newUser(server, 'Careful');
      const id = await createCollection(client, 'Careful');
      assert.equal((await client.post(`/collection/${id}/add`, { form: {} })).status, 400);
      assert.equal((await client.post(`/collection/${id}/add`, { form: { file_id: 'abc' } })).status, 400);
      assert.equal((await client.post(`/collection/${id}/add`, { form: { file_id: '999999' } })).status, 404);
      assert.equal((await client.post(`/collection/${id}/add`, { form: { dataset_id: '999999' } })).status, 404);
      assert.equal((await client.post(`/collection/${id}/add`, { form: { file_id: String(files1[0]) }, csrf: false })).status, 400);
      assert.equal((await client.get('/collection/abc/')).status, 404);
      assert.equal((await client.get('/collection/999999/')).status, 404);
      assert.match((await client.get(`/collection/${id}/`)).text, /id="collection-empty"/);
    });

    it("lets nobody add to, remove from or see another user's collection", async () => {
      const owner = await newUser(server, 'Owner');
      const other = await newUser(server, 'Other');
      const id = await createCollection(owner.client, 'Mine');
      assert.equal((await owner.client.post(`/collection/${id}/add`, { form: { file_id: String(files1[0]) } })).status, 303);
      await other.client.get('/collections');
      assert.equal((await other.client.post(`/collection/${id}/add`, { form: { file_id: String(files2[0]) } })).status, 404);
      assert.equal((await other.client.post(`/collection/${id}/remove`, { form: { file_id: String(files1[0]) } })).status, 404);
      assert.equal((await other.client.post(`/collection/${id}/add-cart`, { form: {} })).status, 404);
      assert.equal((await other.client.get(`/collection/${id}/`)).status, 404);
      assert.equal((await other.client.get(`/api/v1/collections/${id}`)).status, 404);
      assert.equal((await other.client.get(`/collection/${id}/download?format=uvl`)).status, 404);
      assert.equal((await new TestClient(server.baseUrl).get(`/collection/${id}/facts.csv`)).status, 404);
      assert.doesNotMatch((await other.client.get('/collections')).text, new RegExp(`data-collection-id="${id}"`));
      const members = await server.hub.db.selectFrom('collection_member').select('file_id').where('collection_id', '=', id).execute();
      assert.deepEqual(members.map((m) => Number(m.file_id)), [files1[0]]);
    });

    it('adds the cart, zips the members with the cart code, and answers the API object with the files\' SHA-256', async () => {
      const { client } = await newUser(server, 'Zipper');
      await client.get('/cart');
      for (const fileId of [files1[0]!, files2[0]!]) assert.equal((await client.post('/cart/add', { form: { file_id: String(fileId) } })).status, 303);
      const id = await createCollection(client, 'From the cart');
      assert.equal((await client.post(`/collection/${id}/add-cart`, { form: {} })).status, 303);

      const api = await client.get(`/api/v1/collections/${id}`);
      assert.equal(api.status, 200);
      assert.equal(api.json.title, 'From the cart');
      assert.equal(api.json.doi, null);
      assert.equal(api.json.query, null);
      assert.deepEqual(api.json.members.map((m: { file_id: number }) => m.file_id), [files1[0], files2[0]]);
      for (const member of api.json.members) {
        const bytes = await download(client, `/file/download/${member.file_id}`);
        assert.equal(member.sha256, sha256(bytes.bytes));
        assert.match(member.dataset_doi, /^10\.1234\/dataset[12]$/);
      }

      assert.equal((await client.get(`/collection/${id}/download`)).status, 400);
      const unticked = await client.get(`/collection/${id}/download`);
      assert.equal(unticked.status, 400);
      assert.match(unticked.text, /id="collection-format-error" role="alert">Tick at least one format\.<\/div>/);
      assert.match(unticked.text, /id="collection-download-form"/);
      const zip = await download(client, `/collection/${id}/download?format=uvl&format=dimacs`);
      assert.equal(zip.status, 200);
      assert.equal(zip.headers.get('content-disposition'), `attachment; filename="collection-${id}.zip"`);
      const entries = await unzip(zip.bytes);
      const manifest = entries.get(`collection_${id}/manifest.csv`)!.trim().split('\r\n');
      assert.equal(manifest.length, 1 + 4);
      for (const row of manifest.slice(1)) {
        const [, , , hash, path] = row.split(',');
        assert.equal(hash, sha256(entries.get(path!)!));
      }
      assert.ok(entries.has(`collection_${id}/CITATION.bib`));
    });
  
    it('offers Add to a collection on model, DOI and cart pages, and the picker adds or makes a collection with it', async () => {
      const { client } = await newUser(server, 'Picker');
      const visitor = new TestClient(server.baseUrl);
      assert.doesNotMatch((await visitor.get(`/model/${files1[0]}/`)).text, /id="add-to-collection"/, 'not for a visitor');
      assert.match((await client.get(`/model/${files1[0]}/`)).text, new RegExp(`id="add-to-collection" href="/collection/add\\?file_id=${files1[0]}&amp;return_to=`));
      assert.match((await client.get('/doi/10.1234/dataset2/')).text, new RegExp(`id="dataset-to-collection" href="/collection/add\\?dataset_id=${dataset2}&amp;`));
      await client.post('/cart/add', { form: { file_id: String(files1[0]) } });
      assert.match((await client.get('/cart')).text, /id="cart-to-collection" href="\/collection\/add\?cart=1"/);

      assert.equal((await client.get('/collection/add')).status, 400);
      assert.equal((await client.get('/collection/add?file_id=abc')).status, 400);
      assert.equal((await client.get('/collection/add?file_id=999999')).status, 404);
      const rows = async () => Number((await server.hub.db.selectFrom('collection').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      const before = await rows();
      assert.equal((await client.post('/collections', { form: { title: 'Ghost', file_id: '999999' } })).status, 404);
      assert.equal(await rows(), before, 'no collection without its first member');

      const picker = await client.get(`/collection/add?file_id=${files1[0]}`);
      assert.equal(picker.status, 200);
      assert.match(picker.text, /id="picker-none"/);
      // Its form refused (a title of spaces): the picker again, the member kept, the description as typed.
      const refused = await client.post('/collections', { form: { title: '   ', description: 'For the survey', file_id: String(files1[0]) } });
      assert.equal(refused.status, 400);
      assert.match(refused.text, /id="picker-title-errors">\s*<div>The title is required\.<\/div>/);
      assert.match(refused.text, new RegExp(`id="picker-create"[\\s\\S]*name="file_id" value="${files1[0]}"`));
      assert.match(refused.text, /<textarea[^>]*id="picker-description"[^>]*>For the survey<\/textarea>/);
      assert.equal(await rows(), before, 'nothing made');
      const made = await client.post('/collections', { form: { title: 'Picked', file_id: String(files1[0]) } });
      const id = Number(/\/collection\/(\d+)\//.exec(made.location ?? '')?.[1]);
      assert.deepEqual((await client.get(`/api/v1/collections/${id}`)).json.members.map((m: { file_id: number }) => m.file_id), [files1[0]]);
      const again = await client.get(`/collection/add?dataset_id=${dataset2}`);
      assert.match(again.text, new RegExp(`action="/collection/${id}/add"`));
      assert.equal((await client.post(`/collection/${id}/add`, { form: { dataset_id: String(dataset2), return_to: `/doi/10.1234/dataset2/` } })).location, '/doi/10.1234/dataset2/');
      assert.equal((await client.get(`/api/v1/collections/${id}`)).json.members.length, 1 + files2.length);
      assert.match((await client.get('/collection/add?cart=1')).text, new RegExp(`action="/collection/${id}/add-cart"`));
    });

    it("saves explore's form (query and filter panel fields) as a collection", async () => {
      const { client } = await newUser(server, 'FormSaver');
      await client.get('/explore');
      const saved = await client.post('/explore/save', { form: { query: '', publication_type: 'any', sorting: 'newest', features_min: '1', title: 'Everything with features' } });
      assert.equal(saved.status, 303, saved.text);
      const id = Number(/\/collection\/(\d+)\//.exec(saved.location ?? '')?.[1]);
      const api = (await client.get(`/api/v1/collections/${id}`)).json;
      assert.deepEqual(api.query.models, { features: { min: 1 } });
      assert.equal(api.query.query, undefined);
    });
  });
}
