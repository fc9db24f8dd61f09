// The session fingerprint that replaces @fastify/session's digest (session-fingerprint.ts): the
// library must still have the method, and two sessions must be "the same" for the replacement
// exactly when the library's own digests are equal, whatever the data and the cookie hold.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fingerprintSymbol, librarySessionClass, sessionFingerprint } from './session-fingerprint.ts';

type Data = Record<string, unknown>;

describe('session fingerprint', () => {
  const session = librarySessionClass();
  const symbol = fingerprintSymbol(session);

  it('finds the method it replaces in @fastify/session', () => {
    assert.ok(symbol, 'the Session class has no fingerprint method');
  });

  // The library's digest as shipped: this file installs nothing (each test file runs in its own process).
  const libraryDigest = (data: Data): unknown => {
    const method = session.prototype[symbol!] as (this: Data) => unknown;
    assert.notEqual(method, sessionFingerprint, 'the replacement is installed: the library digest is not at hand');
    return method.call(data);
  };

  const cases: Data[] = [
    {},
    { cookie: { maxAge: 1 } },
    { cookie: { maxAge: 2 } },
    { csrfSecret: 'a' },
    { csrfSecret: 'a', cookie: { expires: '2026-01-01' } },
    { csrfSecret: 'b' },
    { userId: 3, csrfSecret: 'a' },
    { csrfSecret: 'a', userId: 3 },
    { flash: [{ kind: 'info', text: 'x' }] },
    { flash: [] },
    { cart: [1, 2, 3] },
    { cart: [1, 2] },
    { nested: { cookie: 'kept inside' } },
    { nested: {} },
    { value: undefined },
    { when: new Date(0) },
  ];

  it('tells two sessions apart exactly when the library does', () => {
    for (const a of cases) {
      for (const b of cases) {
        const library = libraryDigest(a) === libraryDigest(b);
        const ours = sessionFingerprint.call(a) === sessionFingerprint.call(b);
        assert.equal(ours, library, `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
      }
    }
  });

  it('sees a change of the data but not of the cookie', () => {
    const data: Data = { csrfSecret: 'a', cookie: { maxAge: 1 } };
    const before = sessionFingerprint.call(data);
    (data.cookie as Data).maxAge = 5;
    assert.equal(sessionFingerprint.call(data), before);
    data.userId = 7;
    assert.notEqual(sessionFingerprint.call(data), before);
  });
});
