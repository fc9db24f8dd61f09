// Model service: what the model page and the diagram need of one stored file. The file, its
// dataset and its feature model come through the hubfile, dataset and featuremodel services
// (their index.ts), so a visitor sees exactly the files `/file/view/<id>` shows them: a file of
// someone else's unsynchronized dataset is as unknown as a missing id.
import type { ModuleContext } from '../../core/modules.ts';
import { datasetHref } from '../dataset/index.ts';
import type { StoredFile } from '../hubfile/index.ts';
import { formatDiagnostic, parseUvl, type Diagnostic, type UvlModel } from '../../../packages/uvl/src/index.ts';
import { analysisSource, type AnalysisState } from './analysis-source.ts';
import { renderDiagram, type DiagramOptions } from './diagram.ts';

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

  async function source(fileId: number, viewerId: number | null): Promise<ModelSource> {
    const file = await ctx.services.hubfile.getVisibleFile(fileId, viewerId);
    if (!file) throw new ModelError('unknown-file', `There is no file with id ${fileId}.`);
    const text = await ctx.services.hubfile.readText(file);
    if (text === undefined) throw new ModelError('missing-on-disk', `The file ${file.name} (id ${file.id}) is missing from disk.`);
    // Imports are not followed here: the diagram draws this file's own tree, and an imported
    // feature appears as the reference the model makes to it.
    const { model, diagnostics } = parseUvl(text, { fileName: file.name });
    const errors = diagnostics.filter((d: Diagnostic) => d.severity === 'error').map((d) => formatDiagnostic(d));
    return { file, text, model, errors };
  }

  const anomaliesOf = (state: AnalysisState): DiagramOptions['anomalies'] => (state.kind === 'finished'
    ? { core: state.result.core ?? [], dead: state.result.dead ?? [], falseOptional: state.result.false_optional ?? [] }
    : undefined);

  return {
    analysisOf,
    anomaliesOf,

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
    async diagram(fileId: number, viewerId: number | null, query: { root?: string; depth?: number }): Promise<string> {
      const src = await source(fileId, viewerId);
      if (src.errors.length > 0) throw new ModelError('syntax-errors', `The model ${src.file.name} has syntax errors, so it has no diagram: ${src.errors[0]}`);
      const analysis = await analysisOf(src.file.id, viewerId);
      return renderDiagram(src.model, { ...query, anomalies: anomaliesOf(analysis), title: `Feature diagram of ${src.file.name}` });
    },
  };
}

export type ModelService = ReturnType<typeof createModelService>;
