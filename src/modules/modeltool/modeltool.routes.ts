// Routes of the model tooling (specification, modeltool; decisions sections 6 and 7). All
// public; the ids are those of stored files. Errors are JSON with the specification's shapes.
import { createReadStream } from 'node:fs';
import { finished } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ModuleContext } from '../../core/modules.ts';
import { badRequest, notFound, serverError } from '../../core/http/errors.ts';
import { requesterOf } from '../../core/scheduler/index.ts';
import { attachmentHeader, parseFileId } from '../hubfile/index.ts';
import { EXPORT_TARGETS, ModeltoolError, type ExportTarget } from './modeltool.service.ts';

const fileIdOf = (request: FastifyRequest) => (request.params as { file_id: string }).file_id;

/** How a failure reads on the export and validity routes. */
/** The HTTP answer of a failed validation or export (also the review links' exports). */
export function exportFailure(error: unknown): unknown {
  if (!(error instanceof ModeltoolError)) return error;
  switch (error.kind) {
    case 'unknown-file':
      return notFound(error.message, { error: error.message });
    case 'missing-on-disk':
      return serverError(error.message, { error: error.message });
    case 'syntax-errors':
      return badRequest(error.message, { error: error.message, errors: error.errors, warnings: error.warnings });
    case 'not-exportable':
      return badRequest(error.message, { error: error.message });
  }
}

export async function modeltoolRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const service = () => ctx.services.modeltool;
  const viewerOf = (request: FastifyRequest) => ({ viewerId: request.user?.id ?? null, requester: requesterOf(request) });
  const unknown = (raw: string) => new ModeltoolError('unknown-file', `There is no UVL file with id ${raw}.`);

  app.addHook('onClose', async () => service().cleanupAll());

  // Decisions section 6: 200 valid (warnings alone do not invalidate), 400 syntax errors, and
  // 500 for anything else; this route does not check existence first, so an unknown id is a 500.
  app.get('/modeltool/check_uvl/:file_id(^\\d+$)', async (request, reply) => {
    const raw = fileIdOf(request);
    const id = parseFileId(raw);
    let result;
    try {
      if (id === undefined) throw unknown(raw);
      result = await service().validateUvl(id, viewerOf(request));
    } catch (error) {
      if (error instanceof ModeltoolError) throw serverError(error.message, { error: error.message });
      throw error;
    }
    if (result.valid) return { message: 'Valid Model', warnings: result.warnings };
    reply.code(400);
    return { errors: result.errors, warnings: result.warnings };
  });

  app.get('/modeltool/valid/:file_id(^\\d+$)', async (request) => {
    const raw = fileIdOf(request);
    const id = parseFileId(raw);
    try {
      // The validation looks the file up first: an unknown id is its 'unknown-file' failure, a 404 here.
      if (id === undefined) throw unknown(raw);
      const result = await service().validateUvl(id, viewerOf(request));
      return { success: result.valid, file_id: id };
    } catch (error) {
      throw exportFailure(error);
    }
  });

  for (const target of ['glencoe', 'splot', 'cnf', 'featureide'] as const satisfies readonly ExportTarget[]) {
    // The specification's route: a text attachment named `<name>_<target>.txt`.
    app.get(`/modeltool/to_${target}/:file_id(^\\d+$)`, async (request, reply) => sendExport(request, reply, target, 'specified'));
    // The model page's download: the same file named and typed as its format usually is (`car.json`).
    app.get(`/modeltool/download/${target}/:file_id(^\\d+$)`, async (request, reply) => sendExport(request, reply, target, 'usual'));
  }

  async function sendExport(request: FastifyRequest, reply: FastifyReply, target: ExportTarget, naming: 'specified' | 'usual') {
    const raw = fileIdOf(request);
    const id = parseFileId(raw);
    let exported;
    try {
      if (id === undefined) throw unknown(raw);
      exported = await service().export(id, target, viewerOf(request));
    } catch (error) {
      throw exportFailure(error);
    }
    const { path, downloadName, usualName } = exported;
    // Modeltool rule 3: the temporary file goes once the answer has been sent, or the
    // visitor went away (finished reports both, also when it already happened).
    finished(reply.raw, () => void service().cleanup(path));
    return reply
      .type(naming === 'usual' ? `${EXPORT_TARGETS[target].mediaType}; charset=utf-8` : 'text/plain; charset=utf-8')
      .header('content-disposition', attachmentHeader(naming === 'usual' ? usualName : downloadName))
      .send(createReadStream(path));
  }
}
