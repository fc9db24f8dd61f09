// Whether a cookie the hub sets carries `Secure`. In production every cookie does, whatever the
// request's scheme or X-Forwarded-Proto (extensions section 9): the browser then withholds it over
// plain HTTP, as Flask's SESSION_COOKIE_SECURE does. Elsewhere only a request that came over HTTPS.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fastifyCookie } from '@fastify/cookie';

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

type FixedCookieOptions = { maxAge: number; path: string; httpOnly: boolean; sameSite: 'lax' };

/**
 * A cookie whose attributes never change (no expiry date, only a Max-Age), written the way
 * reply.setCookie writes it, with its attributes serialized once for each scheme rather than on
 * every answer. `value` must need no encoding (the hub's UUIDs, "1").
 */
export function fixedCookie(name: string, options: FixedCookieOptions): (request: FastifyRequest, reply: FastifyReply, value: string) => void {
  const attributes = [false, true].map((secure) => fastifyCookie.serialize(name, '', { ...options, secure }).slice(name.length + 1));
  return (request, reply, value) => {
    reply.header('set-cookie', `${name}=${value}${attributes[cookieIsSecure(request) ? 1 : 0]}`);
  };
}
