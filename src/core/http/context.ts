// Types that core adds to Fastify's request, reply, session and route config.
import '@fastify/session';

export interface CurrentUser {
  id: number;
  email: string;
  /** Profile name, for the navigation bar. */
  displayName: string;
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
