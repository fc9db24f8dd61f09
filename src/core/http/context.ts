// Types that core adds to Fastify's request, reply, session and route config.
import '@fastify/session';
import type { ReusablePage } from './reusable-page.ts';
import type { KeptAnswerSource } from './anonymous-answers.ts';

export interface CurrentUser {
  id: number;
  email: string;
  /** Profile name, for the navigation bar. */
  displayName: string;
  /**
   * Set when a personal access token (not the session) authenticated the request: no CSRF
   * token is asked then, and its scopes decide what it may change (extensions section 3).
   */
  token?: { id: number; scopes: string[] };
}

export interface FlashMessage {
  category: 'success' | 'danger' | 'info' | 'warning';
  message: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The logged-in user, resolved from the session by the auth module; null when anonymous. */
    user: CurrentUser | null;
    /**
     * Checks the CSRF token read from a multipart field (routes with `csrfInMultipart`); with no
     * token, the header is checked. Throws the 400 of decisions section 3 when it does not match.
     */
    checkCsrf(token?: string): Promise<void>;
    /** The multipart CSRF check is still owed by the handler (set by the guard, cleared by checkCsrf). */
    csrfPending: boolean;
  }
  interface FastifyReply {
    /** Renders a page inside the layout, with navigation, flash messages and the CSRF token. */
    page(template: string, data?: Record<string, unknown>): Promise<string>;
    /** Whether this answer may be a reusable page: the visitor is not logged in and has no flash message waiting. */
    pageIsReusable(): boolean;
    /**
     * Renders a page for reuse (http/reusable-page.ts): the CSRF token, and every value the data
     * holds as `slotMarker(name)`, are left as slots. Only for answers where pageIsReusable().
     */
    renderReusablePage(template: string, data?: Record<string, unknown>): Promise<ReusablePage>;
    /** Answers with a reusable page, its slots filled with `values` and a fresh CSRF token. */
    sendReusablePage(page: ReusablePage, values?: Record<string, string | number>): Buffer;
  }
  interface FastifyContextConfig {
    /** Anonymous visitors are redirected to /login (before any CSRF check). */
    loginRequired?: boolean;
    /** Authenticated visitors are redirected to the landing page (login and signup forms). */
    anonymousOnly?: boolean;
    /** Set false on state-changing routes that do not use the session (search, webhook). */
    csrf?: boolean;
    /**
     * A multipart request without the X-CSRFToken header is not refused by the guard: the handler
     * reads the fields before the file and calls request.checkCsrf(<csrf_token field>) (decisions section 3
     * allows the form field, and a multipart body is only read by the handler).
     */
    csrfInMultipart?: boolean;
    /** Errors on this route are answered as JSON rather than an HTML page. */
    json?: boolean;
    /**
     * The key of this JSON route's error bodies when the error brings none of its own: `message`
     * (the default), or `error` where the specification gives the route that shape
     * (`/dataset/file/delete`, decisions section 4), so that all its errors read alike.
     */
    jsonErrorKey?: 'message' | 'error';
    /**
     * The route answers a NUL in its query string itself, in its protocol's own error form
     * (OAI-PMH's badArgument), instead of the hub-wide 400 (nul-refusals.ts).
     */
    nulInQueryAnswered?: boolean;
    /** The route's kept page for a visitor who is not logged in, answered before the session plugin (anonymous-answers.ts). */
    keptAnswer?: KeptAnswerSource;
  }
  interface Session {
    userId?: number;
    /** Profile name shown in the navigation bar, kept in the session to save a query per page. */
    displayName?: string;
    flash?: FlashMessage[];
    _csrf?: string;
  }
}

export function flash(request: import('fastify').FastifyRequest, category: FlashMessage['category'], message: string): void {
  request.session.flash = [...(request.session.flash ?? []), { category, message }];
}

/** A remembered (logged-in) session lasts 30 days (decisions sections 3 and 7). */
export const REMEMBERED_SESSION_MS = 30 * 24 * 60 * 60 * 1000;
/**
 * An anonymous session only carries the CSRF token of the forms; it lasts a day, so that visitors
 * who never log in (crawlers, load) do not leave a database row behind for a month each.
 */
export const ANONYMOUS_SESSION_MS = 24 * 60 * 60 * 1000;

/** Makes the current session a remembered one (login and signup). */
export function rememberSession(request: import('fastify').FastifyRequest): void {
  request.session.cookie.maxAge = REMEMBERED_SESSION_MS;
}
