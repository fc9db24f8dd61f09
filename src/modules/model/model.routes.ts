// Routes of the model page (extensions section 1, "In the hub"): the page, its diagram and the
// analysis state the page's script polls. Who may see a file is decided by the hubfile service,
// exactly as for /file/view/<id>: anyone else's unsynchronized file answers like an unknown id.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ModuleContext } from '../../core/modules.ts';
import { badRequest, HttpError, notFound } from '../../core/http/errors.ts';
import { parseFileId } from '../hubfile/index.ts';
import type { AnalysisState } from './analysis-source.ts';
import { DiagramQueryError, parseDiagramQuery } from './diagram.ts';
import { factLabel } from './fact-label.ts';
import { ModelError } from './model.service.ts';

const rawId = (request: FastifyRequest) => (request.params as { file_id: string }).file_id;

function failure(error: unknown, raw: string): unknown {
  if (error instanceof DiagramQueryError) return badRequest(error.message);
  if (!(error instanceof ModelError)) return error;
  if (error.kind === 'syntax-errors') return new HttpError(422, 'unprocessable', error.message);
  return notFound(error.kind === 'unknown-file' ? `There is no file with id ${raw}.` : error.message);
}

/** The analysis as the API shows it (extensions section 1): the result plus file_id, sha256, status. */
function analysisJson(fileId: number, state: AnalysisState) {
  if (state.kind === 'unavailable') return { file_id: fileId, status: 'unavailable', message: 'Models are not analysed on this hub (the analysis module is not enabled).' };
  return state.api ?? { file_id: fileId, status: 'pending' };
}

/** The fact label of a finished analysis, or of what a running one knows so far. */
function labelOf(state: AnalysisState) {
  if (state.kind === 'finished') return factLabel(state.result);
  return state.kind === 'pending' && state.partial ? factLabel(state.partial) : null;
}

export async function modelRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const service = () => ctx.services.model;
  const viewer = (request: FastifyRequest) => request.user?.id ?? null;

  // The canonical address ends with a slash, like the DOI pages.
  app.get('/model/:file_id(^\\d+$)', async (request, reply) => {
    const id = parseFileId(rawId(request));
    if (id === undefined) throw notFound(`There is no file with id ${rawId(request)}.`);
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    return reply.redirect(`/model/${id}/${query}`, 301);
  });

  app.get('/model/:file_id(^\\d+$)/', async (request, reply) => {
    const raw = rawId(request);
    const id = parseFileId(raw);
    try {
      if (id === undefined) throw new ModelError('unknown-file', '');
      const diagramQuery = parseDiagramQuery(request.query);
      const data = await service().page(id, viewer(request));
      // The page's links stay on the page: ?root=<name>#diagram.
      const diagram = data.errors.length > 0 ? null : service().draw(data, diagramQuery, data.analysis, '#diagram');
      const svgQuery = new URLSearchParams();
      if (diagramQuery.root !== undefined) svgQuery.set('root', diagramQuery.root);
      if (diagramQuery.depth !== undefined) svgQuery.set('depth', String(diagramQuery.depth));
      return reply.page('model/views/model.njk', {
        title: `${data.modelTitle} (${data.file.name})`,
        data,
        rootName: data.model.root?.name ?? null,
        label: labelOf(data.analysis),
        running: data.analysis.kind === 'pending' ? (data.analysis.running ?? []).map((op) => op.replace('_', ' ')) : [],
        diagram,
        diagramUrl: `/model/${id}/diagram.svg${svgQuery.size > 0 ? `?${svgQuery}` : ''}`,
        lines: service().lines(data),
        modeltool: ctx.isEnabled('modeltool'),
      });
    } catch (error) {
      throw failure(error, raw);
    }
  });

  app.get('/model/:file_id(^\\d+$)/diagram.svg', { config: { json: true } }, async (request, reply) => {
    const raw = rawId(request);
    const id = parseFileId(raw);
    try {
      if (id === undefined) throw new ModelError('unknown-file', '');
      const svg = await service().diagram(id, viewer(request), parseDiagramQuery(request.query));
      return reply.type('image/svg+xml; charset=utf-8').send(svg);
    } catch (error) {
      throw failure(error, raw);
    }
  });

  app.get('/model/:file_id(^\\d+$)/analysis.json', { config: { json: true } }, async (request, reply) => {
    const raw = rawId(request);
    const id = parseFileId(raw);
    if (id === undefined) throw notFound(`There is no file with id ${raw}.`);
    const file = await ctx.services.hubfile.getVisibleFile(id, viewer(request));
    if (!file) throw notFound(`There is no file with id ${raw}.`);
    // The page polls this while the analysis is pending: never a cached answer.
    reply.header('cache-control', 'no-store');
    return analysisJson(file.id, await service().analysisOf(file.id, viewer(request)));
  });
}
