// ORCID's first sign-in against a real OpenID provider (test/support/oidc-provider.ts), mail to a
// real SMTP server, on every dialect (extensions section 11): the address is confirmed by a link,
// opened in the browser that proved the iD, before any account holds it. The attacks of the issue:
// the account pre-takeover end to end, and six racing submissions of the email step.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { startTestSmtp, type TestSmtp } from '../../../test/support/smtp.ts';
import { signInWithOrcid, startTestOidcProvider, type TestOidcProvider } from '../../../test/support/oidc-provider.ts';
import { insertDatasetRow } from '../../../test/support/fixtures.ts';
import { nowIso } from '../../core/db/database.ts';

for (const dialect of testDialects()) {
  describe(`ORCID first sign-in [${dialect.name}]`, () => {
    let provider: TestOidcProvider;
    let smtp: TestSmtp;
    let server: TestServer;
    before(async () => {
      provider = await startTestOidcProvider();
      smtp = await startTestSmtp();
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { ...provider.env, SMTP_URL: smtp.url, ANALYSIS_WORKERS: '0' } });
      provider.serve(`${server.baseUrl}/login/orcid/callback`);
    });
    after(async () => {
      await server?.close();
      await smtp?.close();
      await provider?.close();
    });

    const db = () => server.hub.db;
    const accountsWith = async (emails: string[]) => db().selectFrom('user').select(['id', 'email']).where('email', 'in', emails).execute();
    const linkOf = async (orcid: string) => db().selectFrom('orcid_account').selectAll().where('orcid', '=', orcid).executeTakeFirst();

    /** A browser that proved `orcid` at ORCID and stands on the email step. */
    async function atEmailStep(orcid: string): Promise<TestClient> {
      const browser = new TestClient(server.baseUrl);
      assert.equal(await signInWithOrcid(provider, browser, orcid), '/login/orcid/email');
      assert.equal((await browser.get('/login/orcid/email')).status, 200);
      return browser;
    }
    const submit = (browser: TestClient, email: string) => browser.post('/login/orcid/email', { form: { email, name: 'Ann', surname: 'Other' } });

    it('makes the account only when the mailed link is opened in the browser that proved the iD', async () => {
      const orcid = '0000-0002-1111-0001';
      const browser = await atEmailStep(orcid);
      const sent = await submit(browser, ' New.Person@Example.org ');
      assert.equal(sent.status, 200);
      assert.match(sent.text, /We sent a link to <strong>new\.person@example\.org<\/strong>/);
      assert.deepEqual(await accountsWith(['new.person@example.org']), [], 'no account before the link');
      const mail = await smtp.take('new.person@example.org');
      assert.match(mail.decoded, new RegExp(`ORCID iD ${orcid}`));
      const path = smtp.linkPath(mail, '/login/orcid/confirm/');

      const elsewhere = new TestClient(server.baseUrl);
      const refused = await elsewhere.get(path);
      assert.equal(refused.status, 400);
      assert.match(refused.text, /Open this link in the browser where you signed in with ORCID/);
      assert.deepEqual(await accountsWith(['new.person@example.org']), []);

      const created = await browser.get(path);
      assert.equal(created.status, 303);
      assert.equal(created.location, '/');
      assert.match((await browser.get('/')).text, /Your account signs in with the ORCID iD 0000-0002-1111-0001/);
      const [account] = await accountsWith(['new.person@example.org']);
      assert.equal((await linkOf(orcid))?.user_id, account!.id);
      assert.equal((await browser.get(path)).status, 409, 'logged in now: the link is not used again');
      assert.equal((await new TestClient(server.baseUrl).get(path)).status, 400, 'used');

      const later = new TestClient(server.baseUrl);
      assert.equal(await signInWithOrcid(provider, later, orcid), '/', 'the iD signs in to its account');
    });

    it('names the linked ORCID iD in a password reset email, and the reset leaves it linked', async () => {
      const orcid = '0000-0002-1111-0005';
      const browser = await atEmailStep(orcid);
      assert.equal((await submit(browser, 'linked.reset@example.org')).status, 200);
      assert.equal((await browser.get(smtp.linkPath(await smtp.take('linked.reset@example.org'), '/login/orcid/confirm/'))).status, 303);
      const forgot = new TestClient(server.baseUrl);
      await forgot.get('/forgot-password');
      await forgot.post('/forgot-password', { form: { email: 'linked.reset@example.org' } });
      const mail = await smtp.take('linked.reset@example.org');
      assert.match(mail.decoded, /Your account signs in with its email address and password, and also with: ORCID iD 0000-0002-1111-0005/);
      assert.match(mail.decoded, /If you do not recognise one of these, it was linked by someone else/);
      const path = smtp.linkPath(mail, '/reset-password/');
      await forgot.get(path);
      assert.equal((await forgot.post(path, { form: { password: 'owner-password-1', password_confirm: 'owner-password-1' } })).status, 302);
      assert.ok(await linkOf(orcid), 'still linked: the owner unlinks it from the profile if it is not theirs');
      assert.match((await forgot.get('/profile/orcid')).text, /id="orcid-unlink"/, 'and now can');
    });

    it('leaves no orphan account when the iD was linked to another account between the email and the link (one transaction)', async () => {
      const orcid = '0000-0002-1111-0007';
      const browser = await atEmailStep(orcid);
      assert.equal((await submit(browser, 'late.link@example.org')).status, 200);
      const path = smtp.linkPath(await smtp.take('late.link@example.org'), '/login/orcid/confirm/');
      // As if a profile's link committed just before: the row the unique key on the iD sees.
      const user2 = await db().selectFrom('user').select('id').where('email', '=', 'user2@example.com').executeTakeFirstOrThrow();
      await db().insertInto('orcid_account').values({ user_id: user2.id, orcid, created_account: 0, linked_at: nowIso(), address_confirmed: 1 }).execute();
      const res = await browser.get(path);
      assert.equal(res.status, 409);
      assert.match(res.text, /This ORCID iD was linked to another account meanwhile; no account was made/);
      assert.deepEqual(await accountsWith(['late.link@example.org']), [], 'the account made in the transaction is gone with it');
      assert.equal((await linkOf(orcid))?.user_id, user2.id);
      await db().deleteFrom('orcid_account').where('orcid', '=', orcid).execute();
    });

    it('unlinks, at the first password reset, an iD that an earlier version linked to an account made with an unconfirmed address', async () => {
      const orcid = '0000-0002-1111-0008';
      // What the first sign-in of an earlier version left (migration 2026_12_05_0400 marks it): an
      // account holding someone's address, made and linked by whoever proved the iD.
      const squatted = await server.hub.ctx.services.auth.createWithProfile({ email: 'squatted@example.org', password: 'unknown-password-1', name: 'S', surname: 'Q' });
      await db().insertInto('orcid_account').values({ user_id: squatted.id, orcid, created_account: 1, linked_at: nowIso(), address_confirmed: 0 }).execute();
      const attacker = new TestClient(server.baseUrl);
      assert.equal(await signInWithOrcid(provider, attacker, orcid), '/', 'before the reset the iD signs in');

      const owner = new TestClient(server.baseUrl);
      await owner.get('/forgot-password');
      await owner.post('/forgot-password', { form: { email: 'squatted@example.org' } });
      const mail = await smtp.take('squatted@example.org');
      assert.match(mail.decoded, /ORCID iD 0000-0002-1111-0008, linked when a first ORCID sign-in made this account without confirming this address: choosing a new password unlinks it/);
      const path = smtp.linkPath(mail, '/reset-password/');
      await owner.get(path);
      assert.equal((await owner.post(path, { form: { password: 'owner-password-2', password_confirm: 'owner-password-2' } })).status, 302);
      assert.equal(await linkOf(orcid), undefined, 'unlinked with the reset');
      assert.equal((await attacker.get('/profile/orcid')).status, 302, 'the attacker\'s session ended with the reset');
      assert.equal(await signInWithOrcid(provider, new TestClient(server.baseUrl), orcid), '/login/orcid/email', 'the iD no longer reaches the account');
    });

    it('refuses an address that has an account: log in with the password and link from the profile; no mail', async () => {
      const browser = await atEmailStep('0000-0002-1111-0002');
      const sent = smtp.messages.length;
      const res = await submit(browser, 'USER1@example.com');
      assert.equal(res.status, 409);
      assert.match(res.text, /An account already uses this email: log in with its password, then link your ORCID iD from your profile/);
      assert.equal(smtp.messages.length, sent);
      assert.equal(await linkOf('0000-0002-1111-0002'), undefined);
    });

    it('refuses an address holding a zero-width no-break space (U+FEFF) at its start with the form\'s message; no claim, no mail', async () => {
      const browser = await atEmailStep('0000-0002-1111-0009');
      const sent = smtp.messages.length;
      const res = await submit(browser, '\ufeffzero.width@example.org');
      assert.equal(res.status, 200);
      assert.match(res.text, /invisible or control characters/);
      assert.equal(smtp.messages.length, sent);
      assert.equal(await db().selectFrom('orcid_claim').select('orcid').where('orcid', '=', '0000-0002-1111-0009').executeTakeFirst(), undefined);
    });

    it('pre-takeover: an iD claiming an unregistered address neither keeps it from its owner nor gets into the owner\'s account', async () => {
      const attackerOrcid = '0000-0002-1111-0003';
      const victimEmail = 'victim@example.org';
      // The attacker signs in with their iD and gives the victim's address, which nobody has registered.
      const attacker = await atEmailStep(attackerOrcid);
      assert.equal((await submit(attacker, victimEmail)).status, 200);
      assert.deepEqual(await accountsWith([victimEmail]), [], 'the address still belongs to nobody');
      const claimMail = await smtp.take(victimEmail);

      // The victim signs up normally (before: "in use"), resets the password, saves a private draft.
      const victim = new TestClient(server.baseUrl);
      await victim.get('/signup/');
      const signup = await victim.post('/signup/', { form: { email: victimEmail, password: 'victim-password-1', name: 'Vic', surname: 'Tim' } });
      assert.equal(signup.status, 302, 'the owner signs up with the address');
      const [account] = await accountsWith([victimEmail]);
      const forgot = new TestClient(server.baseUrl);
      await forgot.get('/forgot-password');
      await forgot.post('/forgot-password', { form: { email: victimEmail } });
      const resetMail = await smtp.take(victimEmail);
      assert.equal(resetMail.subject, 'Reset your UVL Hub password');
      assert.match(resetMail.decoded, /signs in with its email address and password only/);
      assert.doesNotMatch(resetMail.decoded, /0000-0002-1111-0003/);
      const resetPath = smtp.linkPath(resetMail, '/reset-password/');
      await forgot.get(resetPath);
      assert.equal((await forgot.post(resetPath, { form: { password: 'victim-password-2', password_confirm: 'victim-password-2' } })).status, 302);
      const draft = await insertDatasetRow(db(), account!.id, { title: 'Victim draft', doi: null, createdAt: nowIso() });
      assert.equal((await forgot.get(`/dataset/unsynchronized/${draft}/`)).status, 200, 'the owner sees the draft');

      // The victim opens the claim's link by mistake: nothing is linked (not the browser that proved the iD, and logged in).
      const clicked = await forgot.get(smtp.linkPath(claimMail, '/login/orcid/confirm/'));
      assert.ok(clicked.status === 400 || clicked.status === 409, `refused: ${clicked.status}`);
      // The attacker signs in with the iD again, and even holding the link lands in no account.
      assert.equal(await signInWithOrcid(provider, attacker, attackerOrcid), '/login/orcid/email');
      const stolen = await attacker.get(smtp.linkPath(claimMail, '/login/orcid/confirm/'));
      assert.equal(stolen.status, 409);
      assert.match(stolen.text, /An account already uses victim@example\.org: log in with its password/);
      assert.equal(await linkOf(attackerOrcid), undefined, 'the iD is linked to nothing');
      assert.notEqual((await attacker.get(`/dataset/unsynchronized/${draft}/`)).status, 200, 'the draft stays private');
      assert.equal((await accountsWith([victimEmail])).length, 1);
    });

    it('six racing submissions of the email step: clear answers (no 500), no account, one usable link, one account from it', async () => {
      const orcid = '0000-0002-1111-0004';
      const browser = await atEmailStep(orcid);
      const emails = Array.from({ length: 6 }, (_, i) => `racer${i}@example.org`);
      const answers = await Promise.all(emails.map((email) => submit(browser, email)));
      for (const [i, answer] of answers.entries()) {
        assert.ok([200, 409, 429].includes(answer.status), `${emails[i]}: ${answer.status}`);
        if (answer.status !== 200) assert.match(answer.text, /Another address was given for this ORCID iD at the same moment|Too many addresses/);
      }
      assert.deepEqual(await accountsWith(emails), [], 'no account, so no address squatted');
      const claims = await db().selectFrom('orcid_claim').selectAll().where('orcid', '=', orcid).execute();
      assert.equal(claims.length, 1);
      const mailed = emails.filter((_, i) => answers[i]!.status === 200);
      assert.ok(mailed.length >= 1);
      const paths = await Promise.all(mailed.map(async (email) => smtp.linkPath(await smtp.take(email), '/login/orcid/confirm/')));
      const tokenHash = (path: string) => createHash('sha256').update(path.split('/').pop()!).digest('hex');
      const usable = paths.filter((path) => tokenHash(path) === claims[0]!.token_hash);
      assert.equal(usable.length, 1, 'only the latest link works');
      for (const path of paths.filter((p) => p !== usable[0])) assert.equal((await browser.get(path)).status, 400, 'a replaced link');
      // The usable link opened three times at once (a double click): one account, the others a clear page.
      const opened = await Promise.all([1, 2, 3].map(() => browser.get(usable[0]!)));
      assert.deepEqual(opened.map((o) => o.status).sort(), [303, 400, 400]);
      const accounts = await accountsWith(emails);
      assert.equal(accounts.length, 1);
      assert.equal((await linkOf(orcid))?.user_id, accounts[0]!.id);
    });
  });
}

describe('ORCID first sign-in, limits [sqlite]', () => {
  let provider: TestOidcProvider;
  let server: TestServer;
  before(async () => {
    provider = await startTestOidcProvider();
    // Port 9 (discard) on loopback: no SMTP server answers, every email fails.
    server = await startTestServer({ env: { ...provider.env, SMTP_URL: 'smtp://127.0.0.1:9' } });
    provider.serve(`${server.baseUrl}/login/orcid/callback`);
  });
  after(async () => {
    await server?.close();
    await provider?.close();
  });

  it('keeps no claim when the link cannot be mailed (503 on the form), and sends at most 5 links per iD and hour (429)', async () => {
    const orcid = '0000-0002-1111-0006';
    const browser = new TestClient(server.baseUrl);
    assert.equal(await signInWithOrcid(provider, browser, orcid), '/login/orcid/email');
    await browser.get('/login/orcid/email');
    const res = await browser.post('/login/orcid/email', { form: { email: 'unmailed@example.org', name: 'Un', surname: 'Mailed' } });
    assert.equal(res.status, 503);
    assert.match(res.text, /The confirmation email could not be sent just now/);
    assert.equal(await server.hub.db.selectFrom('orcid_claim').select('orcid').executeTakeFirst(), undefined);

    // Five links in the hour, as if sent: the sixth address is refused before any mail.
    const now = new Date().toISOString();
    await server.hub.db.insertInto('orcid_claim').values({
      orcid, email: 'fifth@example.org', name: 'F', surname: 'F', token_hash: 'f'.repeat(64), sends: 5, window_start: now, expires_at: now,
    }).execute();
    const sixth = await browser.post('/login/orcid/email', { form: { email: 'sixth@example.org', name: 'S', surname: 'S' } });
    assert.equal(sixth.status, 429);
    assert.match(sixth.text, /Too many addresses were given for this ORCID iD in the last hour/);
    assert.equal((await server.hub.db.selectFrom('orcid_claim').select('email').executeTakeFirstOrThrow()).email, 'fifth@example.org');
  });
});
