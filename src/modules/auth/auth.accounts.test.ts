// The account features of extensions section 5 over HTTP on every dialect: password policy and
// confirmation, reset by emailed link, change of password and of email, the return address.
// Mail goes through nodemailer to a real SMTP server in the test process.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { startTestSmtp, type TestSmtp } from '../../../test/support/smtp.ts';
import { bearer, createToken } from '../../../test/support/api.ts';
import { MAX_RESET_REQUESTS_PER_ADDRESS_HOUR } from './auth.service.ts';

for (const dialect of testDialects()) {
  describe(`accounts [${dialect.name}]`, () => {
    let server: TestServer;
    let smtp: TestSmtp;
    before(async () => {
      smtp = await startTestSmtp();
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { SMTP_URL: smtp.url, MAIL_FROM: 'Hub Test <hub@example.org>' } });
    });
    after(async () => {
      await server?.close();
      await smtp?.close();
    });

    const client = () => new TestClient(server.baseUrl);
    const storedHash = async (email: string) =>
      (await server.hub.db.selectFrom('user').select('password').where('email', '=', email).executeTakeFirst())?.password;
    async function signUp(email: string, password = 'sturdy-password-1'): Promise<TestClient> {
      const c = client();
      await c.get('/signup/');
      const res = await c.post('/signup/', { form: { email, password, password_confirm: password, name: 'Acc', surname: 'Ount' } });
      assert.equal(res.status, 302, 'signed up');
      return c;
    }
    /** Asks for a reset link in a fresh browser and reads it from the email. */
    async function resetLinkFor(email: string): Promise<{ c: TestClient; path: string }> {
      const c = client();
      await c.get('/forgot-password');
      await c.post('/forgot-password', { form: { email } });
      return { c, path: smtp.linkPath(await smtp.take(email), '/reset-password/') };
    }
    async function loggedIn(email: string, password: string): Promise<TestClient> {
      const c = client();
      const res = await c.login(email, password);
      assert.equal(res.status, 302, `logged in as ${email}`);
      return c;
    }

    it('refuses new passwords under 8 characters or among the most common, and a confirmation that differs', async () => {
      const c = client();
      await c.get('/signup/');
      const cases: [Record<string, string>, RegExp, string][] = [
        [{ password: '1' }, /Password must have at least 8 characters/, 'password'],
        [{ password: 'seven77' }, /Password must have at least 8 characters/, 'password'],
        [{ password: 'password123' }, /one of the most common/, 'password'],
        [{ password: 'QWERTY123' }, /one of the most common/, 'password'],
        [{ password: 'sturdy-password-1', password_confirm: 'sturdy-password-2' }, /The passwords do not match/, 'password_confirm'],
      ];
      for (const [fields, message, field] of cases) {
        const res = await c.post('/signup/', { form: { email: 'weak@example.com', name: 'W', surname: 'K', ...fields } });
        assert.equal(res.status, 200, JSON.stringify(fields));
        assert.match(res.text, message);
        assert.match(res.text, new RegExp(`id="${field}-errors"`), `the error sits under ${field}`);
      }
      assert.equal(await storedHash('weak@example.com'), undefined, 'no account was created');
      const ok = await c.post('/signup/', { form: { email: 'weak@example.com', name: 'W', surname: 'K', password: 'sturdy-password-1', password_confirm: 'sturdy-password-1' } });
      assert.equal(ok.status, 302);
      const noConfirm = await signUp('no.confirm@example.com');
      assert.equal((await noConfirm.get('/profile/summary')).status, 200, 'password_confirm is optional on sign-up');
      assert.equal((await loggedIn('user1@example.com', '1234')).cookies.has('session'), true, 'the seeded 1234 keeps working');
    });

    it('serves the sign-up form with a confirmation field and the login form with a forgot-password link', async () => {
      const signup = await client().get('/signup/');
      assert.match(signup.text, /name="password_confirm"/);
      const login = await client().get('/login');
      assert.match(login.text, /href="\/forgot-password"/);
    });

    it('answers /forgot-password the same with or without an account; the account gets a one-hour link', async () => {
      const c = client();
      await c.get('/forgot-password');
      const known = await c.post('/forgot-password', { form: { email: 'USER2@example.com' } });
      const unknown = await c.post('/forgot-password', { form: { email: 'nobody.here@example.com' } });
      assert.equal(known.status, 200);
      assert.equal(unknown.status, 200);
      const strip = (html: string) => html.replace(/<meta name="csrf-token"[^>]*>|name="csrf_token" value="[^"]*"|<strong[^>]*>[^<]*<\/strong>/g, '');
      assert.equal(strip(known.text), strip(unknown.text), 'the same page either way');
      assert.match(known.text, /If <strong[^>]*>USER2@example\.com<\/strong> belongs to an account/);
      const mail = await smtp.take('user2@example.com');
      assert.equal(mail.subject, 'Reset your UVL Hub password');
      assert.match(mail.raw, /^From: Hub Test <hub@example\.org>/m);
      const path = smtp.linkPath(mail, '/reset-password/');
      assert.match(path, /^\/reset-password\/[A-Za-z0-9_-]{40,}$/);
      const row = await server.hub.db.selectFrom('account_token').select(['created_at', 'expires_at', 'token_hash']).where('purpose', '=', 'reset').orderBy('id', 'desc').executeTakeFirstOrThrow();
      assert.equal(Date.parse(row.expires_at) - Date.parse(row.created_at), 3_600_000, 'valid one hour');
      assert.ok(!row.token_hash.includes(path.split('/').pop()!), 'only a hash of the token is stored');
      assert.ok(!smtp.messages.some((m) => m.to.includes('nobody.here@example.com')), 'no email for an unknown address');
      const bad = await c.post('/forgot-password', { form: { email: 'not an email' } });
      assert.equal(bad.status, 200);
      assert.match(bad.text, /Invalid email address/);
    });

    it('resets through the link: new password set, other sessions ended, logged in, 302 to /; the link works once', async () => {
      const email = 'reset.me@example.com';
      const other = await signUp(email, 'old-password-1');
      assert.equal((await other.get('/profile/summary')).status, 200);
      const { c, path } = await resetLinkFor(email);
      const form = await c.get(path);
      assert.equal(form.status, 200);
      assert.match(form.text, /name="password_confirm"/);
      const weak = await c.post(path, { form: { password: 'short', password_confirm: 'short' } });
      assert.equal(weak.status, 200);
      assert.match(weak.text, /at least 8 characters/);
      const mismatch = await c.post(path, { form: { password: 'new-password-1', password_confirm: 'new-password-2' } });
      assert.match(mismatch.text, /The passwords do not match/);
      const before = await storedHash(email);
      const done = await c.post(path, { form: { password: 'new-password-1', password_confirm: 'new-password-1' } });
      assert.equal(done.status, 302);
      assert.equal(done.location, '/');
      assert.notEqual(await storedHash(email), before);
      assert.equal((await c.get('/profile/summary')).status, 200, 'the resetting browser is logged in');
      const ended = await other.get('/profile/summary');
      assert.equal(ended.status, 302, 'the session logged in before the reset is over');
      const home = await other.get('/');
      assert.equal(home.status, 200, 'and goes on as an anonymous visitor');
      assert.match(home.text, /href="\/login"/);
      assert.equal((await client().login(email, 'old-password-1')).status, 200, 'the old password no longer works');
      assert.equal((await client().login(email, 'new-password-1')).status, 302);
      const again = await client().get(path);
      assert.equal(again.status, 400);
      assert.match(again.text, /no longer valid: it was used already or has expired/);
      const reuse = client();
      await reuse.get('/forgot-password');
      const replay = await reuse.post(path, { form: { password: 'third-password-1', password_confirm: 'third-password-1' } });
      assert.equal(replay.status, 400);
      assert.equal((await client().login(email, 'new-password-1')).status, 302, 'nothing changed');
    });

    it('refuses an expired, unknown or malformed reset link with 400 and changes nothing', async () => {
      const email = 'expired@example.com';
      await signUp(email, 'kept-password-1');
      const { c, path } = await resetLinkFor(email);
      // An hour passes: the row's expiry moves into the past.
      await server.hub.db.updateTable('account_token').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('purpose', '=', 'reset').where('used_at', 'is', null).execute();
      for (const target of [path, '/reset-password/unknown-token-that-is-long-enough', '/reset-password/%E2%9C%93', `/reset-password/${'x'.repeat(99)}`]) {
        const res = await c.get(target);
        assert.equal(res.status, 400, target);
        assert.match(res.text, /Link no longer valid/);
      }
      const huge = await c.get(`/reset-password/${'x'.repeat(500)}`);
      assert.equal(huge.status, 400, 'a token of any length is only an unknown one');
      assert.match(huge.text, /Link no longer valid/);
      assert.doesNotMatch(huge.text, /at .*\.ts:\d+/, 'no stack trace');
      const post = await c.post(path, { form: { password: 'stolen-password-1', password_confirm: 'stolen-password-1' } });
      assert.equal(post.status, 400);
      assert.equal((await client().login(email, 'kept-password-1')).status, 302, 'the password is unchanged');
    });

    it('sends at most 3 reset emails per account and hour, answering the same', async () => {
      const email = 'flood@example.com';
      await signUp(email, 'flood-password-1');
      const c = client();
      await c.get('/forgot-password');
      for (let i = 0; i < 5; i++) assert.equal((await c.post('/forgot-password', { form: { email } })).status, 200);
      for (let i = 0; i < 3; i++) await smtp.take(email);
      const count = await server.hub.db.selectFrom('account_token').innerJoin('user', 'user.id', 'account_token.user_id')
        .select((eb) => eb.fn.countAll().as('n')).where('user.email', '=', email).executeTakeFirstOrThrow();
      assert.equal(Number(count.n), 3);
    });

    it(`takes at most ${MAX_RESET_REQUESTS_PER_ADDRESS_HOUR} reset requests per address and hour, whatever accounts they name: then 429 with a clear message`, async () => {
      // The other tests' requests came from this address too: the count starts afresh.
      const fromAddress = () => server.hub.db.deleteFrom('login_attempt').where('subject', 'like', 'reset-from:%').execute();
      await signUp('limited@example.com', 'limited-password-1');
      await fromAddress();
      const c = client();
      await c.get('/forgot-password');
      for (let i = 0; i < MAX_RESET_REQUESTS_PER_ADDRESS_HOUR; i++) {
        const res = await c.post('/forgot-password', { form: { email: `target${i}@example.com` } });
        assert.equal(res.status, 200, `request ${i + 1}`);
        assert.match(res.text, /id="reset-sent"/);
      }
      const refused = await c.post('/forgot-password', { form: { email: 'limited@example.com' } });
      assert.equal(refused.status, 429);
      assert.match(refused.text, /Too many password reset requests came from your network in the last hour/);
      assert.doesNotMatch(refused.text, /id="reset-sent"/);
      const tokens = await server.hub.db.selectFrom('account_token').innerJoin('user', 'user.id', 'account_token.user_id')
        .select((eb) => eb.fn.countAll().as('n')).where('user.email', '=', 'limited@example.com').where('purpose', '=', 'reset').executeTakeFirstOrThrow();
      assert.equal(Number(tokens.n), 0, 'the refused request sent nothing');
      await fromAddress();
    });

    it('changes the password after the current one: policy and confirmation apply, other sessions end, this one stays', async () => {
      const email = 'changer@example.com';
      const c = await signUp(email, 'first-password-1');
      const other = await loggedIn(email, 'first-password-1');
      const page = await c.get('/profile/password');
      assert.equal(page.status, 200);
      const wrong = await c.post('/profile/password', { form: { current_password: 'not-it-at-all', password: 'second-password-2', password_confirm: 'second-password-2' } });
      assert.equal(wrong.status, 200);
      assert.match(wrong.text, /The current password is not right/);
      const weak = await c.post('/profile/password', { form: { current_password: 'first-password-1', password: 'iloveyou', password_confirm: 'iloveyou' } });
      assert.match(weak.text, /one of the most common/);
      const unconfirmed = await c.post('/profile/password', { form: { current_password: 'first-password-1', password: 'second-password-2' } });
      assert.match(unconfirmed.text, /The passwords do not match/);
      assert.equal((await client().login(email, 'first-password-1')).status, 302, 'nothing changed yet');
      const ok = await c.post('/profile/password', { form: { current_password: 'first-password-1', password: 'second-password-2', password_confirm: 'second-password-2' } });
      assert.equal(ok.status, 302);
      assert.equal(ok.location, '/profile/summary');
      const summary = await c.get('/profile/summary');
      assert.equal(summary.status, 200, 'this session stays');
      assert.match(summary.text, /Your password was changed/);
      assert.equal((await other.get('/profile/summary')).status, 302, 'the other session ended');
      assert.equal((await client().login(email, 'first-password-1')).status, 200);
      assert.equal((await client().login(email, 'second-password-2')).status, 302);
      const noToken = await c.post('/profile/password', { form: { current_password: 'second-password-2', password: 'third-password-3', password_confirm: 'third-password-3' }, csrf: false });
      assert.equal(noToken.status, 400, 'CSRF applies');
    });

    it('throttles guesses of the current password like logins: 429 after 10, saying how long, counted with the login pair', async () => {
      const email = 'guessed@example.com';
      const c = await signUp(email, 'guessed-password-1');
      await c.get('/profile/password');
      for (let i = 0; i < 10; i++) {
        const res = await c.post('/profile/password', { form: { current_password: `guess-${i}-long`, password: 'next-password-1', password_confirm: 'next-password-1' } });
        assert.equal(res.status, 200);
        assert.match(res.text, /The current password is not right/);
      }
      const locked = await c.post('/profile/email', { form: { email: 'elsewhere@example.com', current_password: 'guessed-password-1' } });
      assert.equal(locked.status, 429);
      assert.match(locked.text, /Too many failed attempts with this password\. Please try again in 1[45] minutes/);
      assert.equal((await client().login(email, 'guessed-password-1')).status, 429, 'the login from the same address is locked too');
      await server.hub.db.deleteFrom('login_attempt').execute();
    });

    it('changes the email only once the link sent to the new address is opened', async () => {
      const email = 'mover@example.com';
      const c = await signUp(email, 'mover-password-1');
      await c.get('/profile/email');
      const inUse = await c.post('/profile/email', { form: { email: 'user1@example.com', current_password: 'mover-password-1' } });
      assert.equal(inUse.status, 200);
      assert.match(inUse.text, /user1@example\.com in use/);
      const wrong = await c.post('/profile/email', { form: { email: 'moved@example.com', current_password: 'wrong-one-here' } });
      assert.match(wrong.text, /The current password is not right/);
      const invalid = await c.post('/profile/email', { form: { email: 'nope', current_password: 'mover-password-1' } });
      assert.match(invalid.text, /Invalid email address/);
      const sent = await c.post('/profile/email', { form: { email: 'Moved@Example.com', current_password: 'mover-password-1' } });
      assert.equal(sent.status, 302);
      const mail = await smtp.take('moved@example.com');
      assert.equal(mail.subject, 'Confirm your new UVL Hub email address');
      assert.equal((await c.get('/profile/summary')).text.includes('mover@example.com'), true, 'still the old address');
      assert.equal((await client().login(email, 'mover-password-1')).status, 302);
      const path = smtp.linkPath(mail, '/confirm-email/');
      const confirmed = await c.get(path);
      assert.equal(confirmed.status, 302);
      assert.equal(confirmed.location, '/profile/summary');
      const summary = await c.get('/profile/summary');
      assert.match(summary.text, /Your email address is now moved@example\.com/);
      assert.equal((await client().login('moved@example.com', 'mover-password-1')).status, 302);
      assert.equal((await client().login(email, 'mover-password-1')).status, 200, 'the old address no longer logs in');
      const notice = await smtp.take(email);
      assert.equal(notice.subject, 'Your UVL Hub email address was changed');
      assert.match(notice.decoded, /now uses the address moved@example\.com/);
      const again = await c.get(path);
      assert.equal(again.status, 400, 'the link works once');
      assert.match(again.text, /no longer valid/);
    });

    it('refuses an email confirmation whose address another account took meanwhile, and changes nothing', async () => {
      const c = await signUp('first.claim@example.com', 'claim-password-1');
      await c.get('/profile/email');
      await c.post('/profile/email', { form: { email: 'contested@example.com', current_password: 'claim-password-1' } });
      const path = smtp.linkPath(await smtp.take('contested@example.com'), '/confirm-email/');
      await signUp('contested@example.com', 'other-password-1');
      const res = await c.get(path);
      assert.equal(res.status, 400);
      assert.match(res.text, /contested@example\.com is in use by another account now/);
      assert.equal((await client().login('first.claim@example.com', 'claim-password-1')).status, 302);
    });

    it('voids a reset link sent to the old address once the email changes, and every pending link once the password changes', async () => {
      // The reset link went to the old mailbox: after the address moved, that mailbox opens no way in.
      const c = await signUp('leaving@example.com', 'leaving-password-1');
      const early = await resetLinkFor('leaving@example.com');
      await c.get('/profile/email');
      assert.equal((await c.post('/profile/email', { form: { email: 'arrived@example.com', current_password: 'leaving-password-1' } })).status, 302);
      assert.equal((await c.get(smtp.linkPath(await smtp.take('arrived@example.com'), '/confirm-email/'))).status, 302);
      await smtp.take('leaving@example.com');
      assert.equal((await early.c.get(early.path)).status, 400, 'the old address\'s reset link is void');
      const used = await early.c.post(early.path, { form: { password: 'taken-over-pass-1', password_confirm: 'taken-over-pass-1' } });
      assert.equal(used.status, 400);
      assert.equal((await client().login('arrived@example.com', 'leaving-password-1')).status, 302, 'the password did not change');

      // A password change ends the links asked for before it: a reset link and an email change's.
      const reset = await resetLinkFor('arrived@example.com');
      await c.post('/profile/email', { form: { email: 'elsewhere.pending@example.com', current_password: 'leaving-password-1' } });
      const confirm = smtp.linkPath(await smtp.take('elsewhere.pending@example.com'), '/confirm-email/');
      await c.get('/profile/password');
      const changed = await c.post('/profile/password', { form: { current_password: 'leaving-password-1', password: 'changed-password-2', password_confirm: 'changed-password-2' } });
      assert.equal(changed.status, 302);
      assert.equal((await reset.c.get(reset.path)).status, 400, 'the reset link asked for before the change is void');
      assert.equal((await c.get(confirm)).status, 400, 'the email change asked for before it is void');
      assert.equal((await client().login('arrived@example.com', 'changed-password-2')).status, 302);

      // A reset ends a pending email change (someone who had the session and the password asked for it).
      await c.post('/profile/email', { form: { email: 'attacker.box@example.com', current_password: 'changed-password-2' } });
      const stolen = smtp.linkPath(await smtp.take('attacker.box@example.com'), '/confirm-email/');
      const recover = await resetLinkFor('arrived@example.com');
      assert.equal((await recover.c.post(recover.path, { form: { password: 'recovered-pass-3', password_confirm: 'recovered-pass-3' } })).status, 302);
      assert.equal((await recover.c.get(stolen)).status, 400, 'the email change asked for before the reset is void');
      assert.match((await recover.c.get('/profile/summary')).text, /arrived@example\.com/);
    });

    it('ends the account\'s API tokens with a password reset, naming them in the reset email; a password change keeps them', async () => {
      const c = await signUp('tokens.owner@example.com', 'tokens-password-1');
      const kept = await createToken(c, ['read'], 'kept through a change');
      const changed = await c.post('/profile/password', { form: { current_password: 'tokens-password-1', password: 'tokens-password-2', password_confirm: 'tokens-password-2' } });
      assert.equal(changed.status, 302);
      assert.equal((await bearer(server.baseUrl, kept, 'GET', '/api/v1/datasets/')).status, 200, 'a change by the owner, who knew the password, keeps the tokens');
      // Someone who had the password made a token; the owner recovers the account through the mailbox.
      const planted = await createToken(c, ['read', 'write'], 'planted by an intruder');
      const reset = await resetLinkFor('tokens.owner@example.com');
      const mail = smtp.messages.filter((m) => m.to.includes('tokens.owner@example.com')).at(-1)!;
      assert.match(mail.decoded, /the API token "planted by an intruder" \(it ends when you choose a new password\)/);
      assert.match(mail.decoded, /the API token "kept through a change"/);
      assert.equal((await reset.c.post(reset.path, { form: { password: 'tokens-password-3', password_confirm: 'tokens-password-3' } })).status, 302);
      for (const token of [planted, kept]) assert.equal((await bearer(server.baseUrl, token, 'GET', '/api/v1/datasets/')).status, 401, 'the reset ended every token');
      const fresh = await createToken(reset.c, ['read'], 'made after the reset');
      assert.equal((await bearer(server.baseUrl, fresh, 'GET', '/api/v1/datasets/')).status, 200);
    });

    it('returns to the page asked for after login: only paths of this site, anything else goes to /', async () => {
      const anonymous = await client().get('/dataset/upload?x=1');
      assert.equal(anonymous.status, 302);
      assert.equal(anonymous.location, '/login?next=%2Fdataset%2Fupload%3Fx%3D1');
      const c = client();
      const form = await c.get(anonymous.location!);
      assert.match(form.text, /<input type="hidden" name="next" value="\/dataset\/upload\?x=1">/);
      const res = await c.post('/login?next=%2Fdataset%2Fupload%3Fx%3D1', { form: { email: 'user1@example.com', password: '1234', next: '/dataset/upload?x=1' } });
      assert.equal(res.status, 302);
      assert.equal(res.location, '/dataset/upload?x=1');
      for (const [next, expected] of [
        ['https://evil.example/', '/'], ['//evil.example/', '/'], ['/\\evil.example', '/'], ['javascript:alert(1)', '/'],
        ['profile/summary', '/'], ['', '/'], ['/profile/summary', '/profile/summary'], ['/a\u0000b', '/'], ['/x\nSet-Cookie: y', '/'],
      ]) {
        const d = client();
        await d.get('/login');
        const r = await d.post('/login', { form: { email: 'user2@example.com', password: '1234', next: next! } });
        assert.equal(r.status, 302, `next=${JSON.stringify(next)}`);
        assert.equal(r.location, expected, `next=${JSON.stringify(next)}`);
      }
      const viaQuery = client();
      await viaQuery.get('/login?next=%2Fexplore');
      const q = await viaQuery.post('/login?next=%2Fexplore', { form: { email: 'user2@example.com', password: '1234' } });
      assert.equal(q.location, '/explore', 'next in the query of the form post counts too');
    });

    it('keeps next through a failed login attempt', async () => {
      const c = client();
      await c.get('/login?next=%2Fprofile%2Fedit');
      const failed = await c.post('/login', { form: { email: 'user1@example.com', password: 'wrong-one', next: '/profile/edit' } });
      assert.equal(failed.status, 200);
      assert.match(failed.text, /name="next" value="\/profile\/edit"/);
    });
  });
}
