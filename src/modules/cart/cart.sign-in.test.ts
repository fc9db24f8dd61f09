// A visitor's cart at sign-in, on every dialect: it joins the account's cart (the account's files
// first, then the visitor's new ones in their order, no file twice) after a password login and a
// sign-up (and ORCID's first and later sign-ins, on SQLite), the cart's limit holds (what does not fit is told once on the cart page), and after
// logging out the browser's next visitor starts with an empty cart.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { newUser } from '../../../test/support/accounts.ts';
import { insertDatasetRow } from '../../../test/support/fixtures.ts';
import { signInWithOrcid as throughOrcid, startTestOidcProvider, type TestOidcProvider } from '../../../test/support/oidc-provider.ts';
import { startTestSmtp, type TestSmtp } from '../../../test/support/smtp.ts';
import { nowIso } from '../../core/db/database.ts';
import { appendTimes, MAX_CART_FILES } from './cart.service.ts';

/** The cart page's file ids, in the order shown. */
async function cartIds(client: TestClient): Promise<number[]> {
  const page = await client.get('/cart');
  assert.equal(page.status, 200);
  return [...page.text.matchAll(/cart-file" data-file-id="(\d+)"/g)].map((m) => Number(m[1]));
}

/** A visitor who has put these files in the cart, in this order. */
async function visitorWith(server: TestServer, fileIds: number[]): Promise<TestClient> {
  const visitor = new TestClient(server.baseUrl);
  await visitor.get('/cart');
  for (const id of fileIds) assert.equal((await visitor.post('/cart/add', { form: { file_id: String(id) } })).status, 303);
  assert.deepEqual(await cartIds(visitor), fileIds);
  return visitor;
}

/** `count` published files that exist only as rows: enough to fill a cart. */
async function bareFiles(server: TestServer, count: number): Promise<number[]> {
  const { db, ctx } = server.hub;
  const owner = await db.selectFrom('user').select('id').where('email', '=', 'user1@example.com').executeTakeFirstOrThrow();
  const datasetId = await insertDatasetRow(db, owner.id, { title: 'Many files', doi: '10.9999/many-files', createdAt: nowIso() });
  const fmId = await ctx.services.featuremodel.createFeatureModel(db, datasetId, {
    uvl_filename: 'm0.uvl', title: 'Many', description: '', publication_type: 'none', publication_doi: null, tags: null, uvl_version: null, authors: [],
  });
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    ids.push(await ctx.services.hubfile.createFile(db, fmId, { name: `m${i}.uvl`, checksum: createHash('md5').update(String(i)).digest('hex'), size: 10 }));
  }
  return ids;
}

describe('appendTimes', () => {
  it('places merged files after the account\'s newest, a millisecond apart, ending now when there is room', () => {
    const now = Date.parse('2026-11-27T12:00:00.000Z');
    assert.deepEqual(appendTimes(3, '2026-11-27T11:00:00.000Z', now), ['2026-11-27T11:59:59.998Z', '2026-11-27T11:59:59.999Z', '2026-11-27T12:00:00.000Z']);
    assert.deepEqual(appendTimes(2, '2026-11-27T12:00:00.000Z', now), ['2026-11-27T12:00:00.001Z', '2026-11-27T12:00:00.002Z']);
    assert.deepEqual(appendTimes(1, undefined, now), ['2026-11-27T12:00:00.000Z']);
    assert.deepEqual(appendTimes(0, undefined, now), []);
  });
});

for (const dialect of testDialects()) {
  describe(`cart at sign-in [${dialect.name}]`, () => {
    let server: TestServer;
    /** Four published seed files, by ascending id. */
    let a: number, b: number, c: number, d: number;

    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { ANALYSIS_WORKERS: '0' } });
      const rows = await server.hub.db.selectFrom('file').select('id').orderBy('id').limit(4).execute();
      [a, b, c, d] = rows.map((r) => Number(r.id)) as [number, number, number, number];
      assert.ok(d !== undefined, 'the seed has four files');
    });
    after(async () => server?.close());

    it("joins the visitor's cart to the account's at a password login: the account's first, no file twice", async () => {
      const { client: account, email } = await newUser(server, 'Merger');
      await account.get('/cart');
      for (const id of [b, c]) await account.post('/cart/add', { form: { file_id: String(id) } });
      const visitor = await visitorWith(server, [d, a, c]);
      assert.equal((await visitor.login(email, 'test-password-1')).status, 302);
      assert.deepEqual(await cartIds(visitor), [b, c, d, a]);
      assert.deepEqual(await cartIds(account), [b, c, d, a], 'the account holds the merged cart, in its other sessions too');
      assert.doesNotMatch((await visitor.get('/cart')).text, /id="cart-left-out"/);
    });

    it("keeps a new account's cart from sign-up", async () => {
      const visitor = await visitorWith(server, [c, a]);
      await visitor.get('/signup/');
      const email = `signup-${Date.now()}@example.com`;
      const res = await visitor.post('/signup/', { form: { email, password: 'test-password-1', name: 'Sig', surname: 'Nup' } });
      assert.equal(res.status, 302);
      assert.deepEqual(await cartIds(visitor), [c, a]);
      const again = new TestClient(server.baseUrl);
      await again.login(email, 'test-password-1');
      assert.deepEqual(await cartIds(again), [c, a]);
    });

    it('leaves the next visitor on the browser an empty cart after logging out, and the account keeps its own', async () => {
      const { client, email } = await newUser(server, 'Leaver');
      await client.get('/cart');
      await client.post('/cart/add', { form: { file_id: String(b) } });
      assert.equal((await client.get('/logout')).status, 302);
      assert.deepEqual(await cartIds(client), []);
      await client.post('/cart/add', { form: { file_id: String(a) } });
      assert.deepEqual(await cartIds(client), [a]);
      await client.login(email, 'test-password-1');
      assert.deepEqual(await cartIds(client), [b, a]);
      await client.get('/logout');
      assert.deepEqual(await cartIds(client), [], 'the merged files stay with the account');
    });

    it('keeps what fits under the limit and says on the cart page how many files did not', async () => {
      const { client, email, userId } = await newUser(server, 'Full');
      for (const id of await bareFiles(server, MAX_CART_FILES - 1)) await server.hub.ctx.services.cart.addToUser(userId, id);
      await client.get('/logout');
      const visitor = await visitorWith(server, [c, a, b]);
      await visitor.login(email, 'test-password-1');
      const ids = await server.hub.ctx.services.cart.userFileIds(userId);
      assert.equal(ids.length, MAX_CART_FILES);
      assert.equal(ids.at(-1), c);
      assert.ok(!ids.includes(a) && !ids.includes(b));
      const page = await visitor.get('/cart');
      assert.match(page.text, /id="cart-left-out"[^>]*>Your cart is full: 2 files you collected before signing in did not fit/);
      assert.doesNotMatch((await visitor.get('/cart')).text, /id="cart-left-out"/, 'told once');
    });
  });
}

describe('cart at ORCID sign-in [sqlite]', () => {
  const orcid = '0000-0002-1825-0097';
  let provider: TestOidcProvider;
  let smtp: TestSmtp;
  let server: TestServer;
  let files: number[];

  before(async () => {
    provider = await startTestOidcProvider();
    smtp = await startTestSmtp();
    server = await startTestServer({ seed: true, env: { ...provider.env, SMTP_URL: smtp.url, ANALYSIS_WORKERS: '0' } });
    provider.serve(`${server.baseUrl}/login/orcid/callback`);
    provider.names.set(orcid, { given_name: 'Josiah', family_name: 'Carberry' });
    files = (await server.hub.db.selectFrom('file').select('id').orderBy('id').limit(3).execute()).map((r) => Number(r.id));
  });
  after(async () => {
    await server?.close();
    await smtp?.close();
    await provider?.close();
  });

  const signInWithOrcid = (client: TestClient) => throughOrcid(provider, client, orcid);

  it("keeps the visitor's cart through a first sign-in (the email asked, the account made by its link) and a later one", async () => {
    const [first, second, third] = files as [number, number, number];
    const visitor = await visitorWith(server, [second, first]);
    assert.equal(await signInWithOrcid(visitor), '/login/orcid/email');
    await visitor.get('/login/orcid/email');
    const sent = await visitor.post('/login/orcid/email', { form: { email: 'josiah@example.com', name: 'Josiah', surname: 'Carberry' } });
    assert.equal(sent.status, 200);
    // Only the confirmed account gets the cart, when its link is opened in this browser (extensions section 11).
    const created = await visitor.get(smtp.linkPath(await smtp.take('josiah@example.com'), '/login/orcid/confirm/'));
    assert.equal(created.status, 303);
    assert.deepEqual(await cartIds(visitor), [second, first]);

    await visitor.get('/logout');
    await visitor.post('/cart/add', { form: { file_id: String(third) } });
    await visitor.post('/cart/add', { form: { file_id: String(first) } });
    assert.equal(await signInWithOrcid(visitor), '/');
    assert.deepEqual(await cartIds(visitor), [second, first, third]);
  });
});
