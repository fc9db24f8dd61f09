import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { fastifyCookie } from '@fastify/cookie';
import { newSessionCookie } from './error-pages.ts';

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
