// Shared configurations (issue 37, item 2): a configuration too long for an address is stored and
// named by a short key; the same decisions in another order are one row; the key restores them
// whole (names holding commas, 100,000 characters: beyond MariaDB's 64 KiB TEXT); a file the
// caller may not see is 404 both ways; the store asks for the page's CSRF token.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { storeModelFile } from '../../../test/support/fixtures.ts';
import { TestClient } from '../../../test/support/client.ts';
import { PRINTER_UVL } from './configurator.test-support.ts';

const LONG = Array.from({ length: 4000 }, (_, i) => `Feature, number ${i}`);

for (const dialect of testDialects()) {
  describe(`shared configurations [${dialect.name}]`, () => {
    let server: TestServer;
    let published = 0;
    let hidden = 0;
    let visitor: TestClient;

    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { ANALYSIS_WORKERS: '0' } });
      published = (await storeModelFile(server, { label: 'Printer', content: PRINTER_UVL, name: 'printer.uvl' })).fileId;
      hidden = (await storeModelFile(server, { label: 'Draft', content: PRINTER_UVL, name: 'draft.uvl', doi: null })).fileId;
      visitor = new TestClient(server.baseUrl);
      await visitor.get(`/model/${published}/`);
    });
    after(async () => server?.close());

    it('stores a long configuration under a short key that gives it back whole, one row for any order', async () => {
      const decisions = { selected: LONG.slice(0, 2500), deselected: LONG.slice(2500) };
      assert.ok(JSON.stringify(decisions).length > 65_536);
      const stored = await visitor.post(`/configurator/${published}/shares`, { json: decisions });
      assert.equal(stored.status, 200, stored.text);
      assert.match(stored.json.key, /^[A-Za-z0-9_-]{22}$/);
      const again = await visitor.post(`/configurator/${published}/shares`, { json: { selected: [...decisions.selected].reverse(), deselected: decisions.deselected } });
      assert.equal(again.status, 200, again.text);
      assert.equal(again.json.key, stored.json.key);
      const read = await new TestClient(server.baseUrl).get(`/configurator/${published}/shares/${stored.json.key}`);
      assert.equal(read.status, 200, read.text);
      assert.deepEqual(read.json, decisions);
      const rows = await server.hub.db.selectFrom('shared_configuration').select('share_key').where('share_key', '=', stored.json.key).execute();
      assert.equal(rows.length, 1);
    });

    it('answers 404 for a file the caller may not see, a key of another file or an unknown key, 400 for a malformed key', async () => {
      const stored = await visitor.post(`/configurator/${published}/shares`, { json: { selected: ['Laser'] } });
      assert.equal((await visitor.post(`/configurator/${hidden}/shares`, { json: { selected: ['Laser'] } })).status, 404);
      const other = await visitor.get(`/configurator/${hidden}/shares/${stored.json.key}`);
      assert.equal(other.status, 404);
      assert.deepEqual(other.json, { message: 'File not found' });
      const unknown = await visitor.get(`/configurator/${published}/shares/${'A'.repeat(22)}`);
      assert.deepEqual([unknown.status, unknown.json], [404, { message: 'This shared configuration does not exist.' }]);
      const malformed = await visitor.get(`/configurator/${published}/shares/..%2F..`);
      assert.equal(malformed.status, 400);
      assert.equal(typeof malformed.json.message, 'string');
    });

    it('refuses a store without the page\'s CSRF token, and a body that is not lists of names', async () => {
      const refused = await visitor.post(`/configurator/${published}/shares`, { json: { selected: ['Laser'] }, csrf: false });
      assert.equal(refused.status, 400);
      const bad = await visitor.post(`/configurator/${published}/shares`, { json: { selected: 'Laser' } });
      assert.equal(bad.status, 400);
      assert.deepEqual([typeof bad.json.message, bad.json.field], ['string', 'selected']);
    });
  });
}
