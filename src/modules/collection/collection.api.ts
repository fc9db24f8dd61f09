// GET /api/v1/collections/<id> (extensions section 13): the collection as JSON, its members with
// the SHA-256 of their stored bytes. The owner's collection, or anyone's once published; else 404.
import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '../../core/modules.ts';
import { errorSchema } from '../../core/http/api-schemas.ts';
import { collectionIdOf } from './collection.http.ts';

const nullableString = { type: ['string', 'null'] } as const;

const collectionSchema = {
  tags: ['collections'],
  summary: 'A collection',
  description: 'A collection with its members (file id, dataset DOI, file name, SHA-256) and, for a saved search, the query. Unpublished collections are seen by their owner only.',
  params: { type: 'object', properties: { id: { type: 'string' } } },
  response: {
    200: {
      type: 'object',
      required: ['id', 'title', 'doi', 'members', 'query'],
      properties: {
        id: { type: 'integer' }, title: { type: 'string' }, description: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' } },
        doi: nullableString, concept_doi: nullableString, version: { type: 'integer' }, published_at: nullableString,
        members: {
          type: 'array',
          items: {
            type: 'object',
            required: ['file_id', 'dataset_doi', 'file_name', 'sha256'],
            properties: { file_id: { type: 'integer' }, dataset_doi: nullableString, file_name: { type: 'string' }, sha256: nullableString },
          },
        },
        query: { description: 'The saved search (query and filters) whose result was frozen; null for a hand-made collection.' },
      },
    },
    404: errorSchema,
    429: errorSchema,
  },
} as const;

export async function collectionApiRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const service = ctx.services.collection;
  app.get('/api/v1/collections/:id(^\\d+$)', { schema: collectionSchema }, async (request, reply) => {
    const viewerId = request.user?.id ?? null;
    const c = await service.get(collectionIdOf(request), viewerId);
    const members = await service.membersWithHashes(c.id, viewerId);
    return reply.header('cache-control', 'no-store').send({
      id: c.id, title: c.title, description: c.description, tags: c.tags, doi: c.doi, concept_doi: c.conceptDoi,
      version: c.version, published_at: c.publishedAt, members, query: c.query,
    });
  });
}
