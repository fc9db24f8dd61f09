// HTTP-level tests of the auth rules (specification: auth, Authentication, Errors; decisions 3, 5, 7).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';

for (const dialect of testDialects()) {
  describe(`auth over HTTP [${dialect.name}]`, () => {
    let server: TestServer;
    before(async () => { server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true }); });
    after(async () => { await server?.close(); });

    const client = () => new TestClient(server.baseUrl);
    const userCount = async (email: string) =>
      Number((await server.hub.db.selectFrom('user').select((eb) => eb.fn.countAll().as('n')).where('email', '=', email).executeTakeFirstOrThrow()).n);

    it('serves the login and signup forms with a CSRF meta tag and hidden field', async () => {
      for (const path of ['/login', '/signup/']) {
        const res = await client().get(path);
        assert.equal(res.status, 200);
        assert.match(res.text, /<meta name="csrf-token" content="[^"]+">/);
        assert.match(res.text, /<input type="hidden" name="csrf_token" value="[^"]+">/);
      }
    });

    it('logs the seeded user in through the form: 302 to / with a remembered, HttpOnly, SameSite=Lax session', async () => {
      const c = client();
      const res = await c.login('user1@example.com', '1234');
      assert.equal(res.status, 302);
      assert.equal(res.location, '/');
      const cookie = res.setCookies.get('session');
      assert.ok(cookie, 'a session cookie is set');
      assert.match(cookie!, /HttpOnly/i);
      assert.match(cookie!, /SameSite=Lax/i);
      const expires = Date.parse(/Expires=([^;]+)/i.exec(cookie!)![1]!);
      const days = (expires - Date.now()) / 86_400_000;
      assert.ok(days > 29 && days <= 30.01, `remembered for 30 days, got ${days}`);
      const summary = await c.get('/profile/summary');
      assert.equal(summary.status, 200);
      assert.match(summary.text, /John/);
    });

    it('keeps an anonymous session for a day only; login and signup make it a remembered 30-day session, stored so too', async () => {
      const days = (cookie: string) => (Date.parse(/Expires=([^;]+)/i.exec(cookie)![1]!) - Date.now()) / 86_400_000;
      const c = client();
      const form = await c.get('/login');
      const anonymous = form.setCookies.get('session')!;
      assert.ok(days(anonymous) > 0.99 && days(anonymous) <= 1.001, `anonymous: ${days(anonymous)} days`);
      const res = await c.login('user2@example.com', '1234');
      const remembered = days(res.setCookies.get('session')!);
      assert.ok(remembered > 29 && remembered <= 30.01, `after login: ${remembered} days`);
      const sid = decodeURIComponent(c.cookies.get('session')!).split('.')[0]!;
      const row = await server.hub.db.selectFrom('session').select('expires_at').where('sid', '=', sid).executeTakeFirstOrThrow();
      const stored = (Date.parse(row.expires_at) - Date.now()) / 86_400_000;
      assert.ok(stored > 29 && stored <= 30.01, `stored session: ${stored} days`);
      assert.equal((await c.get('/profile/summary')).status, 200);
      const s = client();
      await s.get('/signup/');
      const signup = await s.post('/signup/', { form: { email: 'remembered@example.com', password: 'test-password-1', name: 'Re', surname: 'Member' } });
      const afterSignup = days(signup.setCookies.get('session')!);
      assert.ok(afterSignup > 29 && afterSignup <= 30.01, `after signup: ${afterSignup} days`);
    });

    it('answers wrong credentials with the form and "Invalid credentials"', async () => {
      for (const [email, password] of [['user1@example.com', 'wrong'], ['nobody@example.com', '1234']]) {
        const c = client();
        await c.get('/login');
        const res = await c.post('/login', { form: { email: email!, password: password! } });
        assert.equal(res.status, 200);
        assert.match(res.text, /Invalid credentials/);
        assert.doesNotMatch(res.text, /value="wrong"|value="1234"/, 'the password is never echoed');
        assert.equal((await c.get('/profile/summary')).status, 302);
      }
    });

    it('signs up: user and profile created, logged in at once, redirected to /', async () => {
      const c = client();
      await c.get('/signup/');
      const res = await c.post('/signup/', { form: { email: 'new.person@example.com', password: 'secret-pass', name: 'Ada', surname: 'Lovelace' } });
      assert.equal(res.status, 302);
      assert.equal(res.location, '/');
      const summary = await c.get('/profile/summary');
      assert.equal(summary.status, 200);
      assert.match(summary.text, /Ada Lovelace/);
      const row = await server.hub.db.selectFrom('user').innerJoin('user_profile', 'user_profile.user_id', 'user.id')
        .select(['user.password', 'user_profile.name']).where('email', '=', 'new.person@example.com').executeTakeFirstOrThrow();
      assert.equal(row.name, 'Ada');
      assert.notEqual(row.password, 'secret-pass');
      assert.match(row.password, /^scrypt\$/);
      assert.ok(!row.password.includes('secret-pass'));
    });

    it('refuses an email in use with "<email> in use" and creates nothing', async () => {
      const c = client();
      await c.get('/signup/');
      const res = await c.post('/signup/', { form: { email: 'user2@example.com', password: 'test-password-1', name: 'Jane', surname: 'Again' } });
      assert.equal(res.status, 200);
      assert.match(res.text, /user2@example\.com in use/);
      assert.equal(await userCount('user2@example.com'), 1);
    });

    it('requires every signup field and re-renders the form with field errors', async () => {
      const c = client();
      await c.get('/signup/');
      const res = await c.post('/signup/', { form: { email: 'partial@example.com', password: '', name: '', surname: 'X' } });
      assert.equal(res.status, 200);
      assert.match(res.text, /Password is required/);
      assert.match(res.text, /Name is required/);
      assert.equal(await userCount('partial@example.com'), 0);
    });

    it('answers values over the column sizes with a field error, never a database error (email 256, name and surname 100)', async () => {
      const c = client();
      await c.get('/signup/');
      const longEmail = `${'a'.repeat(250)}@example.com`;
      const cases: [Record<string, string>, RegExp, string][] = [
        [{ email: longEmail, password: 'test-password-1', name: 'Long', surname: 'Email' }, /Field cannot be longer than 256 characters/, longEmail],
        [{ email: 'long.name@example.com', password: 'test-password-1', name: 'n'.repeat(101), surname: 'S' }, /Field cannot be longer than 100 characters/, 'long.name@example.com'],
        [{ email: 'long.surname@example.com', password: 'test-password-1', name: 'N', surname: 's'.repeat(101) }, /Field cannot be longer than 100 characters/, 'long.surname@example.com'],
      ];
      for (const [form, message, email] of cases) {
        const res = await c.post('/signup/', { form });
        assert.equal(res.status, 200);
        assert.match(res.text, message);
        assert.equal(await userCount(email), 0);
      }
      // Exactly at the limits, counted in characters as the columns count them (an emoji is one).
      const exact = `${'b'.repeat(244)}@example.com`;
      const ok = await c.post('/signup/', { form: { email: exact, password: 'test-password-1', name: '😀'.repeat(100), surname: 'x'.repeat(100) } });
      assert.equal(ok.status, 302);
      const row = await server.hub.db.selectFrom('user').innerJoin('user_profile', 'user_profile.user_id', 'user.id')
        .select(['user_profile.name']).where('email', '=', exact).executeTakeFirstOrThrow();
      assert.equal(row.name, '😀'.repeat(100));
    });

    it('refuses control characters (U+0000 included) in the signup fields with a field error, and a login with one is just invalid', async () => {
      const c = client();
      await c.get('/signup/');
      const nulName = await c.post('/signup/', { form: { email: 'nul.name@example.com', password: 'test-password-1', name: 'a\u0000b', surname: 'S' } });
      assert.equal(nulName.status, 200);
      assert.match(nulName.text, /Field contains characters that are not allowed/);
      assert.equal(await userCount('nul.name@example.com'), 0);
      const nulEmail = await c.post('/signup/', { form: { email: 'nul\u0000mail@example.com', password: 'test-password-1', name: 'N', surname: 'S' } });
      assert.equal(nulEmail.status, 200);
      assert.match(nulEmail.text, /Invalid email address/);
      await server.hub.db.deleteFrom('login_attempt').execute();
      const login = client();
      await login.get('/login');
      const res = await login.post('/login', { form: { email: 'user1@example.com\u0000', password: '1234' } });
      assert.equal(res.status, 200);
      assert.match(res.text, /Invalid credentials/);
      await server.hub.db.deleteFrom('login_attempt').execute();
    });

    it('redirects /signup to /signup/ (the form lives at the slash path)', async () => {
      const res = await client().get('/signup');
      assert.equal(res.status, 308);
      assert.equal(res.location, '/signup/');
      const post = await client().post('/signup', { form: { email: 'x@example.com' }, csrf: false });
      assert.equal(post.status, 308);
      assert.equal(post.location, '/signup/');
    });

    it('redirects authenticated visitors away from /login and /signup/', async () => {
      const c = client();
      await c.login('user2@example.com', '1234');
      for (const path of ['/login', '/signup/']) {
        const res = await c.get(path);
        assert.equal(res.status, 302);
        assert.equal(res.location, '/');
      }
    });

    it('logs out: session ended, redirect home, login-required pages redirect to /login again', async () => {
      const c = client();
      await c.login('user1@example.com', '1234');
      const res = await c.get('/logout');
      assert.equal(res.status, 302);
      assert.equal(res.location, '/');
      const page = await c.get('/profile/summary');
      assert.equal(page.status, 302);
      assert.equal(page.location, '/login?next=%2Fprofile%2Fsummary');
    });

    it('refuses a POST without CSRF token with 400 and changes nothing', async () => {
      const c = client();
      await c.get('/signup/');
      const signup = await c.post('/signup/', { form: { email: 'csrf@example.com', password: 'test-password-1', name: 'C', surname: 'S' }, csrf: false });
      assert.equal(signup.status, 400);
      assert.equal(await userCount('csrf@example.com'), 0);
      const login = await c.post('/login', { form: { email: 'user1@example.com', password: '1234' }, csrf: false });
      assert.equal(login.status, 400);
      assert.equal((await c.get('/profile/summary')).status, 302, 'not logged in');
      const forged = await c.post('/login', { form: { email: 'user1@example.com', password: '1234', csrf_token: 'forged-token' } });
      assert.equal(forged.status, 400);
    });

    it('accepts the token in the X-CSRFToken header too', async () => {
      const c = client();
      await c.get('/login');
      const body = new URLSearchParams({ email: 'user1@example.com', password: '1234' }).toString();
      const res = await c.post('/login', { body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      assert.equal(res.status, 302);
    });

    it('rejects a token that belongs to another session', async () => {
      const a = client();
      await a.get('/login');
      const b = client();
      await b.get('/login');
      const res = await b.post('/login', { form: { email: 'user1@example.com', password: '1234', csrf_token: a.csrfToken! } });
      assert.equal(res.status, 400);
    });

    it('redirects an anonymous POST to a login-required page to /login before the CSRF check', async () => {
      const res = await client().post('/profile/edit', { form: { name: 'X' }, csrf: false });
      assert.equal(res.status, 302);
      assert.equal(res.location, '/login');
    });

    // The test connects from loopback, a trusted proxy, so X-Forwarded-For names the client's address.
    const from = (address: string) => ({ 'x-forwarded-for': address });
    const attempt = async (c: TestClient, email: string, password: string, address: string) =>
      c.post('/login', { form: { email, password }, headers: from(address) });

    it('locks the pair (account, address) after 10 failures in 15 minutes: 429 saying how long, the right password refused', async () => {
      await server.hub.db.deleteFrom('login_attempt').execute();
      const c = client();
      await c.get('/login');
      for (let i = 0; i < 10; i++) {
        const res = await attempt(c, 'user2@example.com', `guess-${i}`, '203.0.113.5');
        assert.equal(res.status, 200);
        assert.match(res.text, /Invalid credentials/);
      }
      const blocked = await attempt(c, 'user2@example.com', '1234', '203.0.113.5');
      assert.equal(blocked.status, 429);
      assert.match(blocked.text, /Too many failed login attempts\. Please try again in 1[45] minutes/);
      assert.equal((await c.get('/profile/summary')).status, 302, 'the right password does not get through while locked');
      const elsewhere = client();
      await elsewhere.get('/login');
      assert.equal((await attempt(elsewhere, 'user2@example.com', '1234', '198.51.100.4')).status, 302, 'the same account from another address');
      await server.hub.db.deleteFrom('login_attempt').execute();
    });

    it('never locks another account from the same address: 10 failures over different emails leave user1 free there', async () => {
      await server.hub.db.deleteFrom('login_attempt').execute();
      const c = client();
      await c.get('/login');
      for (let i = 0; i < 10; i++) assert.equal((await attempt(c, `guess${i}@example.com`, 'nope', '203.0.113.7')).status, 200);
      for (let i = 0; i < 10; i++) assert.equal((await attempt(c, 'user2@example.com', `wrong-${i}`, '203.0.113.7')).status, 200);
      assert.equal((await attempt(c, 'user2@example.com', '1234', '203.0.113.7')).status, 429, 'user2 is locked from there');
      const ok = await attempt(c, 'user1@example.com', '1234', '203.0.113.7');
      assert.equal(ok.status, 302, 'user1 logs in from the same address');
      await server.hub.db.deleteFrom('login_attempt').execute();
    });

    it('clears the pair on a successful login: 9 failures, a login, 9 more failures still answer the form', async () => {
      await server.hub.db.deleteFrom('login_attempt').execute();
      for (let round = 0; round < 2; round++) {
        const c = client();
        await c.get('/login');
        for (let i = 0; i < 9; i++) assert.equal((await attempt(c, 'user1@example.com', `typo-${i}`, '203.0.113.9')).status, 200);
        assert.equal((await attempt(c, 'user1@example.com', '1234', '203.0.113.9')).status, 302, `round ${round}: the 10th try is right`);
      }
      await server.hub.db.deleteFrom('login_attempt').execute();
    });

    it('locks the account from every address after 50 failures spread over addresses (5 each from 10)', async () => {
      await server.hub.db.deleteFrom('login_attempt').execute();
      const c = client();
      await c.get('/login');
      for (let a = 0; a < 10; a++) {
        for (let i = 0; i < 5; i++) assert.equal((await attempt(c, 'user2@example.com', `spray-${i}`, `192.0.2.${a}`)).status, 200);
      }
      const fresh = await attempt(c, 'user2@example.com', '1234', '198.51.100.77');
      assert.equal(fresh.status, 429, 'a fresh address is refused too');
      assert.match(fresh.text, /Please try again in \d+ minutes/);
      assert.equal((await attempt(c, 'user1@example.com', '1234', '192.0.2.1')).status, 302, 'another account is untouched');
      await server.hub.db.deleteFrom('login_attempt').execute();
    });

    it('sends the security headers', async () => {
      const res = await client().get('/');
      const csp = res.headers.get('content-security-policy') ?? '';
      assert.match(csp, /script-src 'self'/);
      assert.doesNotMatch(csp, /unsafe-inline/);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(res.headers.get('x-frame-options'), 'DENY');
      assert.ok(res.headers.get('referrer-policy'));
      assert.equal(res.headers.get('strict-transport-security'), null, 'HSTS only in production');
      // The same headers on a static asset and on a 404 (set before any route runs).
      for (const path of ['/static/js/hub.js', '/no/such/page']) {
        const other = await client().get(path);
        assert.equal(other.headers.get('content-security-policy'), csp, path);
        assert.equal(other.headers.get('x-frame-options'), 'DENY', path);
      }
    });
  });
}
