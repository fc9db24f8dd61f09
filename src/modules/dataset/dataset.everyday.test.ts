// Issue 10, the friction a new user meets on the dataset pages, on every dialect: no "None"
// printed for an absent publication type or tags, tags differing only in case kept once, a
// long description that scrolls in its box, an empty model flagged, the favicon.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { VALID_UVL, newUser, stage, uploadForm } from './dataset.test-support.ts';
import { EMPTY_MODEL_WARNING } from '../../../packages/uvl/src/index.ts';

const NO_FEATURES = `Line 1:0 - ${EMPTY_MODEL_WARNING}`;

for (const dialect of testDialects()) {
  describe(`dataset pages in everyday use [${dialect.name}]`, () => {
    let server: TestServer;
    before(async () => { server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true }); });
    after(async () => { await server?.close(); });

    it('prints no "None" publication type on the landing, DOI and list pages; a real type is shown', async () => {
      const c = new TestClient(server.baseUrl);
      const landing = await c.get('/');
      assert.match(landing.text, /Sample dataset 4/);
      assert.doesNotMatch(landing.text, /· None ·/);
      const doi = await c.get('/doi/10.1234/dataset1/');
      assert.equal(doi.status, 200);
      assert.doesNotMatch(doi.text, /id="publication-type"/);
      assert.doesNotMatch(doi.text, />None</);
      const { client } = await newUser(server, 'Typed');
      await stage(client, 'typed.uvl', VALID_UVL);
      const res = await client.post('/dataset/upload', { form: uploadForm(['typed.uvl'], { title: 'Typed set', publication_type: 'report' }) });
      assert.equal(res.json.status, 'ok');
      assert.match((await c.get(`/doi/${res.json.doi}/`)).text, /id="publication-type">Report</);
      const list = await client.get('/dataset/list');
      assert.doesNotMatch(list.text, />None</);
    });

    it('puts My datasets (/dataset/list) in the signed-in user menu, first, and shows no user menu to a visitor', async () => {
      const { client } = await newUser(server, 'Menu');
      const home = (await client.get('/')).text;
      const menu = home.slice(home.indexOf('id="user-menu"'), home.indexOf('</ul>', home.indexOf('id="user-menu"')));
      const entries = [...menu.matchAll(/<a class="dropdown-item[^"]*" href="([^"]+)">([^<]+)</g)].map((m) => [m[1], m[2]]);
      assert.deepEqual(entries[0], ['/dataset/list', 'My datasets']);
      assert.ok(entries.some(([href]) => href === '/profile/summary'));
      assert.match((await client.get('/dataset/list')).text, /<a class="dropdown-item active" href="\/dataset\/list">My datasets</);
      assert.doesNotMatch((await new TestClient(server.baseUrl).get('/')).text, /My datasets/);
    });

    it('shows a draft without tags and authors without "Tags None"', async () => {
      const { client } = await newUser(server, 'Drafter');
      const created = await client.post('/api/v1/datasets/', { json: { name: 'Bare draft' } });
      assert.ok(created.status < 300, `draft created (${created.status})`);
      const list = await client.get('/dataset/list');
      const href = /href="(\/dataset\/unsynchronized\/\d+\/)">Bare draft</.exec(list.text)?.[1];
      assert.ok(href, 'the draft is listed');
      const page = await client.get(href!);
      assert.equal(page.status, 200);
      assert.doesNotMatch(page.text, /id="dataset-tags"/);
      assert.doesNotMatch(page.text, />None</);
    });

    it('keeps tags that differ only in case once, in their first spelling (dataset and model tags)', async () => {
      const { client } = await newUser(server, 'Tagger');
      await stage(client, 'tags.uvl', VALID_UVL);
      const res = await client.post('/dataset/upload', {
        form: uploadForm(['tags.uvl'], { title: 'Tagged', tags: 'SPL, spl, Automotive, AUTOMOTIVE , spl', 'feature_models-0-tags': 'Phone, phone' }),
      });
      assert.equal(res.json.status, 'ok');
      const meta = await server.hub.db.selectFrom('ds_meta_data').select('tags').where('dataset_doi', '=', res.json.doi).executeTakeFirstOrThrow();
      assert.equal(meta.tags, 'SPL, Automotive');
      const fm = await server.hub.db.selectFrom('fm_meta_data').select('tags').where('uvl_filename', '=', 'tags.uvl').executeTakeFirstOrThrow();
      assert.equal(fm.tags, 'Phone');
    });

    it('puts a long description in a scrolling box that the keyboard reaches; a short one stays plain', async () => {
      const { client } = await newUser(server, 'Writer');
      await stage(client, 'long.uvl', VALID_UVL);
      const long = 'A long description. '.repeat(700);
      const res = await client.post('/dataset/upload', { form: uploadForm(['long.uvl'], { title: 'Long story', desc: long }) });
      assert.equal(res.json.status, 'ok');
      const page = await client.get(`/doi/${res.json.doi}/`);
      assert.match(page.text, /<div id="dataset-description" class="long-text" tabindex="0" role="region"/);
      const short = await client.get('/doi/10.1234/dataset1/');
      assert.match(short.text, /<div id="dataset-description">/);
    });

    it('stages an empty model as valid, with a warning that it declares no features', async () => {
      const { client } = await newUser(server, 'Empty');
      const res = await stage(client, 'empty.uvl', '');
      assert.equal(res.status, 200);
      assert.equal(res.json.valid, true);
      assert.deepEqual(res.json.warnings, [NO_FEATURES]);
      const full = await stage(client, 'full.uvl', VALID_UVL);
      assert.ok(!full.json.warnings.includes(NO_FEATURES));
    });

    it('serves a favicon at /favicon.ico (to the SVG the pages link)', async () => {
      const c = new TestClient(server.baseUrl);
      const ico = await c.get('/favicon.ico');
      assert.equal(ico.status, 301);
      assert.equal(ico.location, '/static/favicon.svg');
      const svg = await c.get('/static/favicon.svg');
      assert.equal(svg.status, 200);
      assert.match(svg.headers.get('content-type') ?? '', /image\/svg\+xml/);
      assert.match((await c.get('/')).text, /<link rel="icon" href="\/static\/favicon\.svg"/);
    });
  });
}
