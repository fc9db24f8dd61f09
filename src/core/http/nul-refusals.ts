// U+0000 refused once at the edge, whichever route or column it would reach.
import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.ts';

export function refuseNulCharacters(app: FastifyInstance): void {
  // U+0000 in a path or query is never meaningful, and PostgreSQL cannot compare text holding it:
  // refused here once (400) rather than answered with a database error by whichever route it reaches.
  app.addHook('onRequest', (request, _reply, done) => {
    // A route that answers bad arguments in its protocol's form sees a NUL in its query string
    // (the router matched its path, so the NUL is not there).
    if (request.routeOptions.config?.nulInQueryAnswered) return done();
    done(/%00/i.test(request.url) ? badRequest('The address contains a NUL character.') : undefined);
  });

  // The same for the strings of a JSON body, and of any body sent to the API (a form posted to a
  // JSON route is parsed too): one 400 here, whichever module's column it would reach. (The pages'
  // forms are validated field by field by their modules, which answer with a field error.)
  app.addHook('preValidation', (request, _reply, done) => {
    const body = request.body;
    const parsed = body !== null && typeof body === 'object' && !Buffer.isBuffer(body);
    const checked = parsed && (/\bjson\b/i.test(request.headers['content-type'] ?? '') || request.url.startsWith('/api/'));
    done(checked && containsNul(body as object) ? badRequest('The request contains a NUL character.') : undefined);
  });
}

/** True when any string inside a parsed body (keys included) holds U+0000; iterative, so no nesting depth can overflow it. */
function containsNul(body: object): boolean {
  const pending: unknown[] = [body];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return true;
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (key.includes('\u0000')) return true;
        pending.push(item);
      }
    }
  }
  return false;
}
