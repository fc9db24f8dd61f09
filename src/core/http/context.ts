// Types that core adds to Fastify's request, reply, session and route config.
import '@fastify/session';

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
  }
  interface FastifyReply {
    /** Renders a page inside the layout, with navigation, flash messages and the CSRF token. */
    page(template: string, data?: Record<string, unknown>): Promise<string>;
  }
  interface FastifyContextConfig {
    /** Anonymous visitors are redirected to /login (before any CSRF check). */
    loginRequired?: boolean;
    /** Authenticated visitors are redirected to the landing page (login and signup forms). */
    anonymousOnly?: boolean;
    /** Set false on state-changing routes that do not use the session (search, webhook). */
    csrf?: boolean;
    /** Errors on this route are answered as JSON rather than an HTML page. */
    json?: boolean;
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
