// REST resource /api/v1/datasets/ (decisions sections 4 and 7; extensions section 3). Reads are
// public; writes need a logged-in session with the X-CSRFToken header, or a personal access
// token (no CSRF then; the tokens module enforces its write scope). An anonymous write answers
// 401 before the CSRF check and before the body is validated, so these routes opt out of the
// global check and run it themselves. Every route has a schema: it validates the request and
// makes the OpenAPI document.
import type { FastifyInstance, FastifyReply, FastifyRequest, preParsingHookHandler } from 'fastify';
import type { ModuleContext } from '../../../core/modules.ts';
import { badRequest, HttpError, notFound, unauthorized } from '../../../core/http/errors.ts';
import { restFile } from '../../hubfile/index.ts';
import { parseId, receiveFile, stagingRefusal } from '../dataset.http.ts';
import { StagingError } from '../staging/staging.ts';
import * as schemas from './dataset.api-schemas.ts';
import { skippedFields } from '../staging/url-sources.ts';

const DEFAULT_PER_PAGE = 100;
const MAX_PER_PAGE = 1000;
/** The largest page (nine digits, as before): (page - 1) × per_page stays an exact offset on every dialect. */
const MAX_PAGE = 999_999_999;
const NOT_FOUND = { message: 'DataSet not found' };
const WRITE = { csrf: false, json: true } as const;

/** A positive whole number's digits without leading zeros (any length); undefined when absent; else a 400 naming the field. */
function positiveDigits(raw: unknown, name: string): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const digits = typeof raw === 'string' && /^\d+$/.test(raw) ? raw.replace(/^0+/, '') : '';
  if (digits === '') throw badRequest(`${name} must be a positive whole number.`, { message: `${name} must be a positive whole number.`, field: name });
  return digits;
}

/**
 * The write routes' options. The anonymous caller is refused (401) in preParsing, before the body
 * is read: a malformed or oversized body from someone not logged in answers 401, not the parser's
 * 400 or 413 (docs/decisions-taken.md: authentication first). The session and the token are known
 * by then (auth's onRequest, tokens' preParsing, instance hooks running before route hooks); the
 * body is still parsed with the same limits for everyone else. The session's CSRF token is checked
 * in preValidation, once the body is read, as the plugin may look for it there.
 */
function writeOptions(app: FastifyInstance) {
  const loggedIn: preParsingHookHandler = (request, _reply, payload, done) => {
    if (request.user) return done(null, payload);
    done(unauthorized('Log in to change datasets.', { message: 'Log in or send a token (Authorization: Bearer) to change datasets.' }));
  };
  const writer = async (request: FastifyRequest): Promise<void> => {
    if (request.user?.token) return;
    await new Promise<void>((resolve, reject) => {
      // The plugin answers a bad token through reply.send; this stand-in turns that into an error for the one handler.
      const refusal = { send: (error: Error) => reject(error) } as unknown as FastifyReply;
      app.csrfProtection.call(app, request, refusal, (error?: Error) => (error ? reject(error) : resolve()));
    });
  };
  return { config: WRITE, preParsing: loggedIn, preValidation: writer };
}

function idOf(request: FastifyRequest, key: 'id' | 'file_id' = 'id'): number {
  const id = parseId(String((request.params as Record<string, unknown>)[key]));
  if (id === undefined) throw notFound(key === 'id' ? 'DataSet not found' : 'File not found', key === 'id' ? NOT_FOUND : { message: 'File not found' });
  return id;
}

async function notAllowed(request: FastifyRequest, reply: FastifyReply) {
  reply.header('allow', request.url.match(/\/\d+$/) ? 'GET, PUT, DELETE' : 'GET, POST');
  throw new HttpError(405, 'method_not_allowed', 'Method not allowed', { message: `${request.method} is not allowed here.` });
}

export async function datasetApiRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const datasets = () => ctx.services.dataset;
  const write = writeOptions(app);

  const list = async (request: FastifyRequest) => {
    const query = request.query as Record<string, unknown>;
    const pageDigits = positiveDigits(query.page, 'page') ?? '1';
    // A page past the last one is empty; one past MAX_PAGE is refused rather than given an offset no database holds.
    if (pageDigits.length > String(MAX_PAGE).length) throw badRequest(`page must be at most ${MAX_PAGE}.`, { message: `page must be at most ${MAX_PAGE}.`, field: 'page' });
    const page = Number(pageDigits);
    // Decisions section 4: per_page "at most 1000": any larger whole number, however long, asks for 1000.
    const perPageDigits = positiveDigits(query.per_page, 'per_page');
    const perPage = perPageDigits === undefined ? DEFAULT_PER_PAGE : perPageDigits.length > 4 ? MAX_PER_PAGE : Math.min(Number(perPageDigits), MAX_PER_PAGE);
    return datasets().apiList(request.user?.id ?? null, page, perPage);
  };

  const create = async (request: FastifyRequest, reply: FastifyReply) => {
    const id = await datasets().apiCreate(request.user!.id, request.body);
    return reply.code(201).send({ message: 'DataSet created', id });
  };

  for (const url of ['/api/v1/datasets/', '/api/v1/datasets']) {
    app.get(url, { schema: schemas.listSchema }, list);
    app.post(url, { ...write, schema: schemas.createSchema }, create);
    app.route({ method: ['PUT', 'DELETE', 'PATCH'], url, config: WRITE, schema: schemas.notAllowedSchema, handler: notAllowed });
  }

  // A path segment that is not a number names no dataset: the route does not match, 404.
  const item = '/api/v1/datasets/:id(^\\d+$)';

  app.get(item, { schema: schemas.getSchema }, async (request) => datasets().apiGet(idOf(request), request.user?.id ?? null));

  app.put(item, { ...write, schema: schemas.updateSchema }, async (request) => datasets().apiUpdate(idOf(request), request.user!.id, request.body));

  app.delete(item, { ...write, schema: schemas.deleteSchema }, async (request, reply) => {
    await datasets().apiDelete(idOf(request), request.user!.id);
    return reply.code(204).send();
  });

  app.route({ method: ['POST', 'PATCH'], url: item, config: WRITE, schema: schemas.notAllowedSchema, handler: notAllowed });
}

/** The publishing flow of extensions section 3: files one by one, a new version, the deposit. */
export async function datasetApiFlowRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const datasets = () => ctx.services.dataset;
  const write = writeOptions(app);
  const item = '/api/v1/datasets/:id(^\\d+$)';

  app.post(`${item}/files`, { ...write, schema: schemas.addFileSchema }, async (request, reply) => {
    const datasetId = idOf(request);
    const file = await receiveFile(request);
    let fileId: number;
    try {
      fileId = await datasets().addFile(datasetId, request.user!.id, file.filename, file.file, () => file.file.truncated);
    } catch (error) {
      file.file.resume();
      throw error instanceof StagingError ? stagingRefusal(error, ctx.config.maxUploadBytes) : error;
    }
    const stored = await ctx.services.hubfile.getFile(fileId);
    return reply.code(201).send(restFile(stored!, ctx.config.domain));
  });

  app.post(`${item}/files/import`, { ...write, schema: schemas.importFilesSchema }, async (request, reply) => {
    const imported = await datasets().importUrlToDataset(idOf(request), request.user!.id, (request.body as { url?: unknown }).url);
    const files = await Promise.all(imported.fileIds.map(async (id) => restFile((await ctx.services.hubfile.getFile(id))!, ctx.config.domain)));
    return reply.code(201).send({ source: imported.source, files, refused: imported.refused, ...skippedFields(imported.skipped) });
  });

  app.delete(`${item}/files/:file_id(^\\d+$)`, { ...write, schema: schemas.deleteFileSchema }, async (request, reply) => {
    await datasets().removeFile(idOf(request), request.user!.id, idOf(request, 'file_id'));
    return reply.code(204).send();
  });

  app.post(`${item}/versions`, { ...write, schema: schemas.newVersionSchema }, async (request, reply) => {
    const created = await datasets().versions.createUnsynchronizedVersion(idOf(request), request.user!.id);
    return reply.code(201).send(await datasets().apiGet(created, request.user!.id));
  });

  app.post(`${item}/publish`, { ...write, schema: schemas.publishSchema }, async (request) => {
    const outcome = await datasets().publish(idOf(request), request.user!.id);
    return outcome.status === 'ok'
      ? { status: 'ok', dataset_id: outcome.datasetId, doi: outcome.doi, url: outcome.url }
      : { status: 'partial', dataset_id: outcome.datasetId, message: outcome.message };
  });
}
