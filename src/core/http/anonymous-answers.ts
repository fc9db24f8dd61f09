// Pages kept for visitors who are not logged in, answered before the session plugin. Such a
// visitor's session is only its signed id and the CSRF secret derived from it (session-store.ts),
// so a page kept rendered (reusable-page.ts) can be answered from the cookie plugin's work alone,
// with the cookies the session plugin would set, before the session plugin and every later hook
// run. Two kinds of page are answered so: the unknown address's 404 (a crawler's stream of them
// costs little more than a static file), and a route's own kept page, which the route offers
// through its `keptAnswer` option (the DOI page). Anything else (a session with a row, a cookie
// that fails its signature, an API client, a page not kept) goes on to the plugin and the route.
import { fastifyCookie } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { ANONYMOUS_SESSION_MS } from './context.ts';
import { cookieIsSecure } from './cookie-security.ts';
import type { ReusablePage } from './reusable-page.ts';
import { shownCsrfToken, type CsrfTokens } from './csrf-tokens.ts';
import type { NewSession } from './session-ids.ts';
import { ANONYMOUS_HINT_COOKIE, type DatabaseSessionStore, type RememberingSigner } from './session-store.ts';
import { NOT_FOUND_MESSAGE, wantsJson, type ErrorPages } from './error-pages.ts';

/** A kept page with the values of its slots (the CSRF token's excepted, which is filled here). */
export interface KeptAnswer {
  page: ReusablePage;
  values?: Readonly<Record<string, string | number>>;
  status?: number;
}

/**
 * A route's kept page for a visitor who is not logged in, or undefined when it has none current
 * (the route then answers as always). It may set headers on the reply and mark the answer as
 * countable (tracking.ts), but only when it gives an answer.
 */
export type KeptAnswerSource = (request: FastifyRequest, reply: FastifyReply) => KeptAnswer | undefined | Promise<KeptAnswer | undefined>;

export interface AnonymousSessions {
  store: DatabaseSessionStore;
  signer: RememberingSigner;
  csrf: CsrfTokens;
  newSession: () => NewSession;
  /** The options @fastify/session writes a new session's cookie with (its expiry is added here). */
  cookie: { path: string; httpOnly: boolean; sameSite: 'lax'; secure: boolean; maxAge: number };
}

/**
 * A visitor whose session has no row: a first visit, whose session is made only once there is a
 * page to show, or a returning one, whose signed cookie carried the hint.
 */
type AnonymousVisitor = { kind: 'first' } | { kind: 'returning'; csrfToken: string };

/**
 * The hook: registered after the cookie plugin and before the session plugin. A GET or HEAD of
 * an unknown address (HTML, not JSON), or of a route with `keptAnswer`, by a first visit or a
 * session without a row (its hint cookie).
 */
export function anonymousKeptAnswers(errorPages: ErrorPages, sessions: AnonymousSessions): onRequestHookHandler {
  const { maxAge, ...cookieOptions } = sessions.cookie;
  // The hint cookie never changes: serialized once for each scheme.
  const hintCookie = (secure: boolean) => serializeCookie(ANONYMOUS_HINT_COOKIE, '1', { ...HINT_COOKIE_OPTIONS, secure });
  const hintCookies = [hintCookie(false), hintCookie(true)];
  const sessionCookie = newSessionCookie(cookieOptions, maxAge);

  const notFound: KeptAnswerSource = (_request, reply) => {
    const page = errorPages.kept(reply, 404, NOT_FOUND_MESSAGE);
    if (page !== undefined) return { page, status: 404 };
    return errorPages.reusable(reply, 404, NOT_FOUND_MESSAGE).then((made) => ({ page: made, status: 404 }));
  };

  const send = (request: FastifyRequest, reply: FastifyReply, visitor: AnonymousVisitor, kept: KeptAnswer): void => {
    let token: string;
    if (visitor.kind === 'first') {
      const fresh = sessions.newSession();
      // What @fastify/session would write for a new session, and the hint its answer sets.
      reply.header('set-cookie', [sessionCookie(fresh.signed), hintCookies[cookieIsSecure(request) ? 1 : 0]!]);
      token = fresh.csrfToken;
    } else {
      token = visitor.csrfToken;
    }
    reply.code(kept.status ?? 200).type('text/html; charset=utf-8');
    // Masked when the answer may go out compressed (BREACH), as on every page (csrf-tokens.ts).
    reply.send(kept.page.fill({ ...kept.values, csrf_token: shownCsrfToken(request.headers['accept-encoding'], token) }));
  };

  return (request, reply, done) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return done();
    // A known address asked with a method it does not offer is the not-found handler's 405.
    const source = request.is404
      ? (wantsJson(request) || errorPages.routes.allowed(request.url).length > 0 ? undefined : notFound)
      : request.routeOptions.config?.keptAnswer;
    // An address holding a NUL is refused (400) by a later hook.
    if (source === undefined || /%00/i.test(request.url)) return done();
    const visitor = anonymousVisitor(request, sessions);
    if (visitor === undefined) return done();
    let answer: ReturnType<KeptAnswerSource>;
    try {
      answer = source(request, reply);
    } catch {
      // The route's own path meets the same failure and answers it as it always does.
      return done();
    }
    const sendOrGoOn = (kept: KeptAnswer | undefined): void => {
      if (kept === undefined) return done();
      send(request, reply, visitor, kept);
    };
    if (answer instanceof Promise) answer.then(sendOrGoOn, () => done());
    else sendOrGoOn(answer);
  };
}

/** The visitor's session when it has no row: a first visit, or a signed cookie with the hint. */
function anonymousVisitor(request: FastifyRequest, sessions: AnonymousSessions): AnonymousVisitor | undefined {
  const cookie = request.cookies.session;
  const hinted = request.cookies[ANONYMOUS_HINT_COOKIE] === '1';
  if (!cookie) return { kind: 'first' };
  if (!hinted) return undefined;
  const verified = sessions.signer.unsign(cookie);
  if (!verified.valid || verified.renew || !verified.value) return undefined;
  return { kind: 'returning', csrfToken: sessions.csrf.tokenFor(sessions.store.anonymousCsrfSecret(verified.value)) };
}

const serializeCookie = fastifyCookie.serialize;

/**
 * The Set-Cookie text of a new session, as the cookie serializer writes it with an expiry of
 * `maxAge` (whole seconds, in ms) from now. Cookies differ from one another only in their value
 * and, once a second, their expiry: the attributes are serialized once a second and the encoded
 * value put before them.
 */
export function newSessionCookie(options: Omit<AnonymousSessions['cookie'], 'maxAge'>, maxAge: number): (signed: string, now?: number) => string {
  let attributesSecond = -1;
  let attributes = '';
  return (signed, now = Date.now()) => {
    const second = Math.floor(now / 1000);
    if (second !== attributesSecond) {
      attributesSecond = second;
      attributes = serializeCookie('session', '', { ...options, expires: new Date(second * 1000 + maxAge) }).slice('session='.length);
    }
    return `session=${encodeURIComponent(signed)}${attributes}`;
  };
}

/** The hint cookie lives as long as the anonymous session it describes. */
export const HINT_COOKIE_OPTIONS = { path: '/', httpOnly: true, sameSite: 'lax' as const, maxAge: ANONYMOUS_SESSION_MS / 1000 };

