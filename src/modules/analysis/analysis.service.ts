// Analysis service (extensions section 1, "In the hub"; design, "Long work and shared
// resources"): every model of a saved dataset is queued, keyed by its content's SHA-256; this
// instance's runner (analysis.runner.ts) analyses them and stores the results. Other modules read
// results only here. Each operation is an exported function taking the dependencies
// (analysis.deps.ts) first; the service is those operations bound once.
import type { Expression, SqlBool } from 'kysely';
import type { ModuleContext } from '../../core/modules.ts';
import { bindOperations } from '../../core/operations.ts';
import type { AnalysisResult, OperationName } from '../../../packages/analysis/src/index.ts';
import { parseModelFilter, type ModelFilter } from './analysis.filter.ts';
import { createAnalysisDeps, sha256Of, type AnalysisDeps } from './analysis.deps.ts';
import { drain, kick, start, stop } from './analysis.runner.ts';
import * as repo from './analysis.repository.ts';
import { seedSyntheticAnalyses } from './analysis.synthetic.ts';
import { corpusCounts, corpusStamp } from './analysis.statistics.ts';

export { EDIT_CLASS_BUDGET_MS } from './analysis.deps.ts';

/** Status as the API shows it: a row being analysed is still `pending` to a reader. */
export type AnalysisStatus = 'pending' | 'done' | 'partial' | 'failed';

/**
 * `GET /api/v1/files/<id>/analysis`: the engine's result plus these three (and `error` when failed).
 * While the analysis runs, status stays `pending` and the values known so far are filled in, with
 * `running` naming the operations still computed (docs/decisions-taken.md, "Results as they come").
 */
export type FileAnalysis = { file_id: number; sha256: string; status: AnalysisStatus; error?: string; running?: OperationName[] } & Partial<AnalysisResult>;

/** One model in the dataset JSON of the REST API. */
export interface ModelSummary {
  file_id: number;
  name: string;
  status: AnalysisStatus;
  features: number | null;
  constraints: number | null;
  configurations: string | null;
  satisfiable: boolean | null;
}

/** One model beside its file on the DOI page and in its CSV: the summary and its anomaly counts. */
export interface ModelFacts extends ModelSummary {
  core: number | null;
  dead: number | null;
  false_optional: number | null;
}

/** One model in a search result (extensions section 1). */
export type SearchModel = Omit<ModelSummary, 'status'>;

export type { ModelFilter } from './analysis.filter.ts';

/** Datasets whose models are asked of the featuremodel service at once. */
const BATCH = 200;

const publicStatus = (s: string | null): AnalysisStatus => (s === 'done' || s === 'partial' || s === 'failed' ? s : 'pending');

function summaryOf(f: { id: number; name: string }, r: repo.FileAnalysisRow | undefined): ModelSummary {
  const finished = r && (r.status === 'done' || r.status === 'partial');
  return {
    file_id: f.id,
    name: f.name,
    status: publicStatus(r?.status ?? null),
    features: finished ? r.features : null,
    constraints: finished ? r.constraints : null,
    configurations: finished ? r.configurations : null,
    satisfiable: finished && r.satisfiable !== null ? r.satisfiable === 1 : null,
  };
}

/** Links the file to its content and queues a content never analysed; false when the file has no bytes. */
async function enqueueFile(d: AnalysisDeps, fileId: number, datasetId?: number): Promise<boolean> {
  const stored = await d.ctx.services.hubfile.getFile(fileId);
  if (!stored) return false;
  const text = await d.ctx.services.hubfile.readText(stored);
  if (text === undefined) {
    // Nothing to analyse (rows without bytes, e.g. synthetic datasets); tried again at the next start.
    d.ctx.log.warn({ fileId }, 'analysis: the file is missing from disk; not queued');
    return false;
  }
  const sha256 = sha256Of(text);
  await repo.ensureAnalysis(d.ctx.db, sha256);
  await repo.linkFile(d.ctx.db, { file_id: fileId, dataset_id: datasetId ?? stored.datasetId, sha256, name: stored.name });
  return true;
}

/** Links each file of the datasets to its content and queues contents never analysed. */
export async function enqueueDatasets(d: AnalysisDeps, datasetIds: number[]): Promise<number> {
  let queued = 0;
  for (let i = 0; i < datasetIds.length; i += BATCH) {
    const models = await d.ctx.services.featuremodel.listByDatasets(datasetIds.slice(i, i + BATCH));
    for (const [datasetId, list] of models) {
      for (const file of list.flatMap((m) => m.files)) if (await enqueueFile(d, file.id, datasetId)) queued++;
    }
  }
  if (queued > 0) kick(d);
  return queued;
}

/** Queues the models of datasets that have none linked yet (created while analysis was off, or before it existed). */
export async function enqueueMissing(d: AnalysisDeps): Promise<number> {
  const [all, linked] = await Promise.all([d.ctx.services.dataset.allDatasetIds(), repo.linkedDatasetIds(d.ctx.db)]);
  return enqueueDatasets(d, all.filter((id) => !linked.has(id)));
}

/** In the background (startup): the server answers at once. */
export function enqueueMissingInBackground(d: AnalysisDeps): void {
  d.runner.background = enqueueMissing(d).catch((error) => { if (!d.runner.stopped) d.ctx.log.error({ err: error }, 'analysis: queueing missing models failed'); });
}

export async function forgetDataset(d: AnalysisDeps, datasetId: number): Promise<void> {
  await repo.deleteLinksOfDataset(d.ctx.db, datasetId);
}

/** The analysis of a file the viewer may see, or undefined (unknown file, or one they may not see). */
export async function getForFile(d: AnalysisDeps, fileId: number, viewerId: number | null): Promise<FileAnalysis | undefined> {
  const file = await d.ctx.services.hubfile.getVisibleFile(fileId, viewerId);
  if (!file) return undefined;
  let row = (await repo.byFileIds(d.ctx.db, [fileId])).get(fileId);
  if (!row) {
    // Not linked yet (saved while analysis was off, startup catch-up still running): queued now.
    if (await enqueueFile(d, fileId, file.datasetId)) kick(d);
    row = (await repo.byFileIds(d.ctx.db, [fileId])).get(fileId);
    if (!row) return undefined;
  }
  const status = publicStatus(row.status);
  const head = { file_id: fileId, sha256: row.sha256, status };
  if (status === 'failed') return { ...head, error: row.error ?? 'The analysis failed.' };
  // Running: the stored result is the partial one, with `running` (results as they come).
  if (status === 'pending' && row.status === 'running' && row.result !== null) return { ...head, ...(JSON.parse(row.result) as AnalysisResult), status: 'pending' };
  if (status === 'pending' || row.result === null) return { ...head, status: 'pending' };
  return { ...head, ...(JSON.parse(row.result) as AnalysisResult) };
}

/** Each file's summary for the REST dataset JSON; a file not linked yet is `pending`. */
export async function summaries(d: AnalysisDeps, files: { id: number; name: string }[]): Promise<ModelSummary[]> {
  const rows = await repo.byFileIds(d.ctx.db, files.map((f) => f.id));
  return files.map((f) => summaryOf(f, rows.get(f.id)));
}

/** Each file's summary with its numbers of core, dead and false-optional features (null until known). */
export async function facts(d: AnalysisDeps, files: { id: number; name: string }[]): Promise<ModelFacts[]> {
  const rows = await repo.byFileIds(d.ctx.db, files.map((f) => f.id));
  return files.map((f) => {
    const r = rows.get(f.id);
    const summary = summaryOf(f, r);
    const result = summary.features !== null && r?.result ? JSON.parse(r.result) as AnalysisResult : undefined;
    return { ...summary, core: result?.core?.length ?? null, dead: result?.dead?.length ?? null, false_optional: result?.false_optional?.length ?? null };
  });
}

/**
 * A condition for the explore query: the dataset whose id is at `datasetRef` has a model
 * that satisfies every field. Explore embeds it in its own query (one round trip, the
 * database combines it with the text search) without knowing the tables behind it.
 */
export function datasetCondition(d: AnalysisDeps, filter: ModelFilter, datasetRef: Expression<unknown>): Expression<SqlBool> {
  return repo.datasetCondition(d.ctx.db, filter, datasetRef);
}

/** Per dataset, its models for search results: those satisfying `filter`, or all without one. */
export async function searchModels(d: AnalysisDeps, datasetIds: number[], filter: ModelFilter | null): Promise<Map<number, SearchModel[]>> {
  const result = new Map<number, SearchModel[]>(datasetIds.map((id) => [id, []]));
  for (const r of await repo.modelsOfDatasets(d.ctx.db, datasetIds, filter)) {
    const finished = r.status === 'done' || r.status === 'partial';
    result.get(r.dataset_id)?.push({
      file_id: r.file_id,
      name: r.name,
      features: finished ? r.features : null,
      constraints: finished ? r.constraints : null,
      configurations: finished ? r.configurations : null,
      satisfiable: finished && r.satisfiable !== null ? r.satisfiable === 1 : null,
    });
  }
  return result;
}

export function createAnalysisService(ctx: ModuleContext) {
  const d = createAnalysisDeps(ctx);
  const { db } = ctx;
  return {
    instance: d.instance,
    /** The edit class of two versions of a model, or `pending` after waiting `waitMs` (analysis.edit.ts). */
    classifyEdit: d.edits.classify,
    /** Checks the `models` object of a search; throws the 400 of the contract on a bad value. */
    parseModelFilter,
    ...bindOperations(d, {
      // the runner (analysis.runner.ts)
      start, stop, drain,
      // the queue
      enqueueDatasets, enqueueMissing, enqueueMissingInBackground, forgetDataset,
      // the results, for the API, the DOI page and explore
      getForFile, summaries, facts, datasetCondition, searchModels,
    }),
    /** Finished synthetic analyses for synthetic files (no bytes on disk): benchmarks and load tests. */
    addSynthetic: (files: { fileId: number; datasetId: number; name: string }[], random: () => number) => seedSyntheticAnalyses(db, files, random),
    /** Every result computed again (`hub analysis:run --all`). */
    resetAll: () => repo.resetAll(db),
    countByStatus: () => repo.countByStatus(db),
    /** The stored analyses in figures (statistics module), leaving out the models of the excluded datasets. */
    corpusCounts: (excludedDatasetIds: Expression<unknown>) => corpusCounts(db, excludedDatasetIds),
    /** Moves whenever the figures of corpusCounts may have changed. */
    corpusStamp: () => corpusStamp(db),
  };
}

export type AnalysisService = ReturnType<typeof createAnalysisService>;
