// GET /api/v1/files/<file_id>/analysis (extensions section 1, "In the hub"), and the
// background runner's life: started with the server, stopped (claims given back) on close.
import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '../../core/modules.ts';
import { notFound } from '../../core/http/errors.ts';
import { errorSchema } from '../../core/http/api-schemas.ts';
import { parseFileId } from '../hubfile/index.ts';

const NOT_FOUND = { message: 'File not found' };

/** For the OpenAPI document (extensions section 3: every /api/v1 endpoint, from the route's own schema). */
const analysisSchema = {
  tags: ['files'],
  summary: 'A model\'s analysis',
  description: 'The analysis of extensions section 1 (satisfiable, configurations as a decimal string, core, dead, false-optional, atomic sets, explanations, metrics) with `file_id`, `sha256` and `status` (`pending`, `done`, `partial`, `failed` with `error`). A file of a dataset the caller may not see answers 404, as an unknown one.',
  // Text as before: a malformed id answers 404 like an unknown file, not 400.
  params: { type: 'object', required: ['id'], properties: { id: { type: 'string', description: 'The file id.' } } },
  response: {
    200: { type: 'object', additionalProperties: true, required: ['file_id', 'sha256', 'status'], properties: { file_id: { type: 'integer' }, sha256: { type: 'string' }, status: { type: 'string', enum: ['pending', 'done', 'partial', 'failed'] } } },
    401: errorSchema, 404: errorSchema, 429: errorSchema,
  },
} as const;

export async function analysisRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const service = ctx.services.analysis;
  service.start();
  service.enqueueMissingInBackground();
  app.addHook('onClose', async () => service.stop());

  app.get('/api/v1/files/:id/analysis', { schema: analysisSchema }, async (request, reply) => {
    const id = parseFileId((request.params as { id: string }).id);
    // A file of a dataset the caller may not see answers like an unknown one.
    const analysis = id === undefined ? undefined : await service.getForFile(id, request.user?.id ?? null);
    if (!analysis) throw notFound('File not found', NOT_FOUND);
    return reply.header('cache-control', 'no-store').send(analysis);
  });
}
