// The api module's routes (extensions section 3): the OpenAPI document, the reference page
// /api/docs (Swagger UI from its npm package, no CDN), a file's metadata and the search.
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { ModuleContext } from '../../core/modules.ts';
import { projectPath } from '../../core/config.ts';
import { notFound } from '../../core/http/errors.ts';
import { parseFileId, restFile } from '../hubfile/index.ts';
import { fileSchema, openapiSchema, searchSchemaOf } from './api.schemas.ts';

/** The hash of the inline style element Swagger UI adds (the browser test reports it if it changes). */
const SWAGGER_UI_INLINE_STYLE = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";

export async function apiRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  app.get('/api/v1/openapi.json', { schema: openapiSchema }, async () => app.swagger());

  await app.register(fastifySwaggerUi, {
    routePrefix: '/api/docs',
    uiConfig: { deepLinking: true, docExpansion: 'list', defaultModelsExpandDepth: 0 },
    theme: { title: 'UVL Hub API' },
    logo: { type: 'image/svg+xml', content: readFileSync(projectPath('src/core/http/assets/favicon.svg')), href: '/', target: '_self' },
    // The hub's own policy (helmet's), plus the one inline style Swagger UI injects, allowed by
    // its hash rather than by 'unsafe-inline'; everything else comes from this server.
    staticCSP: {
      'default-src': ["'self'"],
      'script-src': ["'self'"],
      'style-src': ["'self'", SWAGGER_UI_INLINE_STYLE],
      'img-src': ["'self'", 'data:'],
      'font-src': ["'self'"],
      'connect-src': ["'self'"],
      'object-src': ["'none'"],
      'frame-ancestors': ["'none'"],
      'form-action': ["'self'"],
    },
  });

  app.get('/api/v1/files/:file_id(^\\d+$)', { schema: fileSchema }, async (request) => {
    const raw = String((request.params as { file_id: unknown }).file_id);
    const id = parseFileId(raw);
    const file = id === undefined ? undefined : await ctx.services.hubfile.getVisibleFile(id, request.user?.id ?? null);
    if (!file) throw notFound('File not found', { message: `There is no file with id ${raw}.` });
    return restFile(file, ctx.config.domain);
  });

  // Read-only: no CSRF token, and a token with the read scope may search.
  if (!ctx.isEnabled('explore')) return;
  // The body is read by POST /explore's rules, inside the explore service (no import of explore).
  const explore = ctx.services.explore;
  app.post('/api/v1/search', { schema: searchSchemaOf(explore.maxTerms), config: { csrf: false, json: true, readOnly: true } }, async (request) =>
    explore.searchBody(request.body ?? undefined));
}
