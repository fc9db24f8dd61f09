// Analysis service (extensions section 1, "In the hub"; design, "Long work and shared
// resources"): every model of a saved dataset is queued, keyed by its content's SHA-256; this
// instance's workers claim queued rows in the database, analyse them in worker threads with a
// time budget and a memory limit, and store the result. Other modules read results only here.
import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Expression, SqlBool } from 'kysely';
import type { ModuleContext } from '../../core/modules.ts';
import type { AnalysisResult, OperationName } from '../../../packages/analysis/src/index.ts';
import { normalizeText } from '../explore/index.ts';
import { parseModelFilter, type ModelFilter } from './analysis.filter.ts';
import { WorkerSlot } from './analysis.pool.ts';
import { createEditClassifier } from './analysis.edit.ts';
import type { ProgressMessage, WorkerJob, WorkerReply } from './analysis.protocol.ts';
import * as repo from './analysis.repository.ts';
import { seedSyntheticAnalyses } from './analysis.synthetic.ts';
import { corpusCounts, corpusStamp } from './analysis.statistics.ts';
import { pauseHere } from '../../core/test-pause.ts';

/** Time budget of deciding one pair of model versions' edit class. */
export const EDIT_CLASS_BUDGET_MS = 20_000;

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

/** How often an idle instance looks for work queued by another instance. */
const POLL_MS = 3_000;
/** A running row's claim is renewed this often; one not renewed for STALE_MS is taken over. */
const HEARTBEAT_MS = 15_000;
const STALE_MS = 90_000;
/** Rounds of reading imported files a model may ask for (a model importing a model importing …). */
const MAX_IMPORT_ROUNDS = 8;
const BATCH = 200;

const sha256Of = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const publicStatus = (s: string | null): AnalysisStatus => (s === 'done' || s === 'partial' || s === 'failed' ? s : 'pending');

/** The stored columns of an engine result. */
function outcomeOf(result: AnalysisResult, names: string[]): { outcome: repo.Outcome; namesText: string } {
  const partial = (result.timeouts?.length ?? 0) > 0;
  // A void model's dead list is empty by contract ("not meaningful"): it neither has nor lacks dead features.
  const hasDead = result.satisfiable !== true || result.dead === null ? null : result.dead.length > 0 ? 1 : 0;
  return {
    outcome: {
      status: partial ? 'partial' : 'done',
      error: null,
      result: JSON.stringify(result),
      features: result.metrics.features,
      constraints: result.metrics.constraints,
      depth: result.metrics.depth,
      configurations: result.configurations,
      config_digits: result.configurations === null ? null : result.configurations.length,
      satisfiable: result.satisfiable === null ? null : result.satisfiable ? 1 : 0,
      has_dead: hasDead,
      language_level: result.metrics.language_level,
    },
    namesText: [...new Set(names.map(normalizeText).filter(Boolean))].join('|'),
  };
}

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

function failure(message: string): repo.Outcome {
  return {
    status: 'failed', error: message, result: null, features: null, constraints: null, depth: null,
    configurations: null, config_digits: null, satisfiable: null, has_dead: null, language_level: null,
  };
}

export function createAnalysisService(ctx: ModuleContext) {
  const { db, config, log } = ctx;
  const instance = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const timeoutMs = config.analysisTimeoutS * 1000;
  // Parsing and the engine's last step are outside its own deadline checks: the hard kill leaves room for them.
  const hardLimitMs = Math.round(timeoutMs * 1.5) + 15_000;

  let slots: WorkerSlot[] = [];
  const free: WorkerSlot[] = [];
  const running = new Map<number, Promise<void>>();
  let stopped = true;
  let kicking = false;
  let kickDone: Promise<void> = Promise.resolve();
  let kickAgain = false;
  let poller: NodeJS.Timeout | undefined;
  let beater: NodeJS.Timeout | undefined;
  let jobIds = 0;
  const idle: (() => void)[] = [];
  let background: Promise<unknown> = Promise.resolve();

  /** Links each file of the datasets to its content and queues contents never analysed. */
  async function enqueueDatasets(datasetIds: number[]): Promise<number> {
    let queued = 0;
    for (let i = 0; i < datasetIds.length; i += BATCH) {
      const models = await ctx.services.featuremodel.listByDatasets(datasetIds.slice(i, i + BATCH));
      for (const [datasetId, list] of models) {
        for (const file of list.flatMap((m) => m.files)) if (await enqueueFile(file.id, datasetId)) queued++;
      }
    }
    if (queued > 0) kick();
    return queued;
  }

  async function enqueueFile(fileId: number, datasetId?: number): Promise<boolean> {
    const stored = await ctx.services.hubfile.getFile(fileId);
    if (!stored) return false;
    const text = await ctx.services.hubfile.readText(stored);
    if (text === undefined) {
      // Nothing to analyse (rows without bytes, e.g. synthetic datasets); tried again at the next start.
      log.warn({ fileId }, 'analysis: the file is missing from disk; not queued');
      return false;
    }
    const sha256 = sha256Of(text);
    await repo.ensureAnalysis(db, sha256);
    await repo.linkFile(db, { file_id: fileId, dataset_id: datasetId ?? stored.datasetId, sha256, name: stored.name });
    return true;
  }

  // ---- the runner -------------------------------------------------------------------------------

  function kick(): void {
    if (stopped || slots.length === 0) return;
    if (kicking) {
      kickAgain = true;
      return;
    }
    kicking = true;
    kickDone = (async () => {
      try {
        do {
          kickAgain = false;
          while (!stopped && free.length > 0) {
            const row = await repo.claimNext(db, instance, new Date(Date.now() - STALE_MS).toISOString());
            if (!row) break;
            if (stopped) {
              // Claimed while the server began stopping: given back rather than started.
              await repo.release(db, instance, row.id);
              break;
            }
            const slot = free.pop()!;
            const work = analyse(row, slot).catch((error) => log.error({ err: error, sha256: row.sha256 }, 'analysis: storing a result failed'))
              .finally(() => {
                running.delete(row.id);
                free.push(slot);
                if (running.size === 0) for (const resolve of idle.splice(0)) resolve();
                kick();
              });
            running.set(row.id, work);
          }
        } while (kickAgain && !stopped);
      } catch (error) {
        if (!stopped) log.error({ err: error }, 'analysis: claiming work failed');
      } finally {
        kicking = false;
        if (running.size === 0) for (const resolve of idle.splice(0)) resolve();
      }
    })();
  }

  async function analyse(row: repo.AnalysisRow, slot: WorkerSlot): Promise<void> {
    await pauseHere('analysis:claimed');
    const fileId = await repo.fileWithContent(db, row.sha256);
    const stored = fileId === undefined ? undefined : await ctx.services.hubfile.getFile(fileId);
    const text = stored ? await ctx.services.hubfile.readText(stored) : undefined;
    if (!stored || text === undefined || sha256Of(text) !== row.sha256) {
      await repo.finish(db, instance, row, failure('No stored file has this content any more.'), null);
      return;
    }
    const deadline = Date.now() + hardLimitMs;
    const job: WorkerJob = { id: ++jobIds, fileName: stored.name, text, imports: {}, round: 0, maxRounds: MAX_IMPORT_ROUNDS, timeoutMs };
    let reply: WorkerReply | { kind: 'crash'; message: string };
    // Each result is stored as soon as the worker reports it, one write after another; the final
    // result waits for them so that a late partial never overwrites it.
    let progressWrites = Promise.resolve();
    const onProgress = (message: ProgressMessage) => {
      const partial = JSON.stringify({ ...message.result, running: message.running });
      progressWrites = progressWrites.then(() => repo.storeProgress(db, instance, row.id, partial))
        .catch((error) => log.warn({ err: error, sha256: row.sha256 }, 'analysis: storing a partial result failed'));
    };
    for (;;) {
      reply = await slot.run(job, Math.max(1, deadline - Date.now()), onProgress);
      if (reply.kind !== 'need') break;
      const texts = await Promise.all(reply.paths.map((p) => ctx.services.hubfile.readSibling(stored, p)));
      reply.paths.forEach((p, i) => { job.imports[p] = texts[i] ?? null; });
      job.id = ++jobIds;
      job.round++;
    }
    await progressWrites;
    if (stopped) {
      // The server is stopping: not the model's fault; the next instance or start takes it again.
      await repo.release(db, instance, row.id);
      return;
    }
    if (reply.kind === 'done') {
      const { outcome, namesText } = outcomeOf(reply.result, reply.names);
      await repo.finish(db, instance, row, outcome, namesText);
    } else if (reply.kind === 'invalid') {
      await repo.finish(db, instance, row, failure(`The model is not valid UVL: ${reply.errors.slice(0, 5).join('; ')}`), null);
    } else {
      await repo.finish(db, instance, row, failure(reply.message), null);
    }
  }

  const edits = createEditClassifier(EDIT_CLASS_BUDGET_MS);

  async function stop(): Promise<void> {
    edits.stop();
    stopped = true;
    clearInterval(poller);
    clearInterval(beater);
    for (const slot of slots) slot.terminate();
    await Promise.allSettled([background, kickDone, ...running.values()]);
  }

  return {
    instance,

    /** The edit class of two versions of a model, or `pending` after waiting `waitMs` (analysis.edit.ts). */
    classifyEdit: edits.classify,

    /** Starts this instance's workers (ANALYSIS_WORKERS; at least `minimum`), resuming queued work. */
    start(minimum = 0): void {
      if (!stopped) return;
      const count = Math.max(config.analysisWorkers, minimum);
      if (count === 0) return;
      stopped = false;
      slots = Array.from({ length: count }, () => new WorkerSlot());
      free.splice(0, free.length, ...slots);
      poller = setInterval(kick, POLL_MS);
      poller.unref();
      beater = setInterval(() => {
        repo.heartbeat(db, instance, [...running.keys()]).catch((error) => log.warn({ err: error }, 'analysis: heartbeat failed'));
      }, HEARTBEAT_MS);
      beater.unref();
      kick();
    },

    stop,

    /** Resolves when this instance has nothing claimable left and nothing running. */
    async drain(): Promise<void> {
      for (;;) {
        if (running.size === 0 && !kicking) {
          const counts = await repo.countByStatus(db);
          if (!counts.pending) return;
        }
        // Woken when this instance's work runs out; the poll timer (which also kicks) bounds the wait.
        await new Promise<void>((resolve) => {
          idle.push(resolve);
          setTimeout(resolve, POLL_MS).unref();
        });
      }
    },

    enqueueDatasets,

    /** Queues the models of datasets that have none linked yet (created while analysis was off, or before it existed). */
    async enqueueMissing(): Promise<number> {
      const [all, linked] = await Promise.all([ctx.services.dataset.allDatasetIds(), repo.linkedDatasetIds(db)]);
      return enqueueDatasets(all.filter((id) => !linked.has(id)));
    },

    /** In the background (startup): the server answers at once. */
    enqueueMissingInBackground(): void {
      background = this.enqueueMissing().catch((error) => { if (!stopped) log.error({ err: error }, 'analysis: queueing missing models failed'); });
    },

    /** Finished synthetic analyses for synthetic files (no bytes on disk): benchmarks and load tests. */
    addSynthetic: (files: { fileId: number; datasetId: number; name: string }[], random: () => number) => seedSyntheticAnalyses(db, files, random),

    /** Every result computed again (`hub analysis:run --all`). */
    resetAll: () => repo.resetAll(db),
    countByStatus: () => repo.countByStatus(db),

    async forgetDataset(datasetId: number): Promise<void> {
      await repo.deleteLinksOfDataset(db, datasetId);
    },

    /** The analysis of a file the viewer may see, or undefined (unknown file, or one they may not see). */
    async getForFile(fileId: number, viewerId: number | null): Promise<FileAnalysis | undefined> {
      const file = await ctx.services.hubfile.getVisibleFile(fileId, viewerId);
      if (!file) return undefined;
      let row = (await repo.byFileIds(db, [fileId])).get(fileId);
      if (!row) {
        // Not linked yet (saved while analysis was off, startup catch-up still running): queued now.
        if (await enqueueFile(fileId, file.datasetId)) kick();
        row = (await repo.byFileIds(db, [fileId])).get(fileId);
        if (!row) return undefined;
      }
      const status = publicStatus(row.status);
      const head = { file_id: fileId, sha256: row.sha256, status };
      if (status === 'failed') return { ...head, error: row.error ?? 'The analysis failed.' };
      // Running: the stored result is the partial one, with `running` (results as they come).
      if (status === 'pending' && row.status === 'running' && row.result !== null) return { ...head, ...(JSON.parse(row.result) as AnalysisResult), status: 'pending' };
      if (status === 'pending' || row.result === null) return { ...head, status: 'pending' };
      return { ...head, ...(JSON.parse(row.result) as AnalysisResult) };
    },

    /** Each file's summary for the REST dataset JSON; a file not linked yet is `pending`. */
    async summaries(files: { id: number; name: string }[]): Promise<ModelSummary[]> {
      const rows = await repo.byFileIds(db, files.map((f) => f.id));
      return files.map((f) => summaryOf(f, rows.get(f.id)));
    },

    /** Each file's summary with its numbers of core, dead and false-optional features (null until known). */
    async facts(files: { id: number; name: string }[]): Promise<ModelFacts[]> {
      const rows = await repo.byFileIds(db, files.map((f) => f.id));
      return files.map((f) => {
        const r = rows.get(f.id);
        const summary = summaryOf(f, r);
        const result = summary.features !== null && r?.result ? JSON.parse(r.result) as AnalysisResult : undefined;
        return { ...summary, core: result?.core?.length ?? null, dead: result?.dead?.length ?? null, false_optional: result?.false_optional?.length ?? null };
      });
    },

    /** Checks the `models` object of a search; throws the 400 of the contract on a bad value. */
    parseModelFilter,

    /**
     * A condition for the explore query: the dataset whose id is at `datasetRef` has a model
     * that satisfies every field. Explore embeds it in its own query (one round trip, the
     * database combines it with the text search) without knowing the tables behind it.
     */
    datasetCondition(filter: ModelFilter, datasetRef: Expression<unknown>): Expression<SqlBool> {
      return repo.datasetCondition(db, filter, datasetRef);
    },

    /** The stored analyses in figures (statistics module), leaving out the models of the excluded datasets. */
    corpusCounts: (excludedDatasetIds: Expression<unknown>) => corpusCounts(db, excludedDatasetIds),
    /** Moves whenever the figures of corpusCounts may have changed. */
    corpusStamp: () => corpusStamp(db),

    /** Per dataset, its models for search results: those satisfying `filter`, or all without one. */
    async searchModels(datasetIds: number[], filter: ModelFilter | null): Promise<Map<number, SearchModel[]>> {
      const result = new Map<number, SearchModel[]>(datasetIds.map((id) => [id, []]));
      for (const r of await repo.modelsOfDatasets(db, datasetIds, filter)) {
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
    },
  };
}

export type AnalysisService = ReturnType<typeof createAnalysisService>;
