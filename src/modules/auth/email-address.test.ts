// Email addresses (extensions section 11): one reading for every form. The attacks of the issue
// over HTTP, on every dialect: an address that looks like an account's (a zero-width space, a
// Cyrillic "а") is refused at sign-up and at an email change, with a message and no row written.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { startTestSmtp, type TestSmtp } from '../../../test/support/smtp.ts';
import { normalizeEmail, readEmail } from './email-address.ts';
import { InvalidEmailError } from './auth.service.ts';

const refused = (input: string) => {
  const read = readEmail(input);
  return read.ok ? undefined : read.message;
};

describe('readEmail', () => {
  it('trims, NFC-normalises, lower-cases and gives an IDN domain one spelling', () => {
    assert.deepEqual(readEmail('  User1@Example.COM \n'), { ok: true, email: 'user1@example.com' });
    // "é" typed as e + U+0301 and as one code point is the same address.
    assert.deepEqual(readEmail('Rene\u0301@example.org'), { ok: true, email: 'ren\u00e9@example.org' });
    assert.deepEqual(readEmail('ivan@xn--e1afmkfd.com'), { ok: true, email: 'ivan@пример.com' });
    assert.deepEqual(readEmail('ivan@ПРИМЕР.com'), { ok: true, email: 'ivan@пример.com' });
    assert.deepEqual(readEmail('иван@пример.рф'), { ok: true, email: 'иван@пример.рф' }, 'an all-Cyrillic address stays allowed');
    assert.deepEqual(readEmail('müller+hub@bücher.de'), { ok: true, email: 'müller+hub@bücher.de' });
  });

  it('refuses control, format, zero-width and bidirectional characters with a message', () => {
    for (const c of ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad', '\u202e', '\u2066', '\u200f', '\u0000', '\u0007', '\u3164', '\ufe0f']) {
      assert.match(refused(`user1@example.com${c}x`) ?? '', /invisible or control characters/, `U+${c.codePointAt(0)!.toString(16)}`);
      assert.match(refused(`us${c}er1@example.com`) ?? '', /invisible or control characters/, `U+${c.codePointAt(0)!.toString(16)}`);
    }
    assert.match(refused('user1@example.com\u200b') ?? '', /invisible/, 'a trailing zero-width space is not trimmed away');
    // String.prototype.trim takes U+FEFF (ZERO WIDTH NO-BREAK SPACE) for white space; Unicode does not.
    assert.match(refused('\ufeffuser1@example.com') ?? '', /invisible/, 'a leading zero-width no-break space is not trimmed away');
    assert.match(refused('user1@example.com\ufeff') ?? '', /invisible/, 'a trailing zero-width no-break space is not trimmed away');
  });

  it('refuses letters in a special form (fullwidth, ligatures, superscripts) and the blank Braille pattern in the local part', () => {
    for (const look of ['\uff55ser1@example.com', 'pro\ufb01le@example.com', 'user\u00b9@example.com', 'user\u2460@example.com']) {
      assert.match(refused(look) ?? '', /letters in a special form/, look);
    }
    assert.deepEqual(readEmail('user1@\uff45xample.com'), readEmail('user1@example.com'), 'a fullwidth domain is the plain one');
    assert.match(refused('us\u2800er1@example.com') ?? '', /invisible/, 'the blank Braille pattern');
    assert.equal(refused('jos\u00e9@example.com'), undefined, 'accented letters stay welcome');
  });

  it('refuses a local part or a domain label that mixes Latin with Cyrillic or Greek', () => {
    assert.match(refused('us\u0435r1@example.com') ?? '', /mixes letters of different alphabets/, 'Cyrillic е in the local part');
    assert.match(refused('user1@ex\u0430mple.com') ?? '', /mixes letters/, 'Cyrillic а in the domain');
    assert.match(refused('user1@xn--exmple-4nf.com') ?? '', /mixes letters/, 'the same domain in its xn-- form');
    assert.match(refused('\u03bfscar@example.com') ?? '', /mixes letters/, 'Greek ο');
  });

  it('refuses what is no address', () => {
    for (const bad of ['', 'nope', '@example.com', 'a@', 'a@b', 'a@b..c', 'a@.b.c', 'a b@example.com', '.a@example.com', 'a..b@example.com',
      'a@exa mple.com', '<a@example.com>', 'a,b@example.com', `${'a'.repeat(250)}@example.com`]) {
      assert.ok(refused(bad), `refused: ${JSON.stringify(bad)}`);
    }
  });

  it('normalizeEmail gives lookups the same form, and leaves what does not read as before', () => {
    assert.equal(normalizeEmail(' User1@EXAMPLE.com '), 'user1@example.com');
    assert.equal(normalizeEmail('Not An Email '), 'not an email');
  });
});

for (const dialect of testDialects()) {
  describe(`email addresses over HTTP [${dialect.name}]`, () => {
    let server: TestServer;
    let smtp: TestSmtp;
    before(async () => {
      smtp = await startTestSmtp();
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { SMTP_URL: smtp.url } });
    });
    after(async () => {
      await server?.close();
      await smtp?.close();
    });

    const users = async () => (await server.hub.db.selectFrom('user').select('email').execute()).map((u) => u.email);

    it('refuses a look-alike of user1@example.com at sign-up (zero-width space, Cyrillic а) and keeps no account', async () => {
      const before = await users();
      const c = new TestClient(server.baseUrl);
      await c.get('/signup/');
      for (const [email, message] of [
        ['user1@example.com\u200b', /invisible or control characters/],
        ['user1\u200d@example.com', /invisible or control characters/],
        ['user1@ex\u0430mple.com', /mixes letters of different alphabets/],
        ['us\u0435r1@example.com', /mixes letters of different alphabets/],
      ] as const) {
        const res = await c.post('/signup/', { form: { email, password: 'sturdy-password-1', name: 'Look', surname: 'Alike' } });
        assert.equal(res.status, 200, JSON.stringify(email));
        assert.match(res.text, message);
        assert.match(res.text, /is-invalid" id="email"/);
      }
      assert.deepEqual(await users(), before, 'no account was made');
      const upper = await c.post('/signup/', { form: { email: ' USER1@Example.com', password: 'sturdy-password-1', name: 'Same', surname: 'One' } });
      assert.match(upper.text, /user1@example\.com in use/, 'case and spaces make no new address');
    });

    it('keeps addresses that differ by an accent apart on every database (MariaDB\'s collation folded them into one)', async () => {
      const first = new TestClient(server.baseUrl);
      await first.get('/signup/');
      assert.equal((await first.post('/signup/', { form: { email: 'josé@example.com', password: 'sturdy-password-1', name: 'José', surname: 'A' } })).status, 302);
      const second = new TestClient(server.baseUrl);
      await second.get('/signup/');
      const res = await second.post('/signup/', { form: { email: 'jose@example.com', password: 'other-password-2', name: 'Jose', surname: 'B' } });
      assert.equal(res.status, 302, 'jose@example.com is another address');
      assert.ok((await users()).includes('jose@example.com') && (await users()).includes('josé@example.com'));
      assert.equal((await new TestClient(server.baseUrl).login('jose@example.com', 'sturdy-password-1')).status, 200, 'josé\'s password does not open jose\'s account');
      assert.equal((await new TestClient(server.baseUrl).login('jose@example.com', 'other-password-2')).status, 302);
    });

    it('refuses a look-alike in the service too (InvalidEmailError), for callers other than the forms', async () => {
      const auth = server.hub.ctx.services.auth;
      const before = await users();
      await assert.rejects(auth.createWithProfile({ email: 'user1@example.com\u200b', password: 'sturdy-password-1', name: 'A', surname: 'B' }), InvalidEmailError);
      await assert.rejects(auth.createWithProfile({ email: 'user1@ex\u0430mple.com', password: 'sturdy-password-1', name: 'A', surname: 'B' }), InvalidEmailError);
      assert.deepEqual(await users(), before);
    });

    it('refuses a look-alike at an email change, and sends no link', async () => {
      const c = new TestClient(server.baseUrl);
      assert.equal((await c.login('user2@example.com', '1234')).status, 302);
      await c.get('/profile/email');
      const sent = smtp.messages.length;
      const res = await c.post('/profile/email', { form: { email: 'user1@example.com\u200b', current_password: '1234' } });
      assert.equal(res.status, 200);
      assert.match(res.text, /invisible or control characters/);
      const mixed = await c.post('/profile/email', { form: { email: 'new@ex\u0430mple.org', current_password: '1234' } });
      assert.match(mixed.text, /mixes letters/);
      assert.equal(smtp.messages.length, sent);
      assert.equal(await server.hub.db.selectFrom('account_token').select('id').where('purpose', '=', 'email').executeTakeFirst(), undefined);
    });

    it('pre-takeover through an email change: the link works only logged in as the account that asked, so the mailbox\'s owner gives it to nobody', async () => {
      const asker = new TestClient(server.baseUrl);
      assert.equal((await asker.login('user2@example.com', '1234')).status, 302);
      await asker.get('/profile/email');
      assert.equal((await asker.post('/profile/email', { form: { email: 'owner@example.net', current_password: '1234' } })).status, 302);
      const mail = await smtp.take('owner@example.net');
      assert.match(mail.decoded, /If you have no UVL Hub account, or did not ask for this, do not open it/);
      const path = smtp.linkPath(mail, '/confirm-email/');
      // The address's owner opens it: anonymous, then logged in to another account (before: the address moved to user2).
      const owner = new TestClient(server.baseUrl);
      const anonymous = await owner.get(path);
      assert.equal(anonymous.status, 302);
      assert.equal(anonymous.location, `/login?next=${encodeURIComponent(path)}`);
      assert.equal((await owner.login('user1@example.com', '1234')).status, 302);
      const other = await owner.get(path);
      assert.equal(other.status, 400);
      assert.match(other.text, /This link confirms an address for another account/);
      assert.equal((await users()).includes('owner@example.net'), false, 'nobody holds the address');
      // The account that asked confirms it.
      const confirmed = await asker.get(path);
      assert.equal(confirmed.status, 302);
      assert.ok((await users()).includes('owner@example.net'));
    });
  });
}
