// Model service: what the model page and the diagram need of one stored file. The file, its
// dataset and its feature model come through the hubfile, dataset and featuremodel services
// (their index.ts), so a visitor sees exactly the files `/file/view/<id>` shows them: a file of
// someone else's unsynchronized dataset is as unknown as a missing id.
import type { ModuleContext } from '../../core/modules.ts';
import { datasetHref } from '../dataset/index.ts';
import type { StoredFile } from '../hubfile/index.ts';
import { formatDiagnostic, parseUvl, toFeatureIde, UvlExportError, type Diagnostic, type UvlModel } from '../../../packages/uvl/src/index.ts';
import { analysisSource, type AnalysisState } from './analysis-source.ts';
import { renderDiagram, type DiagramOptions, type DiagramQuery } from './diagram.ts';
import { findFeatures, openingDepth, type FoundFeature } from './feature-tree.ts';
import { highlightFirstLines, highlightLines, lineCount } from './highlight.ts';
import { createModelCache, type DerivedModel } from './model.cache.ts';

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

export function createModelService(ctx: ModuleContext) {
  const analysisOf = analysisSource(ctx);
  const cache = createModelCache();

  const anomaliesOf = (state: AnalysisState): DiagramOptions['anomalies'] => (state.kind === 'finished'
    ? { core: state.result.core ?? [], dead: state.result.dead ?? [], falseOptional: state.result.false_optional ?? [] }
    : undefined);

  async function source(fileId: number, viewerId: number | null): Promise<ModelSource> {
    const file = await ctx.services.hubfile.getVisibleFile(fileId, viewerId);
    if (!file) throw new ModelError('unknown-file', `There is no file with id ${fileId}.`);
    const text = await ctx.services.hubfile.readText(file);
    if (text === undefined) throw new ModelError('missing-on-disk', `The file ${file.name} (id ${file.id}) is missing from disk.`);
    const key = cache.keyOf(text);
    let derived = cache.get(key);
    if (!derived) {
      // Imports are not followed here: the diagram draws this file's own tree, and an imported
      // feature appears as the reference the model makes to it.
      const { model, diagnostics } = parseUvl(text);
      const errors = diagnostics.filter((d: Diagnostic) => d.severity === 'error').map((d) => formatDiagnostic(d));
      derived = { model, errors, diagrams: new Map() };
      cache.set(key, text.length, derived);
    }
    return { file, text, model: derived.model, errors: derived.errors, derived };
  }

  /** The drawing for these options and this analysis state, drawn once per combination. */
  function draw(src: ModelSource, query: DiagramQuery, analysis: AnalysisState, linkSuffix = ''): string {
    const state = analysis.kind === 'finished' ? `finished:${analysis.status}` : 'uncoloured';
    const key = JSON.stringify([query.root ?? null, query.depth ?? null, query.open ?? [], query.close ?? [], linkSuffix, state, src.file.name]);
    return cache.diagram(src.derived, key, () => renderDiagram(src.model, {
      ...query, linkSuffix, anomalies: anomaliesOf(analysis), title: `Feature diagram of ${src.file.name}`,
    }));
  }

  /** What the model page's FeatureIDE export loses (issue 27), computed once per model text. */
  function featureIdeLosses(src: ModelSource): { losses: string[] } | { error: string } {
    src.derived.featureIdeLosses ??= featureIdeReport(src.model);
    return src.derived.featureIdeLosses;
  }

  /** The source highlighted, one HTML string per line. */
  function lines(src: ModelSource): string[] {
    src.derived.lines ??= highlightLines(src.text);
    return src.derived.lines;
  }

  return {
    analysisOf,
    draw,
    featureIdeLosses,

    /** The lines the page holds and the chunks it loads on demand. */
    sourceWindow(src: ModelSource): SourceWindow {
      // The page's lines alone are highlighted for it; the whole file on the first chunk asked for.
      src.derived.lineCount ??= lineCount(src.text);
      src.derived.firstLines ??= src.derived.lines?.slice(0, INLINE_LINES) ?? highlightFirstLines(src.text, INLINE_LINES);
      const total = src.derived.lineCount;
      const chunks: { from: number; to: number }[] = [];
      for (let from = INLINE_LINES + 1; from <= total; from += CHUNK_LINES) chunks.push({ from, to: Math.min(total, from + CHUNK_LINES - 1) });
      return { total, inline: src.derived.firstLines, chunks };
    },

    /** Highlighted lines `from`..`to` (1-based, inclusive, clipped to the file) of a visible file. */
    async lineRange(fileId: number, viewerId: number | null, from: number, to: number) {
      const all = lines(await source(fileId, viewerId));
      const last = Math.min(to, all.length);
      return { from, to: last, total: all.length, lines: from > last ? [] : all.slice(from - 1, last) };
    },

    /** Features of a visible file whose name contains `query`, with their paths (feature-tree.ts). */
    async findFeatures(fileId: number, viewerId: number | null, query: string): Promise<FoundFeature[]> {
      const src = await source(fileId, viewerId);
      return src.errors.length > 0 ? [] : findFeatures(src.model, query);
    },

    /** The depth the page's diagram opens at for this query (feature-tree.ts). */
    pageDepth(src: ModelSource, query: DiagramQuery): number | undefined {
      if (query.depth !== undefined) return query.depth;
      // Measuring the tree's levels takes a few tens of milliseconds on the largest models: once per root.
      const key = query.root ?? '';
      const depths = (src.derived.openingDepths ??= new Map());
      if (!depths.has(key)) depths.set(key, openingDepth(src.model, query.root));
      return depths.get(key);
    },

    async page(fileId: number, viewerId: number | null): Promise<ModelPageData> {
      const src = await source(fileId, viewerId);
      const [models, dataset, analysis] = await Promise.all([
        ctx.services.featuremodel.listByDataset(src.file.datasetId),
        ctx.services.dataset.apiGet(src.file.datasetId, viewerId),
        analysisOf(src.file.id, viewerId),
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
    },

    /** The diagram of a visible file; DiagramQueryError for a root or depth it cannot honour. */
    async diagram(fileId: number, viewerId: number | null, query: DiagramQuery): Promise<string> {
      const src = await source(fileId, viewerId);
      if (src.errors.length > 0) throw new ModelError('syntax-errors', `The model ${src.file.name} has syntax errors, so it has no diagram: ${src.errors[0]}`);
      return draw(src, query, await analysisOf(src.file.id, viewerId));
    },
  };
}

export type ModelService = ReturnType<typeof createModelService>;
