// Which methods an address offers, for the 405 of a method it does not (as Flask answers a URL
// rule that matches but not with this method, and as the specification's webhook spells out).
// Fastify answers such a request like an unknown address (404) and does not expose its router's
// lookup by request path, so the routes are recorded as they are declared in a router of our own,
// built with the options Fastify's is (server-options.ts), and asked only when a request found no
// route: a known address costs nothing.
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { FastifyInstance } from 'fastify';
import { isNotAllowedOnly } from './api-schemas.ts';

const noop = (): void => {};

export class RouteMethods {
  private readonly router = FindMyWay({ ignoreTrailingSlash: false, maxParamLength: 16 * 1024 });
  private readonly methods = new Set<HTTPMethod>();

  /** Records every route declared after this call, in any scope. */
  watch(app: FastifyInstance): void {
    app.addHook('onRoute', (route) => {
      // A route declared only to answer 405 (the API's, documented in its schema) offers nothing.
      if (isNotAllowedOnly(route.schema)) return;
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) this.add(method as HTTPMethod, route.url);
      // Fastify adds a HEAD route beside each GET one (exposeHeadRoutes).
      if (methods.includes('GET')) this.add('HEAD', route.url);
    });
  }

  private add(method: HTTPMethod, url: string): void {
    // A method this router does not know (none the hub declares) is left out, never a failed start.
    try {
      if (!this.router.hasRoute(method, url)) this.router.on(method, url, noop);
      this.methods.add(method);
    } catch {
      return;
    }
  }

  /** The methods `url` (path and query) is offered with, sorted; empty when none. */
  allowed(url: string): string[] {
    const path = url.split('?', 1)[0]!;
    const found: string[] = [];
    for (const method of this.methods) {
      // A path the router cannot read (a malformed escape) is an unknown one.
      try {
        if (this.router.find(method, path) !== null) found.push(method);
      } catch {
        return [];
      }
    }
    return found.sort();
  }
}
