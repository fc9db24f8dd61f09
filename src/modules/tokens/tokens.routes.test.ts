// Personal access tokens (extensions section 3): the /profile/tokens page and Bearer authentication.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { startLoggedHub } from '../../../test/support/logged-hub.ts';
import { newUser } from '../../../test/support/accounts.ts';
import { bearer, createToken } from '../../../test/support/api.ts';

/** The secret part of `hub_<16 hex>_<43 base64url>`; it may itself hold '_', so it is not `split('_').pop()`. */
function secretOf(token: string): string {
  const secret = token.slice('hub_'.length + 16 + 1);
  assert.equal(secret.length, 43);
  return secret;
}

for (const dialect of testDialects()) {
  describe(`personal access tokens [${dialect.name}]`, () => {
    let server: TestServer;
    before(async () => { server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true }); });
    after(async () => { await server?.close(); });

    const rows = (userId: number) => server.hub.db.selectFrom('api_token').selectAll().where('user_id', '=', userId).execute();

    it('sends anonymous visitors to the login form, and needs the CSRF token to create or revoke', async () => {
      const anonymous = new TestClient(server.baseUrl);
      const page = await anonymous.get('/profile/tokens');
      assert.equal(page.status, 302);
      assert.match(page.location!, /^\/login/);
      const { client, userId } = await newUser(server);
      const refused = await client.post('/profile/tokens', { form: { name: 'x', scopes: 'read', expires_in_days: '5' }, csrf: false });
      assert.equal(refused.status, 400);
      assert.equal((await rows(userId)).length, 0);
    });

    it('creates a token shown once in #new-token, stored only as a hash, listed with its last use', async () => {
      const { client, userId } = await newUser(server);
      const token = await createToken(client, ['read', 'write'], 'My CI job', '7');
      assert.match(token, /^hub_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
      const [row] = await rows(userId);
      assert.ok(row);
      assert.equal(row.name, 'My CI job');
      assert.equal(row.scopes, 'read write');
      assert.ok(!JSON.stringify(row).includes(secretOf(token)), 'the secret is not stored');
      const days = (Date.parse(row.expires_at) - Date.parse(row.created_at)) / 86_400_000;
      assert.equal(Math.round(days), 7);
      const listed = await client.get('/profile/tokens');
      assert.ok(!listed.text.includes(token), 'shown once only');
      assert.ok(!listed.text.includes('id="new-token"'));
      assert.match(listed.text, /My CI job/);
      assert.match(listed.text, /class="last-used">never</);
      assert.equal(listed.headers.get('cache-control'), 'no-store');
      const used = await bearer(server.baseUrl, token, 'GET', '/api/v1/datasets/');
      assert.equal(used.status, 200);
      assert.ok((await rows(userId))[0]!.last_used_at, 'the use is recorded');
      assert.doesNotMatch((await client.get('/profile/tokens')).text, /class="last-used">never</);
    });

    it('refuses a bad form with the fields named (400) and keeps nothing', async () => {
      const { client, userId } = await newUser(server);
      await client.get('/profile/tokens');
      for (const [form, field] of [
        [{ name: '', scopes: 'read', expires_in_days: '5' }, 'name'],
        [{ name: 'x', expires_in_days: '5' }, 'scopes'],
        [{ name: 'x', scopes: 'admin', expires_in_days: '5' }, 'scopes'],
        [{ name: 'x', scopes: 'read', expires_in_days: '0' }, 'expires_in_days'],
        [{ name: 'x', scopes: 'read', expires_in_days: '366' }, 'expires_in_days'],
        [{ name: 'x', scopes: 'read', expires_in_days: 'soon' }, 'expires_in_days'],
        [{ name: 'x'.repeat(101), scopes: 'read', expires_in_days: '5' }, 'name'],
      ] as const) {
        const res = await client.post('/profile/tokens', { form: { ...form } });
        assert.equal(res.status, 400, JSON.stringify(form));
        assert.match(res.text, new RegExp(`id="${field}-errors"`), JSON.stringify(form));
        assert.ok(!res.text.includes('id="new-token"'));
      }
      assert.equal((await rows(userId)).length, 0);
    });

    it('a revoked token and an expired token answer 401; revoking someone else\'s token does nothing', async () => {
      const { client, userId } = await newUser(server);
      const revoked = await createToken(client, ['read', 'write'], 'to revoke');
      const expired = await createToken(client, ['read', 'write'], 'to expire');
      const all = await rows(userId);
      const revokedId = all.find((r) => r.name === 'to revoke')!.id;
      const other = await newUser(server);
      await other.client.get('/profile/tokens');
      await other.client.post(`/profile/tokens/${revokedId}/revoke`, { form: {} });
      assert.equal((await bearer(server.baseUrl, revoked, 'GET', '/api/v1/datasets/')).status, 200, 'another user cannot revoke it');
      await client.get('/profile/tokens');
      const res = await client.post(`/profile/tokens/${revokedId}/revoke`, { form: {} });
      assert.equal(res.status, 302);
      assert.equal(res.location, '/profile/tokens');
      assert.match((await client.get('/profile/tokens')).text, /Revoked/);
      await server.hub.db.updateTable('api_token').set({ expires_at: '2020-01-01T00:00:00.000Z' }).where('name', '=', 'to expire').where('user_id', '=', userId).execute();
      for (const [token, message] of [[revoked, /revoked/], [expired, /expired/]] as const) {
        for (const [method, path, body] of [['GET', '/api/v1/datasets/'], ['POST', '/api/v1/datasets/', { name: 'x' }]] as const) {
          const answer = await bearer(server.baseUrl, token, method, path, body);
          assert.equal(answer.status, 401, `${method} ${path}`);
          assert.match(answer.json.message, message);
        }
      }
      assert.match((await client.get('/profile/tokens')).text, /Expired/);
    });

    it('answers 401 to an unknown, malformed or wrongly sent token, and leaves other Authorization users alone', async () => {
      const { client } = await newUser(server);
      const token = await createToken(client, ['read']);
      const forged = token.slice(0, -4) + (token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
      for (const header of [`Bearer ${forged}`, 'Bearer hub_nothing', `Token ${token}`, token, 'Bearer']) {
        const res = await fetch(`${server.baseUrl}/api/v1/datasets/`, { headers: { authorization: header } });
        assert.equal(res.status, 401, header.slice(0, 12));
        assert.equal(typeof (await res.json()).message, 'string');
      }
      // Pages ignore the header: only /api/v1 takes tokens.
      const page = await fetch(`${server.baseUrl}/explore`, { headers: { authorization: 'Bearer whatever' } });
      assert.equal(page.status, 200);
    });

    it('reads the scheme "Bearer" in any case, as HTTP authentication schemes are (RFC 9110, 11.1)', async () => {
      const { client } = await newUser(server);
      const token = await createToken(client, ['read', 'write']);
      for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
        const res = await fetch(`${server.baseUrl}/api/v1/datasets/`, {
          method: 'POST', headers: { authorization: `${scheme} ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: `By ${scheme}` }),
        });
        assert.equal(res.status, 201, scheme);
      }
    });

    it('refuses a change by a read-only token with 403 before its body is read, whatever the body', async () => {
      const { client } = await newUser(server);
      const readOnly = await createToken(client, ['read']);
      const id = (await bearer(server.baseUrl, await createToken(client, ['read', 'write']), 'POST', '/api/v1/datasets/', { name: 'Mine' })).json.id;
      for (const [method, path] of [['POST', '/api/v1/datasets/'], ['PUT', `/api/v1/datasets/${id}`]]) {
        for (const body of ['{"name": ', '{"__proto__": {"x": 1}}', '']) {
          const res = await fetch(`${server.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${readOnly}`, 'content-type': 'application/json' }, body });
          assert.equal(res.status, 403, `${method} ${path} ${JSON.stringify(body)}`);
          assert.match((await res.json()).message, /only the read scope/);
        }
      }
      assert.equal((await bearer(server.baseUrl, readOnly, 'GET', `/api/v1/datasets/${id}`)).status, 200, 'reads pass');
    });

    it('a token wins over a session cookie sent with it, and the browser session works as before', async () => {
      const owner = await newUser(server, 'Owner');
      const readOnly = await createToken(owner.client, ['read']);
      // The session (with its CSRF token) may write; the same request with a read token may not.
      const bySession = await owner.client.post('/api/v1/datasets/', { json: { name: 'By session' } });
      assert.equal(bySession.status, 201);
      const both = await owner.client.post('/api/v1/datasets/', { json: { name: 'Both' }, headers: { authorization: `Bearer ${readOnly}` } });
      assert.equal(both.status, 403);
    });
  });
}

describe('tokens in the logs', () => {
  it('never writes a token, not even a refused one, into the request log', async () => {
    // The app's own logger settings (redaction included), at the most talkative level.
    const logged = await startLoggedHub('trace', 'hub-token-log-');
    const lines = logged.lines;
    try {
      const base = logged.baseUrl;
      const client = new TestClient(base);
      await client.login('user1@example.com', '1234');
      const token = await createToken(client, ['read']);
      await bearer(base, token, 'GET', '/api/v1/datasets/');
      await bearer(base, token, 'POST', '/api/v1/datasets/', { name: 'refused: read only' });
      await bearer(base, `${token}x`, 'GET', '/api/v1/datasets/');
      await bearer(base, token, 'GET', `/api/v1/files/999999?token=${encodeURIComponent('not-a-secret')}`);
      const log = lines.join('');
      assert.ok(lines.length > 5, 'requests were logged');
      assert.match(log, /\/api\/v1\/datasets\//);
      assert.ok(!log.includes(secretOf(token)), 'no token in the logs');
    } finally {
      await logged.close();
    }
  });
});
