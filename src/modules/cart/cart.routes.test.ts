// The cart over HTTP on every dialect (extensions section 8): adding from DOI and model pages
// (CSRF, bad and unknown ids), the visitor's cart in the session and the user's in the account,
// the zip with its manifest, hashes and CITATION.bib, and the refused formats.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { newUser } from '../../../test/support/accounts.ts';
import { download, unzip } from '../../../test/support/zip.ts';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The files listed on a DOI page: id and name. */
async function filesOf(client: TestClient, doi: string): Promise<{ id: string; name: string }[]> {
  const page = await client.get(`/doi/${doi}/`);
  assert.equal(page.status, 200);
  return [...page.text.matchAll(/class="[^"]*file-row" data-file-id="(\d+)" data-file-name="([^"]+)"/g)].map((m) => ({ id: m[1]!, name: m[2]! }));
}

/** manifest.csv as records (no field of the seed data needs quoting). */
function manifestOf(text: string): Record<string, string>[] {
  const [header, ...rows] = text.trim().split('\r\n');
  const keys = header!.split(',');
  return rows.map((row) => Object.fromEntries(row.split(',').map((v, i) => [keys[i]!, v])));
}

for (const dialect of testDialects()) {
  describe(`cart [${dialect.name}]`, () => {
    let server: TestServer;
    let first: { id: string; name: string };
    let second: { id: string; name: string };

    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { ANALYSIS_WORKERS: '0' } });
      const reader = new TestClient(server.baseUrl);
      first = (await filesOf(reader, '10.1234/dataset1'))[0]!;
      second = (await filesOf(reader, '10.1234/dataset2'))[0]!;
    });
    after(async () => server?.close());

    it('starts empty and refuses to download an empty cart', async () => {
      const visitor = new TestClient(server.baseUrl);
      const page = await visitor.get('/cart');
      assert.equal(page.status, 200);
      assert.match(page.text, /id="cart-empty"/);
      assert.equal((await visitor.get('/cart/download?format=uvl')).status, 400);
    });

    it('refuses a missing CSRF token, a malformed file id and a file nobody can see', async () => {
      const visitor = new TestClient(server.baseUrl);
      await visitor.get('/cart');
      assert.equal((await visitor.post('/cart/add', { form: { file_id: first.id }, csrf: false })).status, 400);
      assert.equal((await visitor.post('/cart/add', { form: { file_id: 'abc' } })).status, 400);
      assert.equal((await visitor.post('/cart/add', { form: {} })).status, 400);
      assert.equal((await visitor.post('/cart/add', { form: { file_id: '999999' } })).status, 404);
      assert.equal((await visitor.post('/cart/remove', { form: { file_id: 'x' } })).status, 400);
      assert.match((await visitor.get('/cart')).text, /id="cart-empty"/);
    });

    it('takes file_id as a JSON number as well as a form field or a JSON string', async () => {
      const visitor = new TestClient(server.baseUrl);
      await visitor.get('/cart');
      assert.equal((await visitor.post('/cart/add', { json: { file_id: Number(first.id) } })).status, 303);
      assert.equal((await visitor.post('/cart/add', { json: { file_id: second.id } })).status, 303);
      const cart = (await visitor.get('/cart')).text;
      for (const file of [first, second]) assert.match(cart, new RegExp(`data-file-id="${file.id}"`));
      assert.equal((await visitor.post('/cart/remove', { json: { file_id: Number(first.id) } })).status, 303);
      assert.doesNotMatch((await visitor.get('/cart')).text, new RegExp(`data-file-id="${first.id}"`));
    });

    it('answers a client asking for JSON {"message", "field"} for a bad file id or format, not {"field"} alone', async () => {
      const visitor = new TestClient(server.baseUrl);
      await visitor.get('/cart');
      const json = { accept: 'application/json' };
      const badId = await visitor.post('/cart/add', { form: { file_id: 'abc' }, headers: json });
      assert.equal(badId.status, 400);
      assert.deepEqual(badId.json, { message: 'Give the file to add or remove as file_id, a file id.', field: 'file_id' });
      for (const bad of [0, -3, 3.5, 1e20, true, null, [1]]) {
        const refused = await visitor.post('/cart/add', { json: { file_id: bad }, headers: json });
        assert.equal(refused.status, 400, JSON.stringify(bad));
        assert.deepEqual(refused.json, { message: 'Give the file to add or remove as file_id, a file id.', field: 'file_id' });
      }
      for (const query of ['', '?format=bogus']) {
        const badFormat = await visitor.get(`/cart/download${query}`, json);
        assert.equal(badFormat.status, 400);
        assert.equal(typeof (badFormat.json as { message?: unknown }).message, 'string', query);
        assert.equal((badFormat.json as { field?: unknown }).field, 'format');
      }
    });

    it('offers Add to cart on DOI pages and model pages and goes back to the page', async () => {
      const visitor = new TestClient(server.baseUrl);
      const doiPage = await visitor.get('/doi/10.1234/dataset1/');
      assert.match(doiPage.text, new RegExp(`<form method="post" action="/cart/add"[^>]*>.*?name="file_id" value="${first.id}"`));
      const modelPage = await visitor.get(`/model/${first.id}/`);
      assert.equal(modelPage.status, 200);
      assert.match(modelPage.text, new RegExp(`action="/cart/add".*?value="${first.id}".*?name="return_to" value="/model/${first.id}/"`));
      const added = await visitor.post('/cart/add', { form: { file_id: first.id, return_to: `/model/${first.id}/` } });
      assert.equal(added.status, 303);
      assert.equal(added.location, `/model/${first.id}/`);
      const offsite = await visitor.post('/cart/add', { form: { file_id: first.id, return_to: '//evil.example/' } });
      assert.equal(offsite.location, '/cart');
    });

    it("keeps a visitor's cart in the session and zips it with a manifest, hashes and citations", async () => {
      const visitor = new TestClient(server.baseUrl);
      await visitor.get('/doi/10.1234/dataset1/');
      for (const file of [first, second]) assert.equal((await visitor.post('/cart/add', { form: { file_id: file.id } })).status, 303);
      const cart = await visitor.get('/cart');
      assert.equal([...cart.text.matchAll(/class="list-group-item[^"]*cart-file"/g)].length, 2);
      assert.equal((await new TestClient(server.baseUrl).get('/cart')).text.includes(first.name), false, 'another visitor has their own cart');

      const res = await download(visitor, '/cart/download?format=uvl&format=dimacs');
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/zip');
      assert.equal(res.headers.get('content-disposition'), 'attachment; filename="cart.zip"');
      const entries = await unzip(res.bytes);
      const manifest = manifestOf(entries.get('cart/manifest.csv')!);
      assert.equal(manifest.length, 4);
      for (const [file, doi] of [[first, '10.1234/dataset1'], [second, '10.1234/dataset2']] as const) {
        for (const format of ['uvl', 'dimacs']) {
          const row = manifest.find((r) => r.file === file.name && r.format === format);
          assert.ok(row, `${file.name} ${format} in the manifest`);
          assert.equal(row.doi, doi);
          const body = entries.get(row.path!);
          assert.ok(body !== undefined, `${row.path} in the zip`);
          assert.equal(row.sha256, sha256(body));
        }
        const uvl = manifest.find((r) => r.file === file.name && r.format === 'uvl')!;
        assert.equal(uvl.path, `cart/10.1234_${doi.split('/')[1]}/${file.name}`);
        assert.equal(entries.get(uvl.path!), (await visitor.get(`/file/download/${file.id}`)).text);
        assert.match(entries.get(manifest.find((r) => r.file === file.name && r.format === 'dimacs')!.path!)!, /^p cnf \d+ \d+$/m);
      }
      const bib = entries.get('cart/CITATION.bib')!;
      assert.equal((bib.match(/^@\w+\{/gm) ?? []).length, 2);
      assert.match(bib, /10\.1234\/dataset1/);
      assert.match(bib, /10\.1234\/dataset2/);

      assert.equal((await visitor.post('/cart/remove', { form: { file_id: second.id } })).status, 303);
      assert.doesNotMatch((await visitor.get('/cart')).text, new RegExp(`data-file-id="${second.id}"`));
    });

    it('gives each dataset of CITATION.bib its own key, also when two datasets would share one (Doe2026Sample)', async () => {
      const visitor = new TestClient(server.baseUrl);
      await visitor.get('/cart');
      const fourth = (await filesOf(visitor, '10.1234/dataset4'))[0]!;
      for (const file of [first, fourth]) assert.equal((await visitor.post('/cart/add', { form: { file_id: file.id } })).status, 303);
      const entries = await unzip((await download(visitor, '/cart/download?format=uvl')).bytes);
      const bib = entries.get('cart/CITATION.bib')!;
      const keys = [...bib.matchAll(/^@\w+\{([^,]+),/gm)].map((m) => m[1]!);
      assert.equal(keys.length, 2, bib);
      assert.equal(new Set(keys).size, 2, `two entries, two keys: ${keys.join(', ')}`);
    });

    it('refuses unknown formats before zipping anything, and zips FeatureIDE XML', async () => {
      const visitor = new TestClient(server.baseUrl);
      await visitor.get('/cart');
      await visitor.post('/cart/add', { form: { file_id: first.id } });
      // Every box unticked in a browser: the cart again, the reason beside the boxes (not an error page).
      const none = await visitor.get('/cart/download');
      assert.equal(none.status, 400);
      assert.match(none.text, /id="cart-download-form"/);
      assert.match(none.text, /id="cart-format-error" role="alert">Tick at least one format\.<\/div>/);
      assert.match(none.text, /<fieldset aria-describedby="cart-format-error">/);
      const pdf = await visitor.get('/cart/download?format=pdf');
      assert.equal(pdf.status, 400);
      assert.match(pdf.text, /id="cart-format-error" role="alert">There is no format &quot;pdf&quot;/);
      const featureide = await download(visitor, '/cart/download?format=uvl&format=featureide');
      assert.equal(featureide.status, 200);
      const zipped = await unzip(featureide.bytes);
      const xml = [...zipped.entries()].find(([name]) => name.endsWith('.xml'));
      assert.ok(xml, `a FeatureIDE file is in the zip: ${[...zipped.keys()].join(', ')}`);
      assert.match(xml[1], /<(extendedFeatureModel|featureModel)[\s>]/);
    });

    it("names each converted entry with its format's extension (.json, .sxfm, .dimacs, .xml), not `_<format>.txt`", async () => {
      const visitor = new TestClient(server.baseUrl);
      await visitor.get('/cart');
      await visitor.post('/cart/add', { form: { file_id: first.id } });
      const all = await download(visitor, '/cart/download?format=uvl&format=glencoe&format=splot&format=dimacs&format=featureide');
      assert.equal(all.status, 200);
      const entries = await unzip(all.bytes);
      const stem = first.name.replace(/\.uvl$/, '');
      const folder = 'cart/10.1234_dataset1';
      const expected = { uvl: '.uvl', glencoe: '.json', splot: '.sxfm', dimacs: '.dimacs', featureide: '.xml' };
      const manifest = manifestOf(entries.get('cart/manifest.csv')!);
      for (const [format, extension] of Object.entries(expected)) {
        const row = manifest.find((r) => r.format === format)!;
        assert.equal(row.path, `${folder}/${stem}${extension}`, `${format} entry`);
        assert.ok(entries.has(row.path!), `${row.path} in the zip`);
      }
      assert.deepEqual([...entries.keys()].filter((name) => name.endsWith('.txt')), [], 'no entry is named .txt');
      assert.match(entries.get(`${folder}/${stem}.sxfm`)!, /<feature_model[\s>]/);
      assert.doesNotThrow(() => JSON.parse(entries.get(`${folder}/${stem}.json`)!));
    });

    it("keeps a user's cart in the account, across sessions", async () => {
      const { client, email } = await newUser(server, 'Carter');
      await client.get('/cart');
      assert.equal((await client.post('/cart/add', { form: { file_id: second.id } })).status, 303);
      const again = new TestClient(server.baseUrl);
      await again.get('/login');
      assert.equal((await again.post('/login', { form: { email, password: 'test-password-1' } })).status, 302);
      assert.match((await again.get('/cart')).text, new RegExp(`data-file-id="${second.id}"`));
      await again.post('/cart/remove', { form: { file_id: second.id } });
      assert.match((await client.get('/cart')).text, /id="cart-empty"/);
    });
  });
}
