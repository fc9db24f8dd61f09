// Whether a cookie the hub sets carries `Secure`. In production every cookie does, whatever the
// request's scheme or X-Forwarded-Proto (extensions section 9): the browser then withholds it over
// plain HTTP, as Flask's SESSION_COOKIE_SECURE does. Elsewhere only a request that came over HTTPS.
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    cookiesAlwaysSecure: boolean;
  }
}

/** Decorates the root instance once; every child instance and request sees it. */
export function registerCookieSecurity(app: FastifyInstance, production: boolean): void {
  app.decorate('cookiesAlwaysSecure', production);
}

export function cookieIsSecure(request: FastifyRequest): boolean {
  return request.server.cookiesAlwaysSecure === true || request.protocol === 'https';
}
