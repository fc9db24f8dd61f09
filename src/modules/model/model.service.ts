// Model service: what the model page and the diagram need of one stored file. The file, its
// dataset and its feature model come through the hubfile, dataset and featuremodel services
// (their index.ts), so a visitor sees exactly the files `/file/view/<id>` shows them: a file of
// someone else's unsynchronized dataset is as unknown as a missing id. Each operation is an
// exported function taking the module's dependencies (ModelDeps) first, bound once below.
import type { ModuleContext } from '../../core/modules.ts';
import { bindOperations } from '../../core/operations.ts';
import { datasetHref } from '../dataset/index.ts';
import type { StoredFile } from '../hubfile/index.ts';
import { checkParsed, formatDiagnostic, limitDiagnostics, parseUvl, toFeatureIde, UvlExportError, type Diagnostic, type UvlModel } from '../../../packages/uvl/src/index.ts';
import { analysisOf, type AnalysisState } from './analysis-source.ts';
import { renderDiagram, type DiagramOptions, type DiagramQuery } from './diagram.ts';
import { findFeatures as findInTree, openingDepth, type FoundFeature } from './feature-tree.ts';
import { highlightFirstLines, highlightLines, lineCount } from './highlight.ts';
import { createModelCache, type DerivedModel, type ModelCache } from './model.cache.ts';

function featureIdeReport(model: UvlModel): { losses: string[] } | { error: string } {
  try {
    return { losses: toFeatureIde(model).losses };
  } catch (error) {
    if (error instanceof UvlExportError) return { error: error.message };
    throw error;
  }
}

export class ModelError extends Error {
  constructor(readonly kind: 'unknown-file' | 'missing-on-disk' | 'syntax-errors', message: string) {
    super(message);
    this.name = 'ModelError';
  }
}

export interface ModelSource {
  file: StoredFile;
  text: string;
  model: UvlModel;
  errors: string[];
  derived: DerivedModel;
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
  /** What is derived from each file's text (parse, highlighting, drawings), kept while the service lives. */
  cache: ModelCache;
}

const anomaliesOf = (state: AnalysisState): DiagramOptions['anomalies'] => (state.kind === 'finished'
  ? { core: state.result.core ?? [], dead: state.result.dead ?? [], falseOptional: state.result.false_optional ?? [] }
  : undefined);

/** A visible file's text and what is derived from it; ModelError when it is unknown or missing from disk. */
async function source(d: ModelDeps, fileId: number, viewerId: number | null): Promise<ModelSource> {
  const file = await d.ctx.services.hubfile.getVisibleFile(fileId, viewerId);
  if (!file) throw new ModelError('unknown-file', `There is no file with id ${fileId}.`);
  const text = await d.ctx.services.hubfile.readText(file);
  if (text === undefined) throw new ModelError('missing-on-disk', `The file ${file.name} (id ${file.id}) is missing from disk.`);
  const key = d.cache.keyOf(text);
  let derived = d.cache.get(key);
  if (!derived) {
    // Imports are not followed here: the diagram draws this file's own tree, and an imported
    // feature appears as the reference the model makes to it.
    const parsed = parseUvl(text);
    const check = checkParsed(parsed);
    derived = { model: parsed.model, errors: check.errors, warnings: limitDiagnostics(check.warnings, 20), diagrams: new Map() };
    d.cache.set(key, text.length, derived);
  }
  return { file, text, model: derived.model, errors: derived.errors, derived };
}

/** The drawing for these options and this analysis state, drawn once per combination. */
export function draw(d: ModelDeps, src: ModelSource, query: DiagramQuery, analysis: AnalysisState, linkSuffix = ''): string {
  const state = analysis.kind === 'finished' ? `finished:${analysis.status}` : 'uncoloured';
  const key = JSON.stringify([query.root ?? null, query.depth ?? null, query.open ?? [], query.close ?? [], query.fit ?? null, linkSuffix, state, src.file.name]);
  return d.cache.diagram(src.derived, key, () => renderDiagram(src.model, {
    ...query, linkSuffix, anomalies: anomaliesOf(analysis), title: `Feature diagram of ${src.file.name}`,
  }));
}

/** What the model page's FeatureIDE export loses (issue 27), computed once per model text. */
export function featureIdeLosses(d: ModelDeps, src: ModelSource): { losses: string[] } | { error: string } {
  src.derived.featureIdeLosses ??= featureIdeReport(src.model);
  return src.derived.featureIdeLosses;
}

/** The source highlighted, one HTML string per line. */
function lines(src: ModelSource): string[] {
  src.derived.lines ??= highlightLines(src.text);
  return src.derived.lines;
}

/** The lines the page holds and the chunks it loads on demand. */
export function sourceWindow(d: ModelDeps, src: ModelSource): SourceWindow {
  // The page's lines alone are highlighted for it; the whole file on the first chunk asked for.
  src.derived.lineCount ??= lineCount(src.text);
  src.derived.firstLines ??= src.derived.lines?.slice(0, INLINE_LINES) ?? highlightFirstLines(src.text, INLINE_LINES);
  const total = src.derived.lineCount;
  const chunks: { from: number; to: number }[] = [];
  for (let from = INLINE_LINES + 1; from <= total; from += CHUNK_LINES) chunks.push({ from, to: Math.min(total, from + CHUNK_LINES - 1) });
  return { total, inline: src.derived.firstLines, chunks };
}

/** Highlighted lines `from`..`to` (1-based, inclusive, clipped to the file) of a visible file. */
export async function lineRange(d: ModelDeps, fileId: number, viewerId: number | null, from: number, to: number) {
  const all = lines(await source(d, fileId, viewerId));
  const last = Math.min(to, all.length);
  return { from, to: last, total: all.length, lines: from > last ? [] : all.slice(from - 1, last) };
}

/** Features of a visible file whose name contains `query`, with their paths (feature-tree.ts). */
export async function findFeatures(d: ModelDeps, fileId: number, viewerId: number | null, query: string): Promise<FoundFeature[]> {
  const src = await source(d, fileId, viewerId);
  return src.errors.length > 0 ? [] : findInTree(src.model, query);
}

/** The depth the page's diagram opens at for this query (feature-tree.ts). */
export function pageDepth(d: ModelDeps, src: ModelSource, query: DiagramQuery): number | undefined {
  if (query.depth !== undefined) return query.depth;
  // Measuring the tree's levels takes a few tens of milliseconds on the largest models: once per root.
  const key = query.root ?? '';
  const depths = (src.derived.openingDepths ??= new Map());
  if (!depths.has(key)) depths.set(key, openingDepth(src.model, query.root));
  return depths.get(key);
}

/** What the model page shows of a visible file: its source, titles, dataset link and analysis. */
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
export async function diagram(d: ModelDeps, fileId: number, viewerId: number | null, query: DiagramQuery): Promise<string> {
  const src = await source(d, fileId, viewerId);
  if (src.errors.length > 0) throw new ModelError('syntax-errors', `The model ${src.file.name} has syntax errors, so it has no diagram: ${src.errors[0]}`);
  return draw(d, src, query, await analysisOf(d, src.file.id, viewerId));
}

export function createModelService(ctx: ModuleContext) {
  const deps: ModelDeps = { ctx, cache: createModelCache() };
  return bindOperations(deps, {
    analysisOf, draw, featureIdeLosses, sourceWindow, lineRange, findFeatures, pageDepth, page, diagram,
  });
}

export type ModelService = ReturnType<typeof createModelService>;
