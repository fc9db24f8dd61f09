// Routes of the hubfile module (specification, hubfile): the single-file download and view,
// both public. A record is written once the answer was built (an onSend hook, status 200,
// GET only), so a 404 is never counted, with one record per (user or anonymous, file, cookie).
import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '../../core/modules.ts';
import { notFound } from '../../core/http/errors.ts';
import { countOnSuccess, recordWhenBuilt } from '../../core/http/tracking.ts';
import { attachmentHeader } from './hubfile.http.ts';
import { parseFileId } from './hubfile.service.ts';

export async function hubfileRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const service = () => ctx.services.hubfile;

  // A path segment that is not an integer names no route: 404 like an unknown id.
  app.get('/file/download/:file_id(^\\d+$)', { config: { json: true }, onSend: recordWhenBuilt('file_download_cookie') }, async (request, reply) => {
    const raw = (request.params as { file_id: string }).file_id;
    const id = parseFileId(raw);
    const userId = request.user?.id ?? null;
    const file = id === undefined ? undefined : await service().getVisibleFile(id, userId);
    if (!file) throw notFound(`File ${raw} not found`, { error: `There is no file with id ${raw}.` });
    const opened = await service().openStream(file);
    if (!opened) throw notFound(`File ${file.id} is missing on disk`, { error: `The file ${file.name} (id ${file.id}) is missing from disk.` });
    countOnSuccess(request, (cookie) => service().recordDownload(file.id, userId, cookie));
    return reply
      .type('application/octet-stream')
      .header('content-disposition', attachmentHeader(file.name))
      .header('content-length', opened.size)
      .send(opened.stream);
  });

  app.get('/file/view/:file_id(^\\d+$)', { config: { json: true }, onSend: recordWhenBuilt('view_cookie') }, async (request) => {
    const raw = (request.params as { file_id: string }).file_id;
    const id = parseFileId(raw);
    const userId = request.user?.id ?? null;
    const file = id === undefined ? undefined : await service().getVisibleFile(id, userId);
    if (!file) throw notFound(`File ${raw} not found`, { success: false, error: `There is no file with id ${raw}.` });
    const content = await service().readText(file);
    // Specification, hubfile rule 4: the row exists but the disk file does not.
    if (content === undefined) throw notFound(`File ${file.id} is missing on disk`, { success: false, error: `The file ${file.name} (id ${file.id}) is missing from disk.` });
    countOnSuccess(request, (cookie) => service().recordView(file.id, userId, cookie));
    return { success: true, content };
  });
}
