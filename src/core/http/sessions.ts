// Sessions: the cookie, the database store, anonymous sessions without a row (the hint cookie),
// the kept pages and the 404 answered without loading a session (anonymous-answers.ts), and each
// session's CSRF secret.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest, Session } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifySession from '@fastify/session';
import type { Config } from '../config.ts';
import type { Db } from '../db/connect.ts';
import { ANONYMOUS_HINT_COOKIE, CSRF_SESSION_KEY, DatabaseSessionStore, RememberingSigner } from './session-store.ts';
import { SessionIdPool, type NewSession } from './session-ids.ts';
import type { ErrorPages } from './error-pages.ts';
import { anonymousKeptAnswers, HINT_COOKIE_OPTIONS } from './anonymous-answers.ts';
import { CsrfTokens } from './csrf-tokens.ts';
import { ANONYMOUS_SESSION_MS } from './context.ts';
import { cookieIsSecure, fixedCookie, registerCookieSecurity } from './cookie-security.ts';
import { installSessionFingerprint } from './session-fingerprint.ts';

/**
 * A session cookie `secure` value that @fastify/session does not read as "HTTPS only, else
 * withhold the cookie" (it compares with `true`), and that the cookie serializer, which tests for
 * a truthy value, writes as the Secure attribute. The production test of the session cookie
 * (auth.routes.test.ts) fails if either library changes that.
 */
const SECURE_OVER_ANY_CONNECTION = 'always' as unknown as boolean;

export interface Sessions {
  store: DatabaseSessionStore;
  csrfTokens: CsrfTokens;
  /**
   * The CSRF secret of the request's session, given to it now when it is new (its first page
   * shows a token, so the answer sets the session's cookie); `undefined` without a session.
   */
  csrfSecretOf(request: FastifyRequest): string | undefined;
}

/** Registers the cookie and session plugins and their hooks; the early 404 (anonymous-answers.ts) answers with `errorPages`. */
export async function registerSessions(app: FastifyInstance, config: Config, db: Db, errorPages: ErrorPages): Promise<Sessions> {
  await app.register(fastifyCookie);
  registerCookieSecurity(app, config.env === 'production');
  const store = new DatabaseSessionStore(db, config.secretKey);
  // A new session's cookie, as the session plugin writes it and as the early answers do.
  // Anonymous sessions are short; login makes the session a remembered one (rememberSession).
  const sessionCookie = { path: '/', httpOnly: true, sameSite: 'lax' as const, maxAge: ANONYMOUS_SESSION_MS };
  // @fastify/session wants at least 32 characters; any SECRET_KEY is stretched to that.
  const signer = new RememberingSigner(createHash('sha256').update(config.secretKey).digest('hex'));
  const csrfTokens = new CsrfTokens();
  const sessionIds = new SessionIdPool<NewSession>((sid) => ({
    sid,
    signed: signer.prepare(sid),
    csrfToken: csrfTokens.prepare(store.prepareAnonymousCsrfSecret(sid)),
  }));
  app.addHook('onRequest', anonymousKeptAnswers(errorPages, {
    store,
    signer,
    csrf: csrfTokens,
    newSession: () => sessionIds.take(),
    cookie: { ...sessionCookie, secure: config.env === 'production' ? SECURE_OVER_ANY_CONNECTION : false },
  }));
  watchSessionHints(app, store);
  if (config.env === 'production') markCookiesSecure(app);
  installSessionFingerprint();
  await app.register(fastifySession, {
    secret: signer,
    cookieName: 'session',
    store,
    saveUninitialized: false,
    rolling: false,
    idGenerator: () => sessionIds.take().sid,
    cookie: {
      ...sessionCookie,
      // Production marks every session's cookie Secure in the onSend hook (markCookiesSecure),
      // restored sessions included (SECURE_OVER_ANY_CONNECTION).
      secure: false,
    },
  });
  writeSessionHints(app, store);
  // A session loaded from its cookie that holds no CSRF secret (a row written without one) gets the
  // one derived from its id. A new session gets it only when something needs it (csrfSecretOf): an
  // answer that shows no form (a search's JSON, a download, a redirect) then sets no cookie at all.
  app.addHook('onRequest', (request, _reply, done) => {
    const session = request.session;
    if (!session?.sessionId) return done();
    if (isNewSession(request)) store.markNew(session);
    else store.deriveCsrfSecret(session);
    done();
  });
  const csrfSecretOf = (request: FastifyRequest): string | undefined => {
    const session = request.session;
    if (!session?.sessionId) return undefined;
    store.deriveCsrfSecret(session);
    const secret = (session as unknown as Record<string, unknown>)[CSRF_SESSION_KEY];
    return typeof secret === 'string' ? secret : undefined;
  };
  return { store, csrfTokens, csrfSecretOf };
}

/** The request carried no cookie of its session: the session plugin made it for this request. */
function isNewSession(request: FastifyRequest): boolean {
  return request.cookies.session !== request.session.encryptedSessionId;
}

/**
 * The hint cookie of a session without a row (session-store.ts): its load reads nothing.
 * After the early answers (anonymous-answers.ts), which load no session and so need no hint noted.
 */
function watchSessionHints(app: FastifyInstance, store: DatabaseSessionStore): void {
  const hintedSid = (request: FastifyRequest): string | undefined => {
    // An asset answered before the cookie plugin ran has no cookies parsed.
    const cookie = request.cookies?.session;
    if (!cookie || request.cookies[ANONYMOUS_HINT_COOKIE] !== '1') return undefined;
    const dot = cookie.lastIndexOf('.');
    return dot > 0 ? cookie.slice(0, dot) : undefined;
  };
  app.addHook('onRequest', (request, _reply, done) => {
    const sid = hintedSid(request);
    if (sid !== undefined) store.expectNoRow(sid);
    done();
  });
  app.addHook('onResponse', (request, _reply, done) => {
    const cookie = request.cookies?.session;
    const dot = cookie ? cookie.lastIndexOf('.') : -1;
    if (dot > 0) store.forgetHint(cookie!.slice(0, dot));
    done();
  });
}

/**
 * Decisions section 3: the session cookie is Secure in production. Like Flask's
 * SESSION_COOKIE_SECURE, it is always sent with the flag and the browser enforces it. The
 * plugin sends no cookie at all over plain HTTP when `secure` is `true`, so that a login could
 * never work there; given this marker it writes the flag and still sends the cookie. Registered
 * before the plugin so that it runs before the plugin saves the session, on the session the
 * request ends with (a login replaces it).
 */
function markCookiesSecure(app: FastifyInstance): void {
  app.addHook('onSend', (request, _reply, payload, done) => {
    const cookie = (request.session as Partial<Session> | null | undefined)?.cookie;
    if (cookie) cookie.secure = SECURE_OVER_ANY_CONNECTION;
    done(null, payload);
  });
}

/** After the plugin has saved the session: the hint follows whether a row is left. */
function writeSessionHints(app: FastifyInstance, store: DatabaseSessionStore): void {
  const setHintCookie = fixedCookie(ANONYMOUS_HINT_COOKIE, HINT_COOKIE_OPTIONS);
  app.addHook('onSend', (request, reply, payload, done) => {
    const write = store.writeOf(request.session);
    if (write === undefined) return done(null, payload);
    const hinted = request.cookies?.[ANONYMOUS_HINT_COOKIE] === '1';
    if (write === 'rowless' && !hinted) {
      setHintCookie(request, reply, '1');
    } else if (write === 'row' && hinted) {
      reply.clearCookie(ANONYMOUS_HINT_COOKIE, { path: '/', secure: cookieIsSecure(request) });
    }
    done(null, payload);
  });
}
