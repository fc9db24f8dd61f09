// HTTP-level tests of the profile rules (specification: profile, Errors, Limits; decisions 7).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { insertDatasetRow, userIdByEmail } from '../../../test/support/fixtures.ts';

for (const dialect of testDialects()) {
  describe(`profile over HTTP [${dialect.name}]`, () => {
    let server: TestServer;
    before(async () => { server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true }); });
    after(async () => { await server?.close(); });

    async function loggedIn(email: string): Promise<TestClient> {
      const c = new TestClient(server.baseUrl);
      const res = await c.login(email, '1234');
      assert.equal(res.status, 302);
      return c;
    }
    const storedProfile = async (email: string) => server.hub.db.selectFrom('user_profile')
      .innerJoin('user', 'user.id', 'user_profile.user_id').select(['name', 'surname', 'orcid', 'affiliation'])
      .where('email', '=', email).executeTakeFirstOrThrow();

    it('redirects anonymous visitors of the profile pages to /login?next=<page>', async () => {
      const c = new TestClient(server.baseUrl);
      for (const path of ['/profile/summary', '/profile/edit', '/profile/password', '/profile/email']) {
        const res = await c.get(path);
        assert.equal(res.status, 302);
        assert.equal(res.location, `/login?next=${encodeURIComponent(path)}`);
      }
    });

    it('shows the profile card: name, surname, affiliation, ORCID and email', async () => {
      const c = await loggedIn('user1@example.com');
      const res = await c.get('/profile/summary');
      assert.equal(res.status, 200);
      assert.match(res.text, /John Doe/);
      assert.match(res.text, /Some University/);
      assert.match(res.text, /user1@example\.com/);
    });

    it('lists own datasets 5 per page, newest first, with the total and links by sync state', async () => {
      const email = 'pager@example.com';
      const c = new TestClient(server.baseUrl);
      await c.get('/signup/');
      await c.post('/signup/', { form: { email, password: 'test-password-1', name: 'Page', surname: 'Turner' } });
      const userId = await userIdByEmail(server.hub.db, email);
      const other = await userIdByEmail(server.hub.db, 'user2@example.com');
      await insertDatasetRow(server.hub.db, other, { title: 'Not mine', createdAt: '2026-01-20T00:00:00.000Z' });
      for (let i = 1; i <= 7; i++) {
        await insertDatasetRow(server.hub.db, userId, {
          title: `Pager set ${i}`, doi: i % 2 === 0 ? `10.9999/pager.${i}` : null,
          createdAt: `2026-01-0${i}T00:00:00.000Z`,
        });
      }
      const first = await c.get('/profile/summary');
      assert.equal(first.status, 200);
      const titles = [...first.text.matchAll(/>(Pager set \d)</g)].map((m) => m[1]);
      assert.deepEqual(titles, ['Pager set 7', 'Pager set 6', 'Pager set 5', 'Pager set 4', 'Pager set 3']);
      assert.match(first.text, /id="dataset-total">7</);
      assert.doesNotMatch(first.text, /Not mine/);
      assert.match(first.text, /href="\/doi\/10\.9999\/pager\.6\/">Pager set 6</);
      const unsyncId = (await server.hub.db.selectFrom('data_set').innerJoin('ds_meta_data', 'ds_meta_data.id', 'data_set.ds_meta_data_id')
        .select('data_set.id').where('title', '=', 'Pager set 7').executeTakeFirstOrThrow()).id;
      assert.match(first.text, new RegExp(`href="/dataset/unsynchronized/${unsyncId}/">Pager set 7<`));
      assert.match(first.text, /href="\?page=2"/);
      const second = await c.get('/profile/summary?page=2');
      assert.deepEqual([...second.text.matchAll(/>(Pager set \d)</g)].map((m) => m[1]), ['Pager set 2', 'Pager set 1']);
      const bad = await c.get('/profile/summary?page=abc');
      assert.equal(bad.status, 200, 'a malformed page number falls back to page 1');
    });

    it('answers any malformed or oversized page number with a page, never an error', async () => {
      const c = await loggedIn('user1@example.com');
      const firstPage = /href="\/doi\/10\.1234\/dataset3\/">Sample dataset 3</;
      for (const page of ['abc', '', '0', '-1', '1.5', '1e3', '0x10', '%00', '1&page=2', '99999999999999999999', '9'.repeat(400), '9007199254740993']) {
        const res = await c.get(`/profile/summary?page=${page}`);
        assert.equal(res.status, page === '%00' ? 400 : 200, `page=${page}`);
        if (['abc', '', '0', '-1', '1.5', '1e3', '0x10', '1&page=2'].includes(page)) assert.match(res.text, firstPage, `page=${page} is page 1`);
        if (page.length > 10) {
          assert.match(res.text, /No datasets on this page/, `page=${page} is past the end`);
          assert.match(res.text, /id="dataset-total">2</);
        }
      }
    });

    it('refuses an edit without the CSRF token (400, nothing saved) and accepts it in the X-CSRFToken header', async () => {
      const c = await loggedIn('user2@example.com');
      await c.get('/profile/edit');
      const refused = await c.post('/profile/edit', { form: { name: 'Forged' }, csrf: false });
      assert.equal(refused.status, 400);
      const forged = await c.post('/profile/edit', { form: { name: 'Forged', csrf_token: 'not-the-token' } });
      assert.equal(forged.status, 400);
      assert.equal((await storedProfile('user2@example.com')).name, 'Jane');
      await c.get('/profile/edit');
      const body = new URLSearchParams({ name: 'Jane' }).toString();
      const viaHeader = await c.post('/profile/edit', { body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      assert.equal(viaHeader.status, 302);
    });

    it('prefills the edit form from the stored profile', async () => {
      const c = await loggedIn('user2@example.com');
      const res = await c.get('/profile/edit');
      assert.equal(res.status, 200);
      assert.match(res.text, /name="name"\s+value="Jane"/);
      assert.match(res.text, /name="affiliation"\s+value="Some University"/);
    });

    it('rejects an ORCID not in the 19-character format and saves nothing', async () => {
      const c = await loggedIn('user2@example.com');
      await c.get('/profile/edit');
      for (const orcid of ['1234', '0000-0000-0000-000', '0000-0000-0000-00000', 'abcd-0000-0000-0000', '0000_0000_0000_0000']) {
        const res = await c.post('/profile/edit', { form: { name: 'Changed', surname: 'Doe', orcid, affiliation: 'Some University' } });
        assert.equal(res.status, 200);
        assert.match(res.text, /ORCID must have the format 0000-0000-0000-0000/);
        assert.equal((await storedProfile('user2@example.com')).name, 'Jane', `nothing saved for ${orcid}`);
      }
    });

    it('rejects an affiliation outside 5 to 100 characters and missing name or surname', async () => {
      const c = await loggedIn('user2@example.com');
      await c.get('/profile/edit');
      for (const affiliation of ['Uni', 'x'.repeat(101)]) {
        const res = await c.post('/profile/edit', { form: { name: 'Jane', surname: 'Doe', affiliation } });
        assert.equal(res.status, 200);
        assert.match(res.text, /Affiliation must be between 5 and 100 characters long/);
      }
      const noName = await c.post('/profile/edit', { form: { name: '', surname: '' } });
      assert.equal(noName.status, 200);
      assert.match(noName.text, /Name is required/);
      assert.match(noName.text, /Surname is required/);
      assert.deepEqual(await storedProfile('user2@example.com'), { name: 'Jane', surname: 'Doe', orcid: null, affiliation: 'Some University' });
    });

    it('answers names over 100 characters and control characters with field errors, never a database error', async () => {
      const c = await loggedIn('user2@example.com');
      await c.get('/profile/edit');
      const cases: [Record<string, string>, RegExp][] = [
        [{ name: 'n'.repeat(101) }, /Field cannot be longer than 100 characters/],
        [{ surname: 's'.repeat(101) }, /Field cannot be longer than 100 characters/],
        [{ name: 'Ja\u0000ne' }, /Field contains characters that are not allowed/],
        [{ surname: 'Do\u0000e' }, /Field contains characters that are not allowed/],
        [{ affiliation: 'Some\u0000University' }, /Field contains characters that are not allowed/],
        [{ orcid: '0000-0000-0000-000\u0000' }, /ORCID must have the format/],
        [{ affiliation: '😀'.repeat(101) }, /Affiliation must be between 5 and 100 characters long/],
      ];
      for (const [form, message] of cases) {
        const res = await c.post('/profile/edit', { form });
        assert.equal(res.status, 200, JSON.stringify(form));
        assert.match(res.text, message);
      }
      assert.deepEqual(await storedProfile('user2@example.com'), { name: 'Jane', surname: 'Doe', orcid: null, affiliation: 'Some University' });
      // At the limits, counted in characters like the columns: 100 emoji fit a string(100).
      const full = await c.post('/profile/edit', { form: { name: '😀'.repeat(100), affiliation: 'é'.repeat(100) } });
      assert.equal(full.status, 302);
      assert.equal((await storedProfile('user2@example.com')).name, '😀'.repeat(100));
      await c.get('/profile/edit');
      await c.post('/profile/edit', { form: { name: 'Jane', affiliation: 'Some University' } });
      assert.deepEqual(await storedProfile('user2@example.com'), { name: 'Jane', surname: 'Doe', orcid: null, affiliation: 'Some University' });
    });

    it('saves a valid edit: flash "Profile updated successfully" and redirect to the form', async () => {
      const email = 'editor@example.com';
      const c = new TestClient(server.baseUrl);
      await c.get('/signup/');
      await c.post('/signup/', { form: { email, password: 'test-password-1', name: 'Ed', surname: 'Itor' } });
      await c.get('/profile/edit');
      const res = await c.post('/profile/edit', { form: { name: 'Edna', surname: 'Itor', orcid: '0000-0002-1825-009X', affiliation: 'University of Somewhere', submit: 'Save profile' } });
      assert.equal(res.status, 302);
      assert.equal(res.location, '/profile/edit');
      const page = await c.get('/profile/edit');
      assert.match(page.text, /Profile updated successfully/);
      assert.deepEqual(await storedProfile(email), { name: 'Edna', surname: 'Itor', orcid: '0000-0002-1825-009X', affiliation: 'University of Somewhere' });
      const again = await c.get('/profile/edit');
      assert.doesNotMatch(again.text, /Profile updated successfully/, 'a flash message shows once');
    });

    it('keeps the stored value of every field absent from a partial post', async () => {
      const email = 'partial.edit@example.com';
      const c = new TestClient(server.baseUrl);
      await c.get('/signup/');
      await c.post('/signup/', { form: { email, password: 'test-password-1', name: 'Part', surname: 'Ial' } });
      await c.get('/profile/edit');
      await c.post('/profile/edit', { form: { name: 'Part', surname: 'Ial', orcid: '0000-0001-2345-6789', affiliation: 'Partial Institute' } });
      await c.get('/profile/edit');
      const res = await c.post('/profile/edit', { form: { surname: 'Changed' } });
      assert.equal(res.status, 302);
      assert.deepEqual(await storedProfile(email), { name: 'Part', surname: 'Changed', orcid: '0000-0001-2345-6789', affiliation: 'Partial Institute' });
    });

    it('refuses an edit posted as multipart/form-data (415) rather than answering "updated" with nothing read or changed', async () => {
      const email = 'multipart.edit@example.com';
      const c = new TestClient(server.baseUrl);
      await c.get('/signup/');
      await c.post('/signup/', { form: { email, password: 'test-password-1', name: 'Multi', surname: 'Part' } });
      await c.get('/profile/edit');
      const form = new FormData();
      form.append('name', 'Changed');
      form.append('surname', 'Person');
      const res = await c.post('/profile/edit', { body: form });
      assert.equal(res.status, 415);
      assert.match(res.text, /application\/x-www-form-urlencoded/);
      assert.deepEqual(await storedProfile(email), { name: 'Multi', surname: 'Part', orcid: null, affiliation: null });
      // Login and signup likewise: an error that says why, not "Email is required".
      const anonymous = new TestClient(server.baseUrl);
      await anonymous.get('/login');
      const login = new FormData();
      login.append('email', email);
      login.append('password', 'test-password-1');
      assert.equal((await anonymous.post('/login', { body: login })).status, 415);
    });

    it('empties the optional fields when they are posted blank', async () => {
      const c = await loggedIn('user1@example.com');
      await c.get('/profile/edit');
      const res = await c.post('/profile/edit', { form: { name: 'John', surname: 'Doe', orcid: '', affiliation: '' } });
      assert.equal(res.status, 302);
      assert.deepEqual(await storedProfile('user1@example.com'), { name: 'John', surname: 'Doe', orcid: null, affiliation: null });
      await c.get('/profile/edit');
      await c.post('/profile/edit', { form: { affiliation: 'Some University' } });
    });
  });
}
