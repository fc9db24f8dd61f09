// The owner's list of datasets and the zip download (specification, dataset; decisions section 4).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZipArchive } from 'archiver';
import type { ModuleContext } from '../../../core/modules.ts';
import { notFound } from '../../../core/http/errors.ts';
import { countOnSuccess, recordWhenBuilt } from '../../../core/http/tracking.ts';
import { lazyStream } from '../../../core/storage/lazy-stream.ts';
import { parseId } from '../dataset.http.ts';

export async function datasetListRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const listPage = async (request: FastifyRequest, reply: FastifyReply) => {
    const lists = await ctx.services.dataset.listOwnDatasets(request.user!.id);
    return reply.page('dataset/views/list.njk', { title: 'My datasets', ...lists });
  };
  app.get('/dataset/list', { config: { loginRequired: true } }, listPage);
  // Reading the list changes nothing, so like the read-only POST /explore it needs no CSRF token
  // (decisions section 3 asks it of state-changing requests); the login redirect still comes first.
  app.post('/dataset/list', { config: { loginRequired: true, csrf: false } }, listPage);
}

export async function datasetDownloadRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  // Streamed to the client as it is built, from the stored files: memory does not grow with the
  // dataset and nothing half-written is left behind (the specification's temporary folder is not used).
  app.get('/dataset/download/:id', { onSend: recordWhenBuilt('download_cookie') }, async (request, reply) => {
    const id = parseId((request.params as { id: string }).id);
    if (id === undefined) throw notFound('No such dataset.');
    const user = request.user;
    const zip = await ctx.services.dataset.zipContents(id, user?.id ?? null);
    const archive = new ZipArchive({ zlib: { level: 6 } });
    archive.on('warning', (error) => request.log.warn({ err: error }, 'zip warning'));
    archive.on('error', (error) => {
      request.log.error({ err: error, datasetId: id }, 'the zip could not be completed');
      reply.raw.destroy(error);
    });
    for (const file of zip.files) archive.append(lazyStream(file.open, `The stored file ${file.name}`), { name: `${zip.root}/${file.name}` });
    archive.finalize().catch(() => { /* reported through the error event */ });
    countOnSuccess(request, (cookie) => ctx.services.dataset.recordDownload(id, user?.id ?? null, cookie));
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="dataset_${id}.zip"`)
      .header('cache-control', 'no-store')
      .send(archive);
  });
}
