// The analysis runner (design, "Long work and shared resources"): this instance's workers claim
// queued rows in the database, analyse them in worker threads with a time budget and a memory
// limit, and store the result. Its state is the RunnerState of the dependencies (analysis.deps.ts).
import { normalizeText } from '../../core/text.ts';
import type { StoredFile } from '../hubfile/index.ts';
import type { AnalysisResult } from '../../../packages/analysis/src/index.ts';
import { IMPORT_READ_ROUNDS } from '../../../packages/uvl/src/index.ts';
import { sha256Of, type AnalysisDeps, type RunnerState } from './analysis.deps.ts';
import { ScheduledAnalysis } from './analysis.pool.ts';
import type { ProgressMessage, WorkerJob, WorkerReply } from './analysis.protocol.ts';
import * as repo from './analysis.repository.ts';
import { pauseHere } from '../../core/test-pause.ts';
import type { CrashReply } from '../../core/worker-slot.ts';

/** How often an idle instance looks for work queued by another instance. */
export const POLL_MS = 3_000;
/** A running row's claim is renewed this often; one not renewed for STALE_MS is taken over. */
const HEARTBEAT_MS = 15_000;
const STALE_MS = 90_000;

type Reply = WorkerReply | CrashReply;
/** A worker's last word on a model: its result, or why there is none. */
type FinalReply = Exclude<Reply, { kind: 'need' }>;

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

function failure(message: string): repo.Outcome {
  return {
    status: 'failed', error: message, result: null, features: null, constraints: null, depth: null,
    configurations: null, config_digits: null, satisfiable: null, has_dead: null, language_level: null,
  };
}

function wakeIdle(r: RunnerState): void {
  if (r.running.size === 0) for (const resolve of r.idle.splice(0)) resolve();
}

/** Claims queued rows while a worker slot is free; a kick during the loop makes it go round once more. */
export function kick(d: AnalysisDeps): void {
  const r = d.runner;
  if (r.stopped || r.slots.length === 0) return;
  if (r.kicking) {
    r.kickAgain = true;
    return;
  }
  r.kicking = true;
  r.kickDone = claimLoop(d);
}

async function claimLoop(d: AnalysisDeps): Promise<void> {
  const r = d.runner;
  try {
    do {
      r.kickAgain = false;
      // A closed scheduler (the app is stopping; the runner's own stop comes after) runs nothing more.
      while (!r.stopped && !d.ctx.scheduler.closed && r.free.length > 0) {
        const row = await repo.claimNext(d.ctx.db, d.instance, new Date(Date.now() - STALE_MS).toISOString());
        if (!row) break;
        if (r.stopped) {
          // Claimed while the server began stopping: given back rather than started.
          await repo.release(d.ctx.db, d.instance, row.id);
          break;
        }
        startRow(d, row, r.free.pop()!);
      }
    } while (r.kickAgain && !r.stopped);
  } catch (error) {
    if (!r.stopped) d.ctx.log.error({ err: error }, 'analysis: claiming work failed');
  } finally {
    r.kicking = false;
    wakeIdle(r);
  }
}

/** Analyses a claimed row in `slot`; the slot is free again, and work claimed, when it ends. */
function startRow(d: AnalysisDeps, row: repo.AnalysisRow, slot: ScheduledAnalysis): void {
  const r = d.runner;
  const work = analyse(d, row, slot).catch((error) => d.ctx.log.error({ err: error, sha256: row.sha256 }, 'analysis: storing a result failed'))
    .finally(() => {
      r.running.delete(row.id);
      r.free.push(slot);
      wakeIdle(r);
      kick(d);
    });
  r.running.set(row.id, work);
}

async function analyse(d: AnalysisDeps, row: repo.AnalysisRow, slot: ScheduledAnalysis): Promise<void> {
  await pauseHere('analysis:claimed');
  const { db } = d.ctx;
  const content = await readContent(d, row.sha256);
  if (!content) {
    await repo.finish(db, d.instance, row, failure('No stored file has this content any more.'), null);
    return;
  }
  const { stored, text } = content;
  const reply = await runJob(d, row, slot, stored, text);
  if (d.runner.stopped || d.ctx.scheduler.closed || (reply.kind === 'crash' && reply.cause === 'stopped')) {
    // The server is stopping (its scheduler closes before the runner's stop hook runs) or the
    // kind's workers were stopped: not the model's fault; this or the next instance takes it again.
    await repo.release(db, d.instance, row.id);
    return;
  }
  if (reply.kind === 'done') {
    const { outcome, namesText } = outcomeOf(reply.result, reply.names);
    await repo.finish(db, d.instance, row, outcome, namesText);
  } else if (reply.kind === 'invalid') {
    await repo.finish(db, d.instance, row, failure(`The model is not valid UVL: ${reply.errors.slice(0, 5).join('; ')}`), null);
  } else if (reply.kind === 'crash' && isMachinery(reply)) {
    // A worker that exited, failed outside the engine or overran its hard limit (a loaded machine
    // starts and runs it slowly) says nothing certain of the model: it is analysed again, and
    // only a model that ends so MAX_ATTEMPTS times in a row is given up.
    await repo.retryOrFail(db, d.instance, row, failure(`The analysis stopped ${repo.MAX_ATTEMPTS} times without a result (last: ${reply.message}) and was given up.`));
  } else {
    await repo.finish(db, d.instance, row, failure(reply.message), null);
  }
}

/**
 * The text of a file linked to the content, trying each in turn: the one chosen may be deleted
 * (its model or dataset removed, its link going with it) before it is read, while other files
 * still have the content; only when none can be read is there no stored file with it.
 */
async function readContent(d: AnalysisDeps, sha256: string): Promise<{ stored: StoredFile; text: string } | undefined> {
  const { db, services } = d.ctx;
  let tried: number | undefined;
  for (;;) {
    const fileId = await repo.fileWithContent(db, sha256, tried);
    if (fileId === undefined) return undefined;
    const stored = await services.hubfile.getFile(fileId);
    const text = stored ? await services.hubfile.readText(stored) : undefined;
    if (stored && text !== undefined && sha256Of(text) === sha256) return { stored, text };
    tried = fileId;
  }
}

/**
 * Crashes that are the machinery's: all but the worker's heap limit (the model's size, the same
 * on every try). An engine exception is a `kind: 'error'` reply, stored as the engine's failure.
 */
function isMachinery(reply: CrashReply): boolean {
  return reply.cause !== 'out-of-memory';
}

/** The worker's final reply for one model, giving it the imported files it asks for, round after round. */
async function runJob(d: AnalysisDeps, row: repo.AnalysisRow, slot: ScheduledAnalysis, stored: StoredFile, text: string): Promise<FinalReply> {
  const job: WorkerJob = { id: ++d.runner.jobIds, fileName: stored.name, text, imports: {}, round: 0, maxRounds: IMPORT_READ_ROUNDS, timeoutMs: d.timeoutMs };
  let reply: Reply;
  // Each result is stored as soon as the worker reports it, one write after another; the final
  // result waits for them so that a late partial never overwrites it.
  let progressWrites = Promise.resolve();
  const onProgress = (message: ProgressMessage) => {
    const partial = JSON.stringify({ ...message.result, running: message.running });
    progressWrites = progressWrites.then(() => repo.storeProgress(d.ctx.db, d.instance, row.id, partial))
      .catch((error) => d.ctx.log.warn({ err: error, sha256: row.sha256 }, 'analysis: storing a partial result failed'));
  };
  for (;;) {
    // The hard limit counts from each round's start: a round may first wait for a seat in the scheduler.
    reply = await slot.run(job, d.hardLimitMs, onProgress);
    if (reply.kind !== 'need') break;
    const texts = await Promise.all(reply.paths.map((p) => d.ctx.services.hubfile.readSibling(stored, p)));
    reply.paths.forEach((p, i) => { job.imports[p] = texts[i] ?? null; });
    job.id = ++d.runner.jobIds;
    job.round++;
  }
  await progressWrites;
  return reply;
}

/** Starts this instance's workers (ANALYSIS_WORKERS; at least `minimum`), resuming queued work. */
export function start(d: AnalysisDeps, minimum = 0): void {
  const r = d.runner;
  if (!r.stopped) return;
  const count = Math.max(d.ctx.config.analysisWorkers, minimum);
  if (count === 0) return;
  r.stopped = false;
  r.slots = Array.from({ length: count }, () => new ScheduledAnalysis(d.ctx.scheduler));
  r.free.splice(0, r.free.length, ...r.slots);
  r.poller = setInterval(() => kick(d), POLL_MS);
  r.poller.unref();
  r.beater = setInterval(() => {
    repo.heartbeat(d.ctx.db, d.instance, [...r.running.keys()]).catch((error) => d.ctx.log.warn({ err: error }, 'analysis: heartbeat failed'));
  }, HEARTBEAT_MS);
  r.beater.unref();
  kick(d);
}

/** Stops the workers and timers; claims of unfinished models are given back (analyse). */
export async function stop(d: AnalysisDeps): Promise<void> {
  const r = d.runner;
  d.edits.stop();
  r.stopped = true;
  clearInterval(r.poller);
  clearInterval(r.beater);
  for (const slot of r.slots) slot.terminate();
  await Promise.allSettled([r.background, r.kickDone, ...r.running.values()]);
}

/** Resolves when this instance has nothing claimable left and nothing running. */
export async function drain(d: AnalysisDeps): Promise<void> {
  const r = d.runner;
  for (;;) {
    if (r.running.size === 0 && !r.kicking) {
      if (!(await repo.anyClaimablePending(d.ctx.db))) return;
    }
    // Woken when this instance's work runs out; the poll timer (which also kicks) bounds the wait.
    await new Promise<void>((resolve) => {
      r.idle.push(resolve);
      setTimeout(resolve, POLL_MS).unref();
    });
  }
}
