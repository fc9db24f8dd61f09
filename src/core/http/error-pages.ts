// Error answers: JSON for API clients, an HTML page (with the layout) for everyone else, and the
// unknown address of an anonymous visitor answered before the session plugin.
import { fastifyCookie } from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { ANONYMOUS_SESSION_MS } from './context.ts';
import { cookieIsSecure } from './cookie-security.ts';
import { HttpError } from './errors.ts';
import { TooManyJobs } from '../scheduler/index.ts';
import { ReusablePageCache, type ReusablePage } from './reusable-page.ts';
import type { CsrfTokens } from './csrf-tokens.ts';
import type { NewSession } from './session-ids.ts';
import { ANONYMOUS_HINT_COOKIE, type DatabaseSessionStore, type RememberingSigner } from './session-store.ts';

function wantsJson(request: FastifyRequest): boolean {
  if (request.routeOptions.config?.json) return true;
  if (/^\/(api|modeltool|file)\//.test(request.url)) return true;
  const accept = request.headers.accept ?? '';
  return accept.includes('application/json') && !accept.includes('text/html');
}

/**
 * The multipart parser's (@fastify/busboy) answers to a body that ends before its closing boundary
 * or names no boundary: the client's fault, thrown as plain errors without a status.
 */
const MALFORMED_MULTIPART = /^(Multipart: Boundary not found|Unexpected end of multipart data|\w+ terminated early due to unexpected end of multipart data)$/;

const NOT_FOUND_MESSAGE = 'The page you asked for does not exist.';

/** Error pages kept for visitors who are not logged in: a bot's stream of 404s costs no rendering. */
export class ErrorPages {
  private readonly pages = new ReusablePageCache(64);

  /** The page's own path shows only as the active navigation entry, so only those paths are part of the key. */
  constructor(private readonly navPaths: Set<string>) {}

  async render(reply: FastifyReply, status: number, message: string): Promise<unknown> {
    try {
      if (reply.pageIsReusable()) return reply.sendReusablePage(await this.reusable(reply, status, message));
      return await reply.page('errors/error.njk', { status, message });
    } catch {
      // The layout itself failed (a broken template, the session store down): a bare page, still no stack trace.
      reply.type('text/html; charset=utf-8');
      return `<!doctype html><title>Error ${status}</title><h1>Error ${status}</h1><p>${status >= 500 ? 'Something went wrong.' : 'Request refused.'}</p>`;
    }
  }

  /** The page kept for this answer, if it was rendered before. */
  kept(reply: FastifyReply, status: number, message: string): ReusablePage | undefined {
    return this.pages.get(this.keyOf(reply, status, message));
  }

  async reusable(reply: FastifyReply, status: number, message: string): Promise<ReusablePage> {
    const key = this.keyOf(reply, status, message);
    let page = this.pages.get(key);
    if (page === undefined) {
      page = await reply.renderReusablePage('errors/error.njk', { status, message });
      this.pages.set(key, page);
    }
    return page;
  }

  private keyOf(reply: FastifyReply, status: number, message: string): string {
    const path = reply.request.url.split('?')[0]!;
    return `${status}\n${message}\n${this.navPaths.has(path) ? path : ''}`;
  }

  install(app: FastifyInstance): void {
    app.setErrorHandler(async (error: Error & { statusCode?: number; code?: string; validation?: unknown }, request, reply) => {
      let status = 500;
      let message = 'Something went wrong on our side. The error was logged.';
      let body: Record<string, unknown> | undefined;
      if (error instanceof HttpError) {
        status = error.status;
        message = error.message;
        body = error.body;
      } else if (error instanceof TooManyJobs) {
        // A requester's share of heavy work is taken (extensions section 10): it may ask again shortly.
        status = 429;
        message = error.message;
        body = { message };
        reply.header('retry-after', String(error.retryAfterS));
      } else if (error.code?.startsWith('FST_CSRF_')) {
        status = 400;
        message = 'The form has expired or its CSRF token is missing. Reload the page and try again.';
      } else if (MALFORMED_MULTIPART.test(error.message) && request.isMultipart()) {
        status = 400;
        message = 'The multipart body is malformed (it ends early or has no boundary).';
      } else if (error.validation) {
        status = 400;
        message = error.message;
      } else if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
        // Fastify's own client errors (body too large, bad content type, malformed JSON) carry safe messages.
        status = error.statusCode;
        message = error.message;
      }
      if (status >= 500) request.log.error({ err: error }, 'request failed');
      else request.log.info({ status, code: (error as HttpError).code }, message);
      reply.code(status);
      if (wantsJson(request)) return reply.send(body ?? (status >= 500 ? { error: message } : { message }));
      return this.render(reply, status, message);
    });

    app.setNotFoundHandler(async (request, reply) => {
      reply.code(404);
      if (wantsJson(request)) return reply.send({ message: 'Not found' });
      return this.render(reply, 404, NOT_FOUND_MESSAGE);
    });
  }
}

export interface AnonymousSessions {
  store: DatabaseSessionStore;
  signer: RememberingSigner;
  csrf: CsrfTokens;
  newSession: () => NewSession;
  /** The options @fastify/session writes a new session's cookie with (its expiry is added here). */
  cookie: { path: string; httpOnly: boolean; sameSite: 'lax'; secure: boolean; maxAge: number };
}

/**
 * The 404 page of a visitor who is not logged in: a first visit, or a session without a row (its
 * hint cookie, http/session-store.ts). Such a session is only its signed id and the CSRF secret
 * derived from it, so this hook answers the page as the not-found handler would, with the same
 * cookies, before the session plugin and every later hook run: a crawler's stream of unknown
 * addresses costs little more than a static file. Registered after the cookie plugin and before
 * the session plugin; anything else (a session with a row, a cookie that fails its signature,
 * an API client) goes on to the plugin and the not-found handler.
 */
export function anonymousNotFound(errorPages: ErrorPages, sessions: AnonymousSessions): onRequestHookHandler {
  const { maxAge, ...cookieOptions } = sessions.cookie;
  // The hint cookie never changes: serialized once for each scheme.
  const hintCookie = (secure: boolean) => serializeCookie(ANONYMOUS_HINT_COOKIE, '1', { ...HINT_COOKIE_OPTIONS, secure });
  const hintCookies = [hintCookie(false), hintCookie(true)];
  const sessionCookie = newSessionCookie(cookieOptions, maxAge);
  return (request, reply, done) => {
    // An address holding a NUL is refused (400) by a later hook.
    if (!request.is404 || (request.method !== 'GET' && request.method !== 'HEAD') || wantsJson(request) || /%00/i.test(request.url)) return done();
    const cookie = request.cookies.session;
    const hinted = request.cookies[ANONYMOUS_HINT_COOKIE] === '1';
    let csrfToken: string;
    let signed: string | undefined;
    if (cookie) {
      if (!hinted) return done();
      const verified = sessions.signer.unsign(cookie);
      if (!verified.valid || verified.renew || !verified.value) return done();
      csrfToken = sessions.csrf.tokenFor(sessions.store.anonymousCsrfSecret(verified.value));
    } else {
      ({ signed, csrfToken } = sessions.newSession());
    }
    const answer = (page: ReusablePage): void => {
      if (signed !== undefined) {
        // What @fastify/session would write for a new session, and the hint its answer sets.
        const session = sessionCookie(signed);
        reply.header('set-cookie', hinted ? session : [session, hintCookies[cookieIsSecure(request) ? 1 : 0]!]);
      }
      reply.code(404).type('text/html; charset=utf-8');
      reply.send(page.fill({ csrf_token: csrfToken }));
    };
    const page = errorPages.kept(reply, 404, NOT_FOUND_MESSAGE);
    if (page !== undefined) return answer(page);
    errorPages.reusable(reply, 404, NOT_FOUND_MESSAGE).then(answer, done);
  };
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

