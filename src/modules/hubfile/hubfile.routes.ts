// Routes of the hubfile module (specification, hubfile): the single-file download and view,
// both public. A record is written once the answer was built (an onSend hook, status 200,
// GET only), so a 404 is never counted, with one record per (user or anonymous, file, cookie).
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ModuleContext } from '../../core/modules.ts';
import { notFound } from '../../core/http/errors.ts';
import { countOnSuccess, recordWhenBuilt } from '../../core/http/tracking.ts';
import { clientHasCurrent } from '../../core/http/conditional.ts';
import { attachmentHeader } from './hubfile.http.ts';
import { parseFileId } from './hubfile.service.ts';

/**
 * Validators of a stored file: stored files never change in place (a new upload is a new file
 * and id), so size and modification time name the content, like the ETags of static servers.
 */
function validators(reply: FastifyReply, fileId: number, info: { size: number; mtimeMs: number }, kind: 'file' | 'view'): string {
  const tag = `${kind}-${fileId}-${info.size.toString(36)}-${Math.floor(info.mtimeMs).toString(36)}`;
  reply.header('etag', `"${tag}"`);
  reply.header('last-modified', new Date(info.mtimeMs).toUTCString());
  // Unsynchronized files are private to their owner: a shared cache must not keep them.
  reply.header('cache-control', 'private, no-cache');
  return tag;
}

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
    const tag = validators(reply, file.id, opened, 'file');
    if (clientHasCurrent(request, tag, opened.mtimeMs)) {
      // The client's copy is current: nothing is sent, so nothing is counted (only a 200 counts).
      opened.stream.destroy();
      return reply.code(304).send();
    }
    countOnSuccess(request, (cookie) => service().recordDownload(file.id, userId, cookie));
    return reply
      .type('application/octet-stream')
      .header('content-disposition', attachmentHeader(file.name))
      .header('content-length', opened.size)
      .send(opened.stream);
  });

  // Issue 27: the file a model was converted from, as uploaded (not counted as a download of the model).
  app.get('/file/original/:file_id(^\\d+$)', { config: { json: true } }, async (request, reply) => {
    const raw = (request.params as { file_id: string }).file_id;
    const id = parseFileId(raw);
    const file = id === undefined ? undefined : await service().getVisibleFile(id, request.user?.id ?? null);
    if (!file?.original) throw notFound(`No original for file ${raw}`, { error: `There is no original file for file id ${raw}.` });
    const opened = await service().openOriginal(file);
    if (!opened) throw notFound(`The original of file ${file.id} is missing`, { error: `The original ${file.original.name} (file id ${file.id}) is missing from disk.` });
    reply.header('cache-control', 'private, no-cache');
    return reply
      .type('application/octet-stream')
      .header('content-disposition', attachmentHeader(file.original.name))
      .header('content-length', opened.size)
      .send(opened.stream);
  });

  app.get('/file/view/:file_id(^\\d+$)', { config: { json: true }, onSend: recordWhenBuilt('view_cookie') }, async (request, reply) => {
    const raw = (request.params as { file_id: string }).file_id;
    const id = parseFileId(raw);
    const userId = request.user?.id ?? null;
    const file = id === undefined ? undefined : await service().getVisibleFile(id, userId);
    if (!file) throw notFound(`File ${raw} not found`, { success: false, error: `There is no file with id ${raw}.` });
    const info = await service().fileStat(file);
    if (info) {
      const tag = validators(reply, file.id, info, 'view');
      if (clientHasCurrent(request, tag, info.mtimeMs)) return reply.code(304).send();
    }
    const content = info && await service().readText(file);
    // Specification, hubfile rule 4: the row exists but the disk file does not.
    if (content === undefined) throw notFound(`File ${file.id} is missing on disk`, { success: false, error: `The file ${file.name} (id ${file.id}) is missing from disk.` });
    countOnSuccess(request, (cookie) => service().recordView(file.id, userId, cookie));
    return { success: true, content };
  });
}
