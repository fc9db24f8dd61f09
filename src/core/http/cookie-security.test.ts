// Extensions section 9: in production every cookie the hub sets carries Secure, whatever the
// request's scheme or X-Forwarded-Proto. Common pages are walked over plain HTTP, as a visitor,
// as a logged-in person and through the early 404, and every Set-Cookie is checked.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient, type TestResponse } from '../../../test/support/client.ts';
import { fastifyCookie } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fixedCookie } from './cookie-security.ts';

describe('cookies in production', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ seed: true, env: { FLASK_ENV: 'production', SECRET_KEY: 'a-production-secret-key-long-enough-for-sessions' } });
  });
  after(async () => { await server?.close(); });

  test('every Set-Cookie on common pages over plain http is Secure', async () => {
    const seen: string[] = [];
    const check = (path: string, res: TestResponse): void => {
      for (const raw of res.setCookies.values()) {
        seen.push(raw);
        assert.match(raw, /;\s*Secure/i, `${path}: ${raw}`);
      }
    };
    const row = await server.hub.db.selectFrom('file').select(['id']).executeTakeFirstOrThrow();
    const doi = await server.hub.db.selectFrom('ds_meta_data').select('dataset_doi').where('dataset_doi', 'is not', null).executeTakeFirstOrThrow();
    const dataset = await server.hub.db.selectFrom('data_set').select('id').executeTakeFirstOrThrow();
    const walk = async (client: TestClient, headers: Record<string, string> = {}): Promise<void> => {
      for (const path of ['/', '/no/such/page', '/no/such/page/again', '/explore', '/login', '/signup/', '/forgot-password',
        `/doi/${doi.dataset_doi}/`, `/file/view/${row.id}`, `/file/download/${row.id}`, `/dataset/download/${dataset.id}`, '/static/js/hub.js']) {
        check(path, await client.get(path, headers));
      }
    };
    // A first visitor: the early 404 answers before the session plugin.
    const firstVisit = new TestClient(server.baseUrl);
    check('/no/such/first', await firstVisit.get('/no/such/first'));
    await walk(firstVisit);
    // A visitor whose proxy says plain http.
    await walk(new TestClient(server.baseUrl), { 'x-forwarded-proto': 'http' });
    // A person who logs in, browses and logs out.
    const person = new TestClient(server.baseUrl);
    check('/login', await person.get('/login'));
    check('POST /login', await person.post('/login', { form: { email: 'user1@example.com', password: '1234' } }));
    await walk(person);
    check('/dataset/list', await person.get('/dataset/list'));
    check('/logout', await person.get('/logout'));
    const names = new Set(seen.map((raw) => raw.slice(0, raw.indexOf('='))));
    for (const name of ['session', 'session_anonymous', 'view_cookie', 'download_cookie', 'file_download_cookie']) {
      assert.ok(names.has(name), `the walk saw the cookie ${name} (saw ${[...names].join(', ')})`);
    }
  });
});

describe('cookies serialized once', () => {
  test('a fixed cookie is written as reply.setCookie writes it, Secure by the same rule', () => {
    const options = { maxAge: 63072000, path: '/', httpOnly: true, sameSite: 'lax' as const };
    const write = fixedCookie('view_cookie', options);
    const cases: [boolean, string, boolean][] = [[false, 'http', false], [false, 'https', true], [true, 'http', true]];
    for (const [production, protocol, secure] of cases) {
      const headers: string[] = [];
      const request = { server: { cookiesAlwaysSecure: production }, protocol } as unknown as FastifyRequest;
      const reply = { header: (name: string, value: string) => { assert.equal(name, 'set-cookie'); headers.push(value); } } as unknown as FastifyReply;
      write(request, reply, 'a1b2c3d4-0000-4000-8000-000000000000');
      assert.deepEqual(headers, [fastifyCookie.serialize('view_cookie', 'a1b2c3d4-0000-4000-8000-000000000000', { ...options, secure })], `${production} ${protocol}`);
    }
  });
});
