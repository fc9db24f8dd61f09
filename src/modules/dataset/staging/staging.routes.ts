// The staging routes (decisions section 4): a file staged and checked, a staged file removed.
import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '../../../core/modules.ts';
import { badRequest, notFound } from '../../../core/http/errors.ts';
import { receiveFile, stagingRefusal } from '../dataset.http.ts';
import { StagingError } from './staging.ts';
import { overLimitNote, skippedFields } from './url-sources.ts';

export async function stagingRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const datasets = () => ctx.services.dataset;
  app.addHook('onClose', async () => datasets().stopStaging());

  app.post('/dataset/file/upload', { config: { loginRequired: true, json: true, csrfInMultipart: true } }, async (request) => {
    const file = await receiveFile(request);
    try {
      const staged = await datasets().stageFile(request.user!.id, file.filename, file.file, () => file.file.truncated);
      return {
        message: staged.valid ? (staged.warnings.length > 0 ? 'File staged: a valid UVL model, with warnings.' : 'File staged: a valid UVL model.') : 'File staged, but the model has syntax errors.',
        filename: staged.filename,
        valid: staged.valid,
        errors: staged.errors,
        warnings: staged.warnings,
        // Issue 27: what the model was converted from, and what the conversion lost.
        format: staged.format,
        original: staged.original,
        losses: staged.losses,
        errors_more: staged.errors_more,
        warnings_more: staged.warnings_more,
      };
    } catch (error) {
      file.file.resume();
      throw error instanceof StagingError ? stagingRefusal(error, ctx.config.maxUploadBytes) : error;
    }
  });

  // Import from a URL (extensions section 13): answered like a staging upload, one entry per model staged.
  app.post('/dataset/file/import', { config: { loginRequired: true, json: true } }, async (request) => {
    const body = request.body as Record<string, unknown> | undefined;
    const outcome = await datasets().importUrl(request.user!.id, body && typeof body === 'object' ? body.url : undefined);
    const invalid = outcome.staged.filter((f) => !f.valid).length;
    return {
      message: `${outcome.staged.length} file${outcome.staged.length === 1 ? '' : 's'} staged from the URL${invalid > 0 ? `, ${invalid} with syntax errors` : ''}${outcome.refused.length > 0 ? `; ${outcome.refused.length} refused` : ''}${overLimitNote(outcome.skipped)}.`,
      source: outcome.source,
      files: outcome.staged.map((f) => ({
        filename: f.filename, valid: f.valid, errors: f.errors, warnings: f.warnings, format: f.format, original: f.original, losses: f.losses,
        errors_more: f.errors_more, warnings_more: f.warnings_more,
      })),
      refused: outcome.refused,
      ...skippedFields(outcome.skipped),
    };
  });

  // Decisions section 4 gives an unknown name 404 {"error"}: every error of this route has that
  // key, the core's too (malformed JSON, a NUL, a missing CSRF token), not `message` for some.
  app.post('/dataset/file/delete', { config: { loginRequired: true, json: true, jsonErrorKey: 'error' } }, async (request) => {
    const body = request.body as Record<string, unknown> | undefined;
    const name = body && typeof body === 'object' ? body.file : undefined;
    if (typeof name !== 'string' || name === '') throw badRequest('Name the staged file: {"file": <stored name>}.');
    try {
      await datasets().deleteStagedFile(request.user!.id, name);
    } catch (error) {
      if (error instanceof StagingError) throw notFound(error.message);
      throw error;
    }
    return { message: `${name} was removed from the staging area.` };
  });
}
