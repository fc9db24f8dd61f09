// Routes of the model page (extensions section 1, "In the hub"): the page, its diagram and the
// analysis state the page's script polls. Who may see a file is decided by the hubfile service,
// exactly as for /file/view/<id>: anyone else's unsynchronized file answers like an unknown id.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ModuleContext } from '../../core/modules.ts';
import { badRequest, HttpError, notFound } from '../../core/http/errors.ts';
import { countOnSuccess, recordWhenBuilt } from '../../core/http/tracking.ts';
import { requesterOf } from '../../core/scheduler/index.ts';
import { parseFileId } from '../hubfile/index.ts';
import type { AnalysisState } from './analysis-source.ts';
import { DiagramQueryError, parseDiagramQuery, type DiagramQuery } from './diagram.ts';
import { PAGE_FIT } from './feature-tree.ts';
import { datasetModelRoutes } from './dataset-models.ts';
import { factLabel } from './fact-label.ts';
import { MAX_LINES_PER_REQUEST, ModelError } from './model.service.ts';
import { withQueryOf } from '../../core/http/canonical-address.ts';

const rawId = (request: FastifyRequest) => (request.params as { file_id: string }).file_id;

function failure(error: unknown, raw: string): unknown {
  if (error instanceof DiagramQueryError) return badRequest(error.message);
  if (!(error instanceof ModelError)) return error;
  if (error.kind === 'syntax-errors') return new HttpError(422, 'unprocessable', error.message);
  if (error.kind === 'unavailable') return new HttpError(503, 'unavailable', error.message);
  return notFound(error.kind === 'unknown-file' ? `There is no file with id ${raw}.` : error.message);
}

/** The analysis as the API shows it (extensions section 1): the result plus file_id, sha256, status. */
function analysisJson(fileId: number, state: AnalysisState) {
  if (state.kind === 'unavailable') return { file_id: fileId, status: 'unavailable', message: 'Models are not analysed on this hub (the analysis module is not enabled).' };
  return state.api ?? { file_id: fileId, status: 'pending' };
}

/** Runs `answer` for a well-formed file id, turning the model's own errors into HTTP answers. */
async function forFile<T>(request: FastifyRequest, answer: (id: number) => Promise<T>): Promise<T> {
  const raw = rawId(request);
  const id = parseFileId(raw);
  try {
    if (id === undefined) throw new ModelError('unknown-file', '');
    return await answer(id);
  } catch (error) {
    throw failure(error, raw);
  }
}

/** `from` and `to` (1-based, inclusive) of /model/<id>/lines; at most MAX_LINES_PER_REQUEST lines. */
function parseLineRange(query: unknown): { from: number; to: number } {
  const q = (query ?? {}) as Record<string, unknown>;
  const whole = (v: unknown) => (typeof v === 'string' && /^\d{1,7}$/.test(v) ? Number(v) : NaN);
  const from = whole(q.from);
  const to = whole(q.to);
  if (!(from >= 1) || !(to >= from) || to - from + 1 > MAX_LINES_PER_REQUEST) {
    throw badRequest(`from and to must be line numbers, 1 <= from <= to, at most ${MAX_LINES_PER_REQUEST} lines, each given once.`);
  }
  return { from, to };
}

/** The fact label of a finished analysis, or of what a running one knows so far. */
function labelOf(state: AnalysisState) {
  if (state.kind === 'finished') return factLabel(state.result);
  return state.kind === 'pending' && state.partial ? factLabel(state.partial) : null;
}

const viewerOf = (request: FastifyRequest) => request.user?.id ?? null;

export async function modelRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  await datasetModelRoutes(app, ctx);
  modelPageRoutes(app, ctx);
  modelDataRoutes(app, ctx);
}

/** The model page at its canonical address, and the redirect to it. */
function modelPageRoutes(app: FastifyInstance, ctx: ModuleContext): void {
  // The canonical address ends with a slash, like the DOI pages.
  app.get('/model/:file_id(^\\d+$)', async (request, reply) => {
    const id = parseFileId(rawId(request));
    if (id === undefined) throw notFound(`There is no file with id ${rawId(request)}.`);
    return reply.redirect(withQueryOf(request.url, `/model/${id}/`), 301);
  });

  // A visit is a view of the model's file, counted as /file/view counts one (the home page's "model
  // views"): the model page is where people read models, so the figure stayed 0 without it.
  app.get('/model/:file_id(^\\d+$)/', { onSend: recordWhenBuilt('view_cookie') }, async (request, reply) => forFile(request, (id) => modelPage(ctx, request, reply, id)));
}

/** The model page, or while its data is prepared in a worker, the page that says so. */
async function modelPage(ctx: ModuleContext, request: FastifyRequest, reply: FastifyReply, id: number) {
  const data = await ctx.services.model.page(id, viewerOf(request));
  countOnSuccess(request, (cookie) => ctx.services.hubfile.recordView(id, viewerOf(request), cookie));
  const asked = parseDiagramQuery(request.query);
  // Drawn for the frame of a desktop page until the page's script tells its own (diagram.js).
  const pageQuery = { ...asked, fit: asked.fit ?? PAGE_FIT };
  // Parsed, highlighted and drawn in a worker (model-page.jobs.ts); a large model's page does not
  // wait for it: it says the model is being prepared and its script polls `prepared.json`.
  const view = await ctx.services.model.pageView(data, pageQuery, ctx.isEnabled('modeltool'), requesterOf(request));
  const common = {
    title: `${data.modelTitle} (${data.file.name})`,
    data,
    label: labelOf(data.analysis),
    running: data.analysis.kind === 'pending' ? (data.analysis.running ?? []).map((op) => op.replace('_', ' ')) : [],
    modeltool: ctx.isEnabled('modeltool'),
    editor: ctx.isEnabled('editor'),
  };
  if (!view) {
    const preparedUrl = `/model/${id}/prepared.json${request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : ''}`;
    return reply.page('model/views/model.njk', { ...common, preparing: { url: preparedUrl }, errors: [], warnings: { shown: [], more: 0 }, configurator: false, featureIde: null });
  }
  // The page opens the largest models less deep than diagram.svg (feature-tree.ts, PAGE_SHOWN_LIMIT).
  const diagramQuery = { ...pageQuery, depth: view.depth, fit: pageQuery.fit };
  return reply.page('model/views/model.njk', {
    ...common,
    errors: view.errors,
    warnings: view.warnings,
    rootName: view.rootName,
    // The page's links stay on the page: ?root=<name>#diagram.
    diagram: view.diagram,
    diagramUrl: diagramUrlOf(id, diagramQuery),
    diagramState: JSON.stringify({ root: diagramQuery.root ?? null, depth: diagramQuery.depth ?? null, open: diagramQuery.open ?? [], close: diagramQuery.close ?? [], fit: `${diagramQuery.fit.width}x${diagramQuery.fit.height}` }),
    source: ctx.services.model.sourceWindow(view),
    // Issue 27: what the FeatureIDE export loses, listed beside the Export menu (modeltool serves the export).
    featureIde: view.featureIde,
    configurator: ctx.isEnabled('configurator') && view.errors.length === 0,
  });
}

/** diagram.svg with the page's root, depth and toggled features (not its fit). */
function diagramUrlOf(id: number, query: DiagramQuery): string {
  const svgQuery = new URLSearchParams();
  if (query.root !== undefined) svgQuery.set('root', query.root);
  if (query.depth !== undefined) svgQuery.set('depth', String(query.depth));
  for (const name of query.open ?? []) svgQuery.append('open', name);
  for (const name of query.close ?? []) svgQuery.append('close', name);
  return `/model/${id}/diagram.svg${svgQuery.size > 0 ? `?${svgQuery}` : ''}`;
}

/** What the page's script fetches: the preparation poll, the diagram, source lines, feature search and the analysis. */
function modelDataRoutes(app: FastifyInstance, ctx: ModuleContext): void {
  // The page's poll while its data is prepared: 200 {"ready": true} once it is (the script then
  // loads the page), 202 with Retry-After meanwhile, 429 with Retry-After beyond the requester's share.
  app.get('/model/:file_id(^\\d+$)/prepared.json', { config: { json: true } }, async (request, reply) => forFile(request, async (id) => {
    reply.header('cache-control', 'no-store');
    // The same question as the page's: its frame's fit by default.
    const asked = parseDiagramQuery(request.query);
    const ready = await ctx.services.model.prepared(id, viewerOf(request), { ...asked, fit: asked.fit ?? PAGE_FIT }, ctx.isEnabled('modeltool'), requesterOf(request));
    if (ready) return { ready: true };
    return reply.code(202).header('retry-after', '1').send({ ready: false, status: 'pending' });
  }));

  app.get('/model/:file_id(^\\d+$)/diagram.svg', { config: { json: true } }, async (request, reply) => forFile(request, async (id) => {
    const svg = await ctx.services.model.diagram(id, viewerOf(request), parseDiagramQuery(request.query), requesterOf(request));
    return reply.type('image/svg+xml; charset=utf-8').send(svg);
  }));

  // Source lines on demand: the page holds the first ones and fetches the rest (model.service.ts, INLINE_LINES).
  app.get('/model/:file_id(^\\d+$)/lines', { config: { json: true } }, async (request) => forFile(request, async (id) => {
    const { from, to } = parseLineRange(request.query);
    return ctx.services.model.lineRange(id, viewerOf(request), from, to, requesterOf(request));
  }));

  // Features by name, with the path from the root: the diagram's search opens that path in place.
  app.get('/model/:file_id(^\\d+$)/features.json', { config: { json: true } }, async (request) => forFile(request, async (id) => {
    const q = (request.query as { q?: unknown }).q;
    if (typeof q !== 'string' || q.length > 200) throw badRequest('q must be the text to find in feature names, given once (at most 200 characters).');
    return { query: q, features: await ctx.services.model.findFeatures(id, viewerOf(request), q, requesterOf(request)) };
  }));

  app.get('/model/:file_id(^\\d+$)/analysis.json', { config: { json: true } }, async (request, reply) => {
    const raw = rawId(request);
    const id = parseFileId(raw);
    if (id === undefined) throw notFound(`There is no file with id ${raw}.`);
    const file = await ctx.services.hubfile.getVisibleFile(id, viewerOf(request));
    if (!file) throw notFound(`There is no file with id ${raw}.`);
    // The page polls this while the analysis is pending: never a cached answer.
    reply.header('cache-control', 'no-store');
    return analysisJson(file.id, await ctx.services.model.analysisOf(file.id, viewerOf(request)));
  });
}
