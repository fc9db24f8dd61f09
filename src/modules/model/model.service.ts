// Model service: what the model page and the diagram need of one stored file. The file, its
// dataset and its feature model come through the hubfile, dataset and featuremodel services
// (their index.ts), so a visitor sees exactly the files `/file/view/<id>` shows them: a file of
// someone else's unsynchronized dataset is as unknown as a missing id. Parsing, highlighting and
// drawing are heavy work on the scheduler (model-page.jobs.ts); this thread only keeps their
// answers. Each operation is an exported function taking the module's dependencies (ModelDeps)
// first, bound once below.
import { createHash } from 'node:crypto';
import type { ModuleContext } from '../../core/modules.ts';
import { bindOperations } from '../../core/operations.ts';
import { TooManyJobs } from '../../core/scheduler/index.ts';
import { datasetHref } from '../dataset/index.ts';
import type { StoredFile } from '../hubfile/index.ts';
import { analysisOf, type AnalysisState } from './analysis-source.ts';
import { DiagramQueryError, type DiagramOptions, type DiagramQuery } from './diagram.ts';
import type { FoundFeature } from './feature-tree.ts';
import { ModelPages, type JobOf, type ModelPageReply, type PageView } from './model-page.jobs.ts';
import { withoutFinalStop } from '../../core/text.ts';

export type { PageView } from './model-page.jobs.ts';

export class ModelError extends Error {
  constructor(readonly kind: 'unknown-file' | 'missing-on-disk' | 'syntax-errors' | 'unavailable', message: string) {
    super(message);
    this.name = 'ModelError';
  }
}

export interface ModelSource {
  file: StoredFile;
  text: string;
  /** The text's SHA-256: the key of everything derived from it. */
  key: string;
}

/**
 * The page holds the first INLINE_LINES source lines; the rest come in chunks of CHUNK_LINES from
 * /model/<id>/lines when scrolled to or linked (#L<n>): the largest corpus model has 22 000 lines,
 * 4 MB of highlighted HTML.
 */
export const INLINE_LINES = 400;
export const CHUNK_LINES = 500;
/** At most this many lines per request of /model/<id>/lines. */
export const MAX_LINES_PER_REQUEST = 2000;

export interface SourceWindow {
  total: number;
  inline: string[];
  /** The line ranges (1-based, inclusive) loaded on demand. */
  chunks: { from: number; to: number }[];
}

export interface ModelPageData extends ModelSource {
  modelTitle: string;
  datasetTitle: string;
  datasetHref: string;
  doi: string | null;
  analysis: AnalysisState;
}

export interface ModelDeps {
  ctx: ModuleContext;
  /** The answers of the model page's jobs, kept by text and question (model-page.jobs.ts). */
  pages: ModelPages;
}

const anomaliesOf = (state: AnalysisState): DiagramOptions['anomalies'] => (state.kind === 'finished'
  ? { core: state.result.core ?? [], dead: state.result.dead ?? [], falseOptional: state.result.false_optional ?? [] }
  : undefined);

const sha256Of = (text: string) => createHash('sha256').update(text).digest('hex');

/** A visible file and its text; ModelError when it is unknown or missing from disk. */
async function source(d: ModelDeps, fileId: number, viewerId: number | null): Promise<ModelSource> {
  const file = await d.ctx.services.hubfile.getVisibleFile(fileId, viewerId);
  if (!file) throw new ModelError('unknown-file', `There is no file with id ${fileId}.`);
  const text = await d.ctx.services.hubfile.readText(file);
  if (text === undefined) throw new ModelError('missing-on-disk', `The file ${file.name} (id ${file.id}) is missing from disk.`);
  return { file, text, key: sha256Of(text) };
}

/** A job's answer of the expected kind; the others become the errors the routes answer. */
function expect<K extends ModelPageReply['kind']>(answer: Awaited<ReturnType<ModelPages['ask']>>, kind: K): Extract<ModelPageReply, { kind: K }> {
  if (answer.kind === kind) return answer as Extract<ModelPageReply, { kind: K }>;
  if (answer.kind === 'syntax-errors') throw new ModelError('syntax-errors', `The model has syntax errors, so it has no diagram: ${answer.errors[0] ?? ''}`);
  if (answer.kind === 'query-error') throw new DiagramQueryError(answer.message);
  const message = answer.kind === 'crash' || answer.kind === 'error' ? answer.message : `unexpected answer ${answer.kind}`;
  throw new ModelError('unavailable', `The model could not be read: ${withoutFinalStop(message)}.`);
}

/** The page's question about a model: its diagram's query and colouring, and what else it shows. */
function pageQuestion(src: ModelSource, query: DiagramQuery, analysis: AnalysisState, featureIde: boolean): { question: string; job: JobOf } {
  const state = analysis.kind === 'finished' ? `finished:${analysis.status}` : 'uncoloured';
  const q = { root: query.root, depth: query.depth, open: query.open, close: query.close, fit: query.fit };
  return {
    question: JSON.stringify([src.key, 'page', q, state, featureIde, src.file.name]),
    job: {
      op: 'page', key: src.key, text: src.text, query: q, anomalies: anomaliesOf(analysis), linkSuffix: '#diagram',
      title: `Feature diagram of ${src.file.name}`, inlineLines: INLINE_LINES, featureIde,
    },
  };
}

/**
 * What the page shows of the parse, or undefined while a worker prepares it: a small model's is
 * waited for (the small lane never queues behind large models), a large model's page never waits
 * and says it is being prepared. TooManyJobs (429) when `requester` holds its share.
 */
export async function pageView(d: ModelDeps, src: ModelPageData, query: DiagramQuery, featureIde: boolean, requester: string): Promise<PageView | undefined> {
  const { question, job } = pageQuestion(src, query, src.analysis, featureIde);
  const known = d.pages.known(question);
  if (known) return expect(known, 'page').view;
  if (d.pages.preparing(question)) return undefined;
  let answer: ReturnType<ModelPages['ask']>;
  try {
    answer = d.pages.ask(question, requester, job);
  } catch (error) {
    // Beyond the requester's share: the page says it is being prepared, and its poll (429 with
    // Retry-After until there is room) starts the job.
    if (error instanceof TooManyJobs) return undefined;
    throw error;
  }
  if (d.pages.laneOf(src.key, src.text) === 'small') return expect(await answer, 'page').view;
  // Asked now, answered later: the page's script polls `prepared` and shows the page once it is.
  answer.catch(() => undefined);
  return undefined;
}

/** As pageView, waiting for the job whatever the lane (the review link's page, which has no poll). */
export async function pageViewWaiting(d: ModelDeps, src: ModelPageData, query: DiagramQuery, featureIde: boolean, requester: string): Promise<PageView> {
  const { question, job } = pageQuestion(src, query, src.analysis, featureIde);
  return expect(await d.pages.ask(question, requester, job), 'page').view;
}

/**
 * Whether the page's data for this query is ready (the page's poll). Starts its job when none runs
 * (TooManyJobs, a 429, beyond the requester's share); a job that failed is an error, not a wait.
 */
export async function prepared(d: ModelDeps, fileId: number, viewerId: number | null, query: DiagramQuery, featureIde: boolean, requester: string): Promise<boolean> {
  const src = await source(d, fileId, viewerId);
  const { question, job } = pageQuestion(src, query, await analysisOf(d, fileId, viewerId), featureIde);
  const known = d.pages.known(question);
  if (known) return expect(known, 'page') !== undefined;
  if (d.pages.preparing(question)) return false;
  const answer = d.pages.ask(question, requester, job);
  // A failure is reported to the next poll, which asks again (crash replies are not kept).
  answer.catch(() => undefined);
  return false;
}

/** The lines the page holds and the chunks it loads on demand. */
export function sourceWindow(view: PageView): SourceWindow {
  const total = view.lineCount;
  const chunks: { from: number; to: number }[] = [];
  for (let from = INLINE_LINES + 1; from <= total; from += CHUNK_LINES) chunks.push({ from, to: Math.min(total, from + CHUNK_LINES - 1) });
  return { total, inline: view.firstLines, chunks };
}

/** Highlighted lines `from`..`to` (1-based, inclusive, clipped to the file) of a visible file. */
export async function lineRange(d: ModelDeps, fileId: number, viewerId: number | null, from: number, to: number, requester: string) {
  const src = await source(d, fileId, viewerId);
  // One job highlights every line (4 MB of HTML for the largest corpus model), kept here: the
  // page's chunks, asked as they scroll into view, then cost no job of the visitor's share.
  const all = expect(await d.pages.ask(JSON.stringify([src.key, 'lines']), requester, { op: 'lines', key: src.key, text: src.text }, true), 'lines').lines;
  const last = Math.min(to, all.length);
  return { from, to: last, total: all.length, lines: from > last ? [] : all.slice(from - 1, last) };
}

/** Features of a visible file whose name contains `query`, with their paths (feature-tree.ts). */
export async function findFeatures(d: ModelDeps, fileId: number, viewerId: number | null, query: string, requester: string): Promise<FoundFeature[]> {
  const src = await source(d, fileId, viewerId);
  return expect(await d.pages.ask(JSON.stringify([src.key, 'features', query]), requester, { op: 'features', key: src.key, text: src.text, q: query }, true), 'features').features;
}

/** What the model page shows of a visible file: its text, titles, dataset link and analysis (no parse). */
export async function page(d: ModelDeps, fileId: number, viewerId: number | null): Promise<ModelPageData> {
  const src = await source(d, fileId, viewerId);
  const [models, dataset, analysis] = await Promise.all([
    d.ctx.services.featuremodel.listByDataset(src.file.datasetId),
    d.ctx.services.dataset.apiGet(src.file.datasetId, viewerId),
    analysisOf(d, src.file.id, viewerId),
  ]);
  const meta = models.find((m) => m.id === src.file.featureModelId)?.meta;
  return {
    ...src,
    modelTitle: meta?.title || src.file.name,
    datasetTitle: dataset.name,
    datasetHref: datasetHref(src.file.datasetId, src.file.doi),
    doi: src.file.doi,
    analysis,
  };
}

/** The diagram of a visible file; DiagramQueryError for a root or depth it cannot honour. */
export async function diagram(d: ModelDeps, fileId: number, viewerId: number | null, query: DiagramQuery, requester: string): Promise<string> {
  const src = await source(d, fileId, viewerId);
  const analysis = await analysisOf(d, src.file.id, viewerId);
  const state = analysis.kind === 'finished' ? `finished:${analysis.status}` : 'uncoloured';
  const q = { root: query.root, depth: query.depth, open: query.open, close: query.close, fit: query.fit };
  const question = JSON.stringify([src.key, 'diagram', q, state, src.file.name]);
  const job = { op: 'diagram' as const, key: src.key, text: src.text, query: q, anomalies: anomaliesOf(analysis), title: `Feature diagram of ${src.file.name}` };
  // The page's own redraws (its frame's fit, a box opened) come while the visitor's configurator
  // holds jobs too: they wait for the visitor's turn rather than being refused (still one queue
  // per visitor, round robin, at most its share running).
  return expect(await d.pages.ask(question, requester, job, true), 'diagram').svg;
}

export function createModelService(ctx: ModuleContext) {
  const deps: ModelDeps = { ctx, pages: new ModelPages(ctx.scheduler) };
  return bindOperations(deps, {
    analysisOf, pageView, pageViewWaiting, prepared, sourceWindow: (_d: ModelDeps, view: PageView) => sourceWindow(view), lineRange, findFeatures, page, diagram,
  });
}

export type ModelService = ReturnType<typeof createModelService>;
