// CSRF tokens on pages that may go out compressed are masked afresh on every answer (BREACH:
// docs/security.md), and a masked token is accepted as the token it hides; a tampered one is not.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { maskCsrfToken, unmaskCsrfToken } from './csrf-tokens.ts';
import { mayCompress } from './compression.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';

describe('masked CSRF tokens', () => {
  it('unmask gives back the token, each mask differs, and an unmasked token passes as it is', () => {
    const token = 'Ab3-salt-Zx9_hash';
    const masks = Array.from({ length: 20 }, () => maskCsrfToken(token));
    assert.equal(new Set(masks).size, 20);
    for (const m of masks) {
      assert.equal(unmaskCsrfToken(m), token);
      assert.equal(m.includes(token), false);
    }
    assert.equal(unmaskCsrfToken(token), token);
    assert.equal(mayCompress('gzip, deflate, br'), true);
    assert.equal(mayCompress('identity'), false);
    assert.equal(mayCompress(undefined), false);
  });

  describe('over HTTP', () => {
    let server: TestServer;
    before(async () => { server = await startTestServer({ seed: true, env: { ANALYSIS_WORKERS: '0' } }); });
    after(async () => { await server?.close(); });

    const tokenOf = async (client: TestClient, encoding: string): Promise<string> => {
      const page = await client.get('/explore?query=abc', { 'accept-encoding': encoding });
      assert.equal(page.status, 200);
      return /<meta name="csrf-token" content="([^"]+)"/.exec(page.text)![1]!;
    };

    it('shows a different token on every compressible answer, each accepted; a tampered one is refused', async () => {
      const client = new TestClient(server.baseUrl);
      const first = await tokenOf(client, 'gzip, br');
      const second = await tokenOf(client, 'gzip, br');
      assert.notEqual(first, second);
      assert.ok(first.includes('.') && second.includes('.'), 'masked');
      const plain = await tokenOf(client, 'identity');
      assert.equal(unmaskCsrfToken(first), plain, 'the same token under its masks');
      for (const token of [first, second, plain]) {
        const res = await client.post('/login', { form: { email: 'user1@example.com', password: 'wrong', csrf_token: token } });
        assert.notEqual(res.status, 400, `the token ${token} is accepted (a wrong password is no CSRF refusal)`);
      }
      const [pad, masked] = first.split('.');
      const tampered = `${pad}.${masked!.slice(0, -2)}${masked!.endsWith('AA') ? 'BB' : 'AA'}`;
      const refused = await client.post('/login', { form: { email: 'user1@example.com', password: 'wrong', csrf_token: tampered } });
      assert.equal(refused.status, 400);
    });
  });
});
