// Routes of the editor (extensions section 12): the pages, the bundle they load, and the two
// saves. The pages are open to anyone; the saves need an account (and CSRF, the global guard).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ModuleContext } from '../../core/modules.ts';
import { HttpError, notFound, badField } from '../../core/http/errors.ts';
import { TooManyJobs } from '../../core/scheduler/index.ts';
import { parseFileId } from '../hubfile/index.ts';
import { bundleOnce, type EditorBundle } from './editor.bundle.ts';
import { EditorError, MAX_DRAFT_TITLE, type OpenedFile } from './editor.service.ts';

interface PageInput {
  opened?: OpenedFile;
  text: string;
  title?: string;
  errors?: string[];
  /** The refusal's status: 422, or 429 when the saver holds its share of heavy jobs. */
  status?: number;
}

function textField(request: FastifyRequest): string {
  const text = (request.body as Record<string, unknown> | undefined)?.text;
  if (typeof text !== 'string') throw badField('text', 'The form must carry the model as the field text.');
  // The editor's text has \n line breaks (CodeMirror's); a browser posts every line break of a
  // form field as CRLF (HTML form encoding), so they are turned back to keep the text exact.
  return text.replace(/\r\n/g, '\n');
}

function fileIdOf(request: FastifyRequest): number {
  const raw = (request.params as { file_id: string }).file_id;
  const id = parseFileId(raw);
  if (id === undefined) throw notFound(`There is no file with id ${raw}.`);
  return id;
}

/** The editor's bundle, built on the first request that needs it (bundleOnce). */
type BundleLoader = () => Promise<EditorBundle>;

export async function editorRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const bundle = bundleOnce();
  editorPageRoutes(app, ctx, bundle);
  editorBundleRoute(app, bundle);
  editorSaveRoutes(app, ctx, bundle);
}

/** The editor page; 422 when it shows again a text whose save was refused, with the reasons. */
async function editorPage(bundle: BundleLoader, request: FastifyRequest, reply: FastifyReply, input: PageInput) {
  const b: EditorBundle = await bundle();
  const file = input.opened?.file;
  return reply.code(input.status ?? (input.errors ? 422 : 200)).page('editor/views/editor.njk', {
    title: file ? `Edit ${file.name}` : 'Model editor',
    file: file ?? null,
    // A new version is of a published dataset (extensions section 2); a draft is edited in place.
    owner: (input.opened?.owner ?? false) && file?.doi !== null,
    text: input.text,
    draftTitle: input.title ?? (file ? file.name.replace(/\.uvl$/i, '') : ''),
    maxTitle: MAX_DRAFT_TITLE,
    errors: input.errors ?? [],
    signedIn: request.user !== undefined && request.user !== null,
    // The log-in link comes back to this editor (the unsaved text waits in the browser's storage).
    loginHref: `/login?next=${encodeURIComponent(file ? `/editor/file/${file.id}` : '/editor')}`,
    storageKey: `hub-editor:${file ? `file-${file.id}` : 'new'}`,
    editorScript: `/editor/bundle/${b.editor}`,
    workerScript: `/editor/bundle/${b.worker}`,
  });
}

function failure(error: unknown): unknown {
  if (error instanceof EditorError && error.kind !== 'invalid') return notFound(error.message);
  return error;
}

/**
 * The reasons a save was refused, or undefined for a failure that is not the request's (5xx).
 * The page clears its local copy when it posts, so every refusal shows the editor again with the text.
 */
function refusal(error: unknown): string[] | undefined {
  if (error instanceof EditorError && error.kind === 'invalid') return [error.message, ...error.errors];
  if (error instanceof HttpError && error.status < 500) return [error.message];
  if (error instanceof TooManyJobs) return [error.message];
  return undefined;
}

/** A refusal beyond the saver's share of heavy jobs is a 429 with Retry-After (extensions section 10), the text given back all the same. */
function refusalStatus(reply: FastifyReply, error: unknown): number | undefined {
  if (!(error instanceof TooManyJobs)) return undefined;
  reply.header('retry-after', String(error.retryAfterS));
  return 429;
}

/** The editor, empty or opened on a file. */
function editorPageRoutes(app: FastifyInstance, ctx: ModuleContext, bundle: BundleLoader): void {
  app.get('/editor', async (request, reply) => editorPage(bundle, request, reply, { text: '' }));

  app.get('/editor/file/:file_id', async (request, reply) => {
    try {
      const opened = await ctx.services.editor.openFile(fileIdOf(request), request.user?.id ?? null);
      return await editorPage(bundle, request, reply, { opened, text: opened.text });
    } catch (error) {
      throw failure(error);
    }
  });
}

function editorBundleRoute(app: FastifyInstance, bundle: BundleLoader): void {
  // Names carry the content's hash: kept by browsers for a year, so a worker started again
  // after an edit cancelled the last one comes from the cache, not the server.
  app.get('/editor/bundle/*', async (request, reply) => {
    const name = (request.params as { '*': string })['*'];
    const file = (await bundle()).files.get(name);
    if (!file) throw notFound('No such file in the editor bundle.');
    reply.header('cache-control', 'public, max-age=31536000, immutable').header('etag', file.etag).header('vary', 'accept-encoding');
    reply.type(file.type);
    if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return reply.header('content-encoding', 'gzip').send(file.gzip);
    return reply.send(file.body);
  });
}

/** The two saves: a new draft dataset, or a new version of a published file. */
function editorSaveRoutes(app: FastifyInstance, ctx: ModuleContext, bundle: BundleLoader): void {
  // A form carries the whole model, URL-encoded: up to three bytes for each byte of a file the hub would take.
  const bodyLimit = ctx.config.maxUploadBytes * 3 + 64 * 1024;

  app.post('/editor/draft', { config: { loginRequired: true }, bodyLimit }, async (request, reply) => {
    const text = textField(request);
    const title = String((request.body as Record<string, unknown>).title ?? '');
    try {
      return reply.redirect(await ctx.services.editor.saveDraft(request.user!.id, title, text), 303);
    } catch (error) {
      const reasons = refusal(error);
      if (!reasons) throw error;
      // The text comes back in the editor with the reasons: nothing typed is lost.
      return editorPage(bundle, request, reply, { text, title, errors: reasons, status: refusalStatus(reply, error) });
    }
  });

  app.post('/editor/file/:file_id/new-version', { config: { loginRequired: true }, bodyLimit }, async (request, reply) => {
    const id = fileIdOf(request);
    const text = textField(request);
    try {
      return reply.redirect(await ctx.services.editor.stageNewVersion(id, request.user!.id, text), 303);
    } catch (error) {
      if (error instanceof EditorError && error.kind !== 'invalid') throw failure(error);
      const reasons = refusal(error);
      if (!reasons) throw error;
      const opened = await ctx.services.editor.openFile(id, request.user!.id);
      return editorPage(bundle, request, reply, { opened, text, errors: reasons, status: refusalStatus(reply, error) });
    }
  });
}
