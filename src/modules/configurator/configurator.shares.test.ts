// Shared configurations (issue 37, item 2): a configuration too long for an address is stored and
// named by a short key; the same decisions in another order are one row; the key restores them
// whole (names holding commas, 100,000 characters: beyond MariaDB's 64 KiB TEXT); a file the
// caller may not see is 404 both ways; the store asks for the page's CSRF token. At most 60 new
// configurations an hour per requester (the address, given here by X-Forwarded-For from loopback,
// which the server trusts; the account when signed in); a stored one costs nothing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { storeModelFile } from '../../../test/support/fixtures.ts';
import { TestClient } from '../../../test/support/client.ts';
import { PRINTER_UVL } from './configurator.test-support.ts';
import { NEW_SHARES_PER_HOUR } from './configurator.share-limit.ts';
import { shareKey } from './configurator.shares.ts';

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

    /** A page's client whose requests come from `address`. */
    const clientAt = async (address: string) => {
      const client = new TestClient(server.baseUrl);
      await client.get(`/model/${published}/`);
      return { client, share: (decisions: { selected?: string[]; deselected?: string[] }) => client.post(`/configurator/${published}/shares`, { json: decisions, headers: { 'x-forwarded-for': address } }) };
    };
    /** Stores NEW_SHARES_PER_HOUR new configurations through `share`, answering their keys. */
    const fill = async (share: (d: { selected: string[] }) => Promise<{ status: number; text: string; json: any }>, tag: string) => {
      const keys: string[] = [];
      for (let i = 0; i < NEW_SHARES_PER_HOUR; i++) {
        const stored = await share({ selected: [`${tag} ${i}`] });
        assert.equal(stored.status, 200, stored.text);
        keys.push(stored.json.key);
      }
      return keys;
    };
    const stored = async (key: string) => (await server.hub.db.selectFrom('shared_configuration').select('share_key').where('share_key', '=', key).execute()).length;
    const assertRefused = (refused: { status: number; headers: Headers; json: any; text: string }) => {
      assert.equal(refused.status, 429, refused.text);
      const retryAfter = refused.headers.get('retry-after') ?? '';
      assert.match(retryAfter, /^\d+$/);
      assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 3600, retryAfter);
      assert.deepEqual(Object.keys(refused.json), ['message']);
      assert.match(refused.json.message, new RegExp(`at most ${NEW_SHARES_PER_HOUR} new ones an hour\\. Try again in ${retryAfter} seconds`));
    };

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

    it('refuses the 61st new configuration within the hour from one address with 429, Retry-After and {"message"}, and stores nothing', async () => {
      const { share } = await clientAt('198.51.100.1');
      await fill(share, 'Refused');
      const refused = await share({ selected: ['Refused 60'] });
      assertRefused(refused);
      assert.equal(await stored(shareKey(published, { selected: ['Refused 60'], deselected: [] })), 0);
    });

    it('still answers 200 with the key of a configuration stored already, past the limit', async () => {
      const { share } = await clientAt('198.51.100.2');
      const keys = await fill(share, 'Again');
      assertRefused(await share({ selected: ['Again 60'] }));
      const again = await share({ selected: ['Again 7'] });
      assert.deepEqual([again.status, again.json], [200, { key: keys[7] }]);
      const others = await share({ selected: ['Laser'] });
      assert.equal(others.status, 200, 'stored by another test\'s visitor: costs nothing either');
    });

    it('does not count one address\'s new configurations against another requester', async () => {
      const { share } = await clientAt('198.51.100.3');
      await fill(share, 'Busy');
      assertRefused(await share({ selected: ['Busy 60'] }));
      const other = await (await clientAt('198.51.100.4')).share({ selected: ['Busy 60'] });
      assert.equal(other.status, 200, other.text);
      assert.equal(await stored(other.json.key), 1);
    });

    it('counts a signed-in user per account: not against the address, and the account\'s limit from any address', async () => {
      const { share: anonymous } = await clientAt('198.51.100.5');
      await fill(anonymous, 'Address');
      assertRefused(await anonymous({ selected: ['Address 60'] }));
      const user = new TestClient(server.baseUrl);
      await user.login('user1@example.com', '1234');
      await user.get(`/model/${published}/`);
      const from = (address: string) => (decisions: { selected: string[] }) => user.post(`/configurator/${published}/shares`, { json: decisions, headers: { 'x-forwarded-for': address } });
      const first = await from('198.51.100.5')({ selected: ['Account 0'] });
      assert.equal(first.status, 200, 'the address is spent, the account is not');
      for (let i = 1; i < NEW_SHARES_PER_HOUR; i++) assert.equal((await from(`198.51.100.${10 + i}`)({ selected: [`Account ${i}`] })).status, 200);
      assertRefused(await from('198.51.100.6')({ selected: ['Account 60'] }));
      const fresh = await (await clientAt('198.51.100.6')).share({ selected: ['Account 60'] });
      assert.equal(fresh.status, 200, 'the address the account last used is not spent');
    });
  });
}
