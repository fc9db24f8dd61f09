// @fastify/session decides whether a session must be saved by comparing a fingerprint of its
// data taken when it was built with one taken when the answer goes out: the SHA-256 of its
// stable JSON (the cookie left out). Comparing that JSON itself gives the same answer without the
// digest: a hash object made and finished twice on every page with a session, about a twentieth
// of a returning visitor's kept DOI page (measured in bench:ceiling). The library keeps the
// method under a private symbol of its Session class; it is found by its name, and
// session-fingerprint.test.ts fails if the library no longer has it or answers differently.
import { createRequire } from 'node:module';
import { configure } from 'safe-stable-stringify';

const require = createRequire(import.meta.url);
// The library's own serializer settings, so that what counts as the same data does not change.
const stableJson = configure({ bigint: false });

interface SessionClass {
  prototype: Record<symbol, unknown>;
}

/** The library's Session class (not exported by its entry point). */
export function librarySessionClass(): SessionClass {
  return require('@fastify/session/lib/session.js') as SessionClass;
}

/** The fingerprint method's symbol on the Session prototype, or undefined when the library has none. */
export function fingerprintSymbol(session: SessionClass = librarySessionClass()): symbol | undefined {
  return Object.getOwnPropertySymbols(session.prototype).find((s) => s.description === 'hash' && typeof session.prototype[s] === 'function');
}

/**
 * The session's data as stable JSON, the cookie left out: equal exactly when the library's digests
 * are (its digest is of this text). The cookie is set to undefined on a shallow copy, which the
 * serializer leaves out as the library's replacer does, without calling a replacer for every key.
 */
export function sessionFingerprint(this: Record<string, unknown>): string {
  return stableJson({ ...this, cookie: undefined }) ?? '';
}

let installed = false;

/** Replaces the library's digest by the JSON it digests; throws when the library changed shape. */
export function installSessionFingerprint(): void {
  if (installed) return;
  const session = librarySessionClass();
  const symbol = fingerprintSymbol(session);
  if (symbol === undefined) throw new Error('@fastify/session: its Session class no longer has the fingerprint method this hub replaces (session-fingerprint.ts)');
  session.prototype[symbol] = sessionFingerprint;
  installed = true;
}
