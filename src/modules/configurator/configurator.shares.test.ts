// Shared configurations (issue 37, item 2): a configuration too long for an address is stored and
// named by a short key; the same decisions in another order are one row; the key restores them
// whole (names holding commas, 100,000 characters: beyond MariaDB's 64 KiB TEXT); only the model's
// features may be named (400 naming the others); a file the
// caller may not see is 404 both ways; the store asks for the page's CSRF token. New configurations
// cost a requester (the address, given here by X-Forwarded-For from loopback, which the server
// trusts; the account when signed in) one unit per started 16 KiB, 600 units an hour; a stored one
// costs nothing. The hour's units are spent in a few large configurations, not 600 small ones.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { storeModelFile } from '../../../test/support/fixtures.ts';
import { TestClient } from '../../../test/support/client.ts';
import { PRINTER_UVL } from './configurator.test-support.ts';
import { SHARE_UNITS_PER_HOUR, SHARE_UNIT_BYTES, shareUnits } from './configurator.share-limit.ts';
import { shareKey } from './configurator.shares.ts';

/**
 * The shared model's features: Laser and 2,100 names of 1,000 characters holding a comma, enough
 * for the largest configurations below (120 units, about 1,960 names). Shares name only features.
 */
const POOL = Array.from({ length: 2100 }, (_, i) => `Feature, number ${i} `.padEnd(1000, 'x'));
const SHARED_UVL = `features\n    Shares\n        optional\n            Laser\n${POOL.map((name) => `            "${name}"`).join('\n')}\n`;
/** The stored JSON of decisions over `count` names of 1,000 characters, `split` of them selected. */
const jsonBytes = (count: number, split: number) => '{"selected":[],"deselected":[]}'.length + count * 1002 + Math.max(0, split - 1) + Math.max(0, count - split - 1);

for (const dialect of testDialects()) {
  describe(`shared configurations [${dialect.name}]`, () => {
    let server: TestServer;
    let published = 0;
    let hidden = 0;
    let visitor: TestClient;

    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { ANALYSIS_WORKERS: '0' } });
      published = (await storeModelFile(server, { label: 'Shares', content: SHARED_UVL, name: 'shares.uvl' })).fileId;
      hidden = (await storeModelFile(server, { label: 'Draft', content: PRINTER_UVL, name: 'draft.uvl', doi: null })).fileId;
      visitor = new TestClient(server.baseUrl);
      await visitor.get(`/model/${published}/`);
    });
    after(async () => server?.close());

    type Decisions = { selected: string[]; deselected: string[] };
    type Share = (decisions: Decisions) => Promise<{ status: number; text: string; json: any; headers: Headers }>;
    /** A page's client whose requests come from `address`. */
    const clientAt = async (address: string) => {
      const client = new TestClient(server.baseUrl);
      await client.get(`/model/${published}/`);
      const share: Share = (decisions) => client.post(`/configurator/${published}/shares`, { json: decisions, headers: { 'x-forwarded-for': address } });
      return { client, share };
    };
    /** Each tag's number, given at its first use: the same tag always gives the same decisions. */
    const tags = new Map<string, number>();
    const numberOf = (tag: string) => tags.get(tag) ?? tags.set(tag, tags.size).get(tag)!;
    /**
     * Distinct decisions named by `tag` whose stored JSON costs `units`: the model's first names,
     * as many as that takes, of which the tag's number decides how many are selected (so two tags
     * of the same size differ, as long as there are fewer tags than names).
     */
    const decisionsOf = (tag: string, units: number): Decisions => {
      const n = numberOf(tag);
      let count = 1;
      while (jsonBytes(count, n % (count + 1)) <= (units - 1) * SHARE_UNIT_BYTES) count++;
      const split = n % (count + 1);
      const decisions = { selected: POOL.slice(0, split), deselected: POOL.slice(split, count) };
      assert.equal(shareUnits(JSON.stringify(decisions)), units);
      return decisions;
    };
    /** Stores new configurations of `units` each through `share` until `total` units are spent, answering their keys. */
    const spend = async (share: Share, tag: string, units: number, total: number) => {
      const keys: string[] = [];
      for (let i = 0; i < total / units; i++) {
        const stored = await share(decisionsOf(`${tag} ${i}`, units));
        assert.equal(stored.status, 200, stored.text);
        keys.push(stored.json.key);
      }
      return keys;
    };
    /** Spends the whole hour's units in a few large configurations (120 units, under 2 MB each). */
    const fill = (share: Share, tag: string) => spend(share, tag, 120, SHARE_UNITS_PER_HOUR);
    const stored = async (key: string) => (await server.hub.db.selectFrom('shared_configuration').select('share_key').where('share_key', '=', key).execute()).length;
    const assertRefused = (refused: { status: number; headers: Headers; json: any; text: string }, from = 'here') => {
      assert.equal(refused.status, 429, refused.text);
      const retryAfter = refused.headers.get('retry-after') ?? '';
      assert.match(retryAfter, /^\d+$/);
      assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 3600, retryAfter);
      assert.deepEqual(Object.keys(refused.json), ['message']);
      assert.equal(refused.json.message, `Too many configurations stored from ${from}: at most ${SHARE_UNITS_PER_HOUR} small ones (or about 10 MB) an hour. Try again in ${retryAfter} seconds.`);
    };
    /** A one-name configuration named by `tag`: Laser, or one of the model's names from the end (the large ones take them from the start). */
    const small = (tag: string): Decisions => ({ selected: [tag === 'Laser' ? 'Laser' : POOL[POOL.length - 1 - numberOf(`small ${tag}`)]!], deselected: [] });

    it('stores a long configuration under a short key that gives it back whole, one row for any order', async () => {
      const decisions = { selected: POOL.slice(0, 60), deselected: POOL.slice(60, 100) };
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

    it('refuses decisions naming features the model does not have with 400 {"message"} naming them, and stores nothing', async () => {
      const before = (await server.hub.db.selectFrom('shared_configuration').select('share_key').execute()).length;
      const one = await visitor.post(`/configurator/${published}/shares`, { json: { selected: ['Laser', 'Turbo'], deselected: [POOL[0]] } });
      assert.equal(one.status, 400, one.text);
      assert.deepEqual(one.json, { message: 'The model has no feature "Turbo": a shared configuration names only the model\'s features.' });
      const many = await visitor.post(`/configurator/${published}/shares`, { json: { selected: Array.from({ length: 12 }, (_, i) => `Made up ${i}`), deselected: ['laser'] } });
      assert.equal(many.status, 400, many.text);
      assert.match(many.json.message, /^The model has no features "Made up 0", "Made up 1", .*"Made up 9" and 3 more: /);
      assert.equal((await server.hub.db.selectFrom('shared_configuration').select('share_key').execute()).length, before);
      assert.equal((await visitor.post(`/configurator/${hidden}/shares`, { json: { selected: ['Turbo'] } })).status, 404, 'a file the caller may not see: 404 first');
      const valid = await visitor.post(`/configurator/${published}/shares`, { json: { selected: ['Laser', POOL[0]!] } });
      assert.equal(valid.status, 200, valid.text);
    });

    it('refuses a store without the page\'s CSRF token, and a body that is not lists of names', async () => {
      const refused = await visitor.post(`/configurator/${published}/shares`, { json: { selected: ['Laser'] }, csrf: false });
      assert.equal(refused.status, 400);
      const bad = await visitor.post(`/configurator/${published}/shares`, { json: { selected: 'Laser' } });
      assert.equal(bad.status, 400);
      assert.deepEqual([typeof bad.json.message, bad.json.field], ['string', 'selected']);
    });

    it('refuses a requester storing large configurations (about 100 KiB, 7 units each) once past 600 units with 429, Retry-After and {"message"}, stores nothing, and counts a small one as 1 unit', async () => {
      const { share } = await clientAt('198.51.100.1');
      await spend(share, 'Large', 120, 480);
      const keys = await spend(share, 'Medium', 7, 119);
      assert.equal(keys.length, 17, '599 units spent');
      const large = decisionsOf('Refused large', 7);
      assertRefused(await share(large));
      assert.equal(await stored(shareKey(published, large)), 0);
      const last = await share(small('Small 0'));
      assert.equal(last.status, 200, 'a small one costs 1 unit: 600 in all');
      const refused = await share(small('Small 1'));
      assertRefused(refused);
      assert.equal(await stored(shareKey(published, small('Small 1'))), 0);
    });

    it('still answers 200 with the key of a configuration stored already, past the limit', async () => {
      const { share } = await clientAt('198.51.100.2');
      const keys = await fill(share, 'Again');
      assertRefused(await share(small('Again small')));
      const again = await share(decisionsOf('Again 3', 120));
      assert.deepEqual([again.status, again.json], [200, { key: keys[3] }]);
      const others = await share(small('Laser'));
      assert.equal(others.status, 200, 'stored by another test\'s visitor: costs nothing either');
    });

    it('does not count one address\'s new configurations against another requester', async () => {
      const { share } = await clientAt('198.51.100.3');
      await fill(share, 'Busy');
      assertRefused(await share(small('Busy small')));
      const other = await (await clientAt('198.51.100.4')).share(small('Busy small'));
      assert.equal(other.status, 200, other.text);
      assert.equal(await stored(other.json.key), 1);
    });

    it('counts a signed-in user per account: not against the address, and the account\'s limit from any address', async () => {
      const { share: anonymous } = await clientAt('198.51.100.5');
      await fill(anonymous, 'Address');
      assertRefused(await anonymous(small('Address small')));
      const user = new TestClient(server.baseUrl);
      await user.login('user1@example.com', '1234');
      await user.get(`/model/${published}/`);
      const from = (address: string): Share => (decisions) => user.post(`/configurator/${published}/shares`, { json: decisions, headers: { 'x-forwarded-for': address } });
      const first = await from('198.51.100.5')(decisionsOf('Account 0', 120));
      assert.equal(first.status, 200, 'the address is spent, the account is not');
      for (let i = 1; i < 5; i++) assert.equal((await from(`198.51.100.${10 + i}`)(decisionsOf(`Account ${i}`, 120))).status, 200);
      assertRefused(await from('198.51.100.6')(small('Account small')), 'your account');
      const fresh = await (await clientAt('198.51.100.6')).share(small('Account small'));
      assert.equal(fresh.status, 200, 'the address the account last used is not spent');
    });
  });
}
