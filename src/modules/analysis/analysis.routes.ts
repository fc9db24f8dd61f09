// GET /api/v1/files/<file_id>/analysis (extensions section 1, "In the hub"), and the
// background runner's life: started with the server, stopped (claims given back) on close.
import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '../../core/modules.ts';
import { notFound } from '../../core/http/errors.ts';
import { parseFileId } from '../hubfile/index.ts';

const NOT_FOUND = { message: 'File not found' };

export async function analysisRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const service = ctx.services.analysis;
  service.start();
  service.enqueueMissingInBackground();
  app.addHook('onClose', async () => service.stop());

  app.get('/api/v1/files/:id/analysis', async (request, reply) => {
    const id = parseFileId((request.params as { id: string }).id);
    // A file of a dataset the caller may not see answers like an unknown one.
    const analysis = id === undefined ? undefined : await service.getForFile(id, request.user?.id ?? null);
    if (!analysis) throw notFound('File not found', NOT_FOUND);
    return reply.header('cache-control', 'no-store').send(analysis);
  });
}
