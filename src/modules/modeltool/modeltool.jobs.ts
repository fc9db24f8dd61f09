// Parsing and converting stored models off the serving thread (extensions section 10): each
// parse (a round of import reading) and conversion is a job of core's scheduler, in a worker of
// the `modeltool` kind, queued per requester like every other heavy job. The visitor's requests
// (checks, downloads) are refused with 429 beyond their share; another module's calls (the cart's
// zip, many models in turn) wait for room instead.
import { featureEstimate } from '../../../packages/uvl/src/index.ts';
import { budgetedKind, laneOf, type Scheduler } from '../../core/scheduler/index.ts';
import type { CrashReply } from '../../core/worker-slot.ts';

export interface ModeltoolJob {
  id: number;
  fileName: string;
  text: string;
  /** Imported files read so far, by path inside the dataset (undefined: not there). */
  known: Record<string, string | undefined>;
  /** Converts the model to this target too when it parses without errors. */
  target?: 'glencoe' | 'splot' | 'cnf' | 'featureide';
}

export interface ModeltoolReply {
  id: number;
  kind: 'done';
  /** Files the parser asked for that were not sent. */
  wanted: string[];
  check: { valid: boolean; errors: string[]; warnings: string[] };
  output?: string;
  /** The converter refused the model (UvlExportError's message). */
  exportError?: string;
}

/**
 * Heap of one worker, declared to the large lane's memory (HEAVY_MEMORY_MB). Measured, the
 * resident memory a worker adds: the largest corpus models parsed and converted (CNF, FeatureIDE)
 * 86-102 MB (automotive2_4, linux-2.6.33.3); a generated model of MAX_FEATURES (200,000 features,
 * 5.7 MB) 295-316 MB with this limit, in 20-22 s.
 */
const WORKER_MEMORY_MB = 384;
/** A parse or conversion past this is stopped: the answer is an error, not a held worker. */
export const HARD_LIMIT_MS = 120_000;

export const modeltoolWorker = budgetedKind<ModeltoolJob, ModeltoolReply>({
  name: 'modeltool', script: new URL('./modeltool.worker.ts', import.meta.url), memoryMb: WORKER_MEMORY_MB, hardLimitMs: HARD_LIMIT_MS, doing: 'the conversion',
});

let ids = 0;

/** Runs one parse (and conversion); `requester` undefined: another module's call, which waits for room. */
export function runModeltoolJob(scheduler: Scheduler, requester: string | undefined, job: Omit<ModeltoolJob, 'id'>): Promise<ModeltoolReply | CrashReply> {
  const submission = { requester: requester ?? 'background:modeltool', lane: laneOf(featureEstimate(job.text)), job: { ...job, id: ++ids }, hardLimitMs: HARD_LIMIT_MS };
  return requester === undefined ? scheduler.submitWhenRoom(modeltoolWorker, submission) : scheduler.submit(modeltoolWorker, submission);
}
