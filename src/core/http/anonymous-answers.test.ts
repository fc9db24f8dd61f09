// Answers for visitors who are not logged in, before the session plugin (anonymous-answers.ts):
// the new session's cookie text, and which requests the hook answers and which it passes on.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Fastify, { type FastifyInstance } from 'fastify';
import { fastifyCookie } from '@fastify/cookie';
import { anonymousKeptAnswers, newSessionCookie, type KeptAnswer } from './anonymous-answers.ts';
import { ErrorPages } from './error-pages.ts';
import { ANONYMOUS_HINT_COOKIE, DatabaseSessionStore, RememberingSigner } from './session-store.ts';
import { CsrfTokens, unmaskCsrfToken } from './csrf-tokens.ts';
import { SessionIdPool, type NewSession } from './session-ids.ts';
import { cutAtMarkers, slotMarker } from './reusable-page.ts';
import { connect, type Db } from '../db/connect.ts';

describe('the early 404\'s session cookie', () => {
  // The cookie plugin loads its serializer when it is registered (the app registers it before the early 404).
  before(async () => {
    const app = Fastify();
    await app.register(fastifyCookie);
    await app.ready();
    await app.close();
  });

  it('is the cookie serializer\'s text at every moment, its expiry following the clock across seconds', () => {
    const day = 24 * 60 * 60 * 1000;
    for (const secure of [false, true]) {
      const options = { path: '/', httpOnly: true, sameSite: 'lax' as const, secure };
      const cookie = newSessionCookie(options, day);
      const start = Date.UTC(2026, 10, 26, 3, 0, 0, 400);
      // The same second twice, the next one, a later one, and a clock set back.
      for (const now of [start, start + 500, start + 700, start + 3_000, start - 1_000]) {
        // Signed values hold base64 characters that the serializer encodes (+, /).
        for (const signed of ['abc_DEF-123.sig+nat/ure', 'other.value']) {
          assert.equal(cookie(signed, now), fastifyCookie.serialize('session', signed, { ...options, expires: new Date(now + day) }), `${now} ${signed}`);
        }
      }
    }
  });
});

describe('the kept answers before the session plugin', () => {
  let app: FastifyInstance;
  let db: Db;
  const signer = new RememberingSigner('a-secret-long-enough-for-the-session-signer');
  let store: DatabaseSessionStore;
  const csrf = new CsrfTokens();
  /** Requests that went on past the hook, to the hooks and the route after it. */
  let passedOn = 0;
  /** What the kept route offers: a page, or nothing (then the route answers). */
  let offered: KeptAnswer | undefined;
  const page = cutAtMarkers(`<meta name="csrf-token" content="${slotMarker('csrf_token')}"><p>views ${slotMarker('views')}</p>`);

  before(async () => {
    db = connect('sqlite::memory:');
    store = new DatabaseSessionStore(db, 'the server key');
    const pool = new SessionIdPool<NewSession>((sid) => ({ sid, signed: signer.prepare(sid), csrfToken: csrf.prepare(store.prepareAnonymousCsrfSecret(sid)) }));
    app = Fastify();
    await app.register(fastifyCookie);
    app.addHook('onRequest', anonymousKeptAnswers(new ErrorPages(new Set()), {
      store, signer, csrf, newSession: () => pool.take(),
      cookie: { path: '/', httpOnly: true, sameSite: 'lax', secure: false, maxAge: 86_400_000 },
    }));
    app.addHook('onRequest', (_request, _reply, done) => { passedOn++; done(); });
    app.get('/kept', { config: { keptAnswer: () => offered } }, async () => 'the route');
    app.get('/kept-later', { config: { keptAnswer: async () => offered } }, async () => 'the route');
    app.get('/plain', async () => 'the route');
    await app.ready();
  });
  after(async () => {
    await app?.close();
    await db?.destroy();
  });

  const get = (url: string, cookies: Record<string, string> = {}, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, cookies, headers });
  const tokenOf = (body: string) => /content="([^"]+)"/.exec(body)![1]!;

  it('answers a first visit with the kept page, a new session\'s cookies and its token, before the later hooks', async () => {
    offered = { page, values: { views: 7 } };
    for (const url of ['/kept', '/kept-later']) {
      passedOn = 0;
      const res = await get(url);
      assert.equal(res.statusCode, 200);
      assert.equal(passedOn, 0, 'no later hook ran');
      assert.match(res.body, /<p>views 7<\/p>/);
      const cookies = new Map(res.cookies.map((c) => [c.name, c.value]));
      assert.equal(cookies.get(ANONYMOUS_HINT_COOKIE), '1');
      const sid = signer.unsign(cookies.get('session')!);
      assert.ok(sid.valid && sid.value);
      assert.equal(tokenOf(res.body), csrf.tokenFor(store.anonymousCsrfSecret(sid.value)), 'the token of the session the cookie names');
    }
  });

  it('answers a returning visitor without a row with the token of its own session and sets no cookie', async () => {
    offered = { page, values: { views: 8 } };
    const sid = 'a-returning-visitors-session-id-000000';
    passedOn = 0;
    const res = await get('/kept', { session: signer.sign(sid), [ANONYMOUS_HINT_COOKIE]: '1' });
    assert.equal(passedOn, 0);
    assert.equal(res.cookies.length, 0);
    assert.equal(tokenOf(res.body), csrf.tokenFor(store.anonymousCsrfSecret(sid)));
    // A request that may be answered compressed gets the token masked (BREACH), still the same token.
    const masked = await get('/kept', { session: signer.sign(sid), [ANONYMOUS_HINT_COOKIE]: '1' }, { 'accept-encoding': 'gzip' });
    assert.notEqual(tokenOf(masked.body), tokenOf(res.body));
    assert.equal(unmaskCsrfToken(tokenOf(masked.body)), tokenOf(res.body));
  });

  it('passes on a session with a row, a forged cookie, a route without a kept page, and what is not a GET', async () => {
    offered = { page, values: { views: 9 } };
    const sid = 'a-session-with-a-row-0000000000000000';
    const cases = [
      get('/kept', { session: signer.sign(sid) }),
      get('/kept', { session: `${sid}.forged-signature`, [ANONYMOUS_HINT_COOKIE]: '1' }),
      get('/plain'),
      app.inject({ method: 'POST', url: '/kept' }),
    ];
    passedOn = 0;
    for (const res of await Promise.all(cases)) assert.doesNotMatch(res.body, /views 9/);
    assert.equal(passedOn, 4);
    offered = undefined;
    passedOn = 0;
    const none = await get('/kept');
    assert.equal(none.body, 'the route');
    assert.equal(passedOn, 1);
    assert.equal(none.cookies.length, 0, 'no session is made for an answer that shows no page');
  });
});
