import fastifySwagger from '@fastify/swagger';
import { defineModule } from '../../core/modules.ts';
import { tooManyRequests } from '../../core/http/errors.ts';
import { isApiUrl as isApi, isNotAllowedOnly } from '../../core/http/api-schemas.ts';
import { createApiService } from './api.service.ts';
import { apiRoutes } from './api.routes.ts';
import { clientNetwork } from '../../core/http/client-network.ts';

/** `/api/v1/datasets` beside `/api/v1/datasets/` for the same method: one operation, written once (with the slash). */
export function isSlashTwin(method: string | string[], url: string, table: { method: string; url: string }[]): boolean {
  if (url.endsWith('/')) return false;
  const methods = Array.isArray(method) ? method : [method];
  return methods.every((m) => m === 'HEAD' || table.some((r) => r.method === m && r.url === `${url}/`));
}

export const apiModule = defineModule({
  name: 'api',
  // The API's own endpoints reach these modules' services; tokens authenticate its callers.
  // Explore stays optional (coupling rule 7): without it there is no /api/v1/search.
  requires: ['tokens', 'dataset', 'hubfile'],
  createService: (ctx) => createApiService(ctx),
  setup: async (app, ctx) => {
    // Registered before any module's routes, so that it sees every route with its schema.
    await app.register(fastifySwagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'UVL Hub API',
          version: '1',
          description: 'Publish, find and read UVL feature models from scripts and CI. Authenticate with a personal '
            + 'access token (create one at /profile/tokens) sent as `Authorization: Bearer <token>`; a `write` token is '
            + `needed for any change. At most ${ctx.config.apiRateLimit || 'unlimited'} requests a minute per token (per address without one): beyond, 429 with Retry-After.`,
        },
        servers: [{ url: '/' }],
        components: { securitySchemes: { token: { type: 'http', scheme: 'bearer', description: 'A personal access token: hub_…' } } },
        security: [{ token: [] }, {}],
      },
      // The document covers the API's operations only: every page, asset and the docs page stay
      // out, and so do the routes that only answer 405 and the twin of a path without its
      // trailing slash (answered alike, documented once).
      transform: ({ schema, url, route }) => {
        const documented = isApi(url) && !isNotAllowedOnly(schema) && !isSlashTwin(route.method, url, ctx.services.api.routeTable());
        return { schema: documented ? schema : { ...(schema ?? {}), hide: true }, url };
      },
    });
    app.addHook('onRoute', (route) => {
      if (!isApi(route.url)) return;
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      // Fastify adds a HEAD route for every GET; it is not part of the API's contract.
      for (const method of methods) if (method !== 'HEAD') ctx.services.api.recordRoute({ method, url: route.url });
    });
    // Extensions section 3: per token 600 requests a minute, per address for anonymous calls
    // (per account for a browser session); counted in the database, so across instances.
    const countApiRequest = async (request: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) => {
      const user = request.user;
      const bucket = user?.token ? `token:${user.token.id}` : user ? `user:${user.id}` : `ip:${clientNetwork(request.ip)}`;
      const decision = await ctx.services.api.countRequest(bucket);
      reply.header('x-ratelimit-limit', decision.limit);
      if (decision.allowed) {
        reply.header('x-ratelimit-remaining', decision.remaining);
        return;
      }
      reply.header('x-ratelimit-remaining', 0);
      reply.header('retry-after', decision.retryAfterSeconds);
      const message = `Too many requests: at most ${decision.limit} a minute. Try again in ${decision.retryAfterSeconds} seconds.`;
      throw tooManyRequests(message, { message });
    };
    app.addHook('preValidation', (request, reply, done) => {
      // Callback style: every request passes here, and only API requests do any work.
      if (!isApi(request.url) || ctx.config.apiRateLimit === 0) return done();
      countApiRequest(request, reply).then(() => done(), done);
    });
  },
  routes: apiRoutes,
});
