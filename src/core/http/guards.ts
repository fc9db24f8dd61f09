// The CSRF plugin and the guards every route passes: login required, anonymous only, CSRF token.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyCsrf from '@fastify/csrf-protection';
import { unmaskCsrfToken } from './csrf-tokens.ts';
import { HttpError } from './errors.ts';
import { isMultipartRequest } from './forms.ts';
import { MULTIPART_NOT_READ } from './error-pages.ts';

/** CSRF tokens read by handlers from multipart fields, handed to the plugin's getToken. */
const multipartTokens = new WeakMap<FastifyRequest, string | undefined>();

export async function registerCsrfPlugin(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCsrf, {
    sessionPlugin: '@fastify/session',
    getToken: (req: FastifyRequest) => {
      const token = sentToken(req);
      return token === undefined ? undefined : unmaskCsrfToken(token);
    },
  });
}

/** The token as the request sent it: a multipart field, the form's csrf_token, or the header. */
function sentToken(req: FastifyRequest): string | undefined {
  if (multipartTokens.has(req)) return multipartTokens.get(req);
  const body = req.body as Record<string, unknown> | undefined;
  const fromBody = body && typeof body === 'object' ? body.csrf_token : undefined;
  if (typeof fromBody === 'string') return fromBody;
  const header = req.headers['x-csrftoken'] ?? req.headers['x-csrf-token'];
  return typeof header === 'string' ? header : undefined;
}

/** `request.checkCsrf(token)` for multipart forms, and the guards' preHandler. */
export function installGuards(app: FastifyInstance): void {
  const verifyCsrf = (request: FastifyRequest) => new Promise<void>((resolve, reject) => {
    // The plugin answers a bad token through reply.send; a stand-in reply turns that into a
    // thrown error so that the one error handler answers it (400, decisions section 3).
    const refusal = { send: (error: Error) => reject(error) } as unknown as FastifyReply;
    app.csrfProtection.call(app, request, refusal, (err?: Error) => (err ? reject(err) : resolve()));
  });
  app.decorateRequest('csrfPending', false);
  app.decorateRequest('checkCsrf', async function checkCsrf(this: FastifyRequest, token?: string) {
    if (token !== undefined) multipartTokens.set(this, token);
    try {
      await verifyCsrf(this);
    } finally {
      multipartTokens.delete(this);
    }
    this.csrfPending = false;
  });

  // Guards, in the order of decisions section 3: the login redirect comes before the CSRF check.
  // Callback style: a page read passes with no promise made (only a CSRF check waits).
  app.addHook('preHandler', (request, reply, done) => {
    // An unknown path changes nothing and must answer 404, not a CSRF refusal (e.g. /webhook/deploy where webhook is off).
    if (request.is404) return done();
    const routeConfig = request.routeOptions.config;
    if (routeConfig.loginRequired && !request.user) {
      // Extensions section 5: the login returns to the page asked for. Only a page (GET) is
      // returned to; a refused form post goes to the plain login.
      const page = request.method === 'GET' || request.method === 'HEAD';
      // A hook that answers does not go on to the handler (done is not called).
      reply.redirect(page ? `/login?next=${encodeURIComponent(request.url)}` : '/login');
      return;
    }
    if (routeConfig.anonymousOnly && request.user) {
      reply.redirect('/');
      return;
    }
    const method = request.method;
    // A request authenticated by a personal access token carries no session, so no CSRF token (extensions section 3).
    if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS' && routeConfig.csrf !== false && !request.user?.token) {
      const header = request.headers['x-csrftoken'] ?? request.headers['x-csrf-token'];
      if (!routeConfig.csrfInMultipart && isMultipartRequest(request) && !request.url.startsWith('/api/')) {
        // The page forms read urlencoded (or JSON) fields; a multipart body would be read as no
        // fields at all, and a profile edit would answer "updated" with nothing changed.
        done(new HttpError(415, 'unsupported_media_type', MULTIPART_NOT_READ));
        return;
      }
      if (routeConfig.csrfInMultipart && header === undefined && isMultipartRequest(request)) {
        // The token is a field of the body, which only the handler reads: it calls request.checkCsrf.
        request.csrfPending = true;
        return done();
      }
      verifyCsrf(request).then(() => done(), done);
      return;
    }
    done();
  });
}
