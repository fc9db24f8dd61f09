// The configurator's kind of worker thread in core's scheduler: each worker holds its models
// compiled, so a model's jobs are placed on one seat (by its SHA-256) and find it warm there. The
// scheduler owns the threads, queues the jobs per requester and keeps small models in their lane.
import type { CrashReply } from '../../core/worker-slot.ts';
import { TooManyJobs, type Lane, type Scheduler, type WorkerKind } from '../../core/scheduler/index.ts';
import type { ConfiguratorJob, ConfiguratorProgress, ConfiguratorReply } from './configurator.protocol.ts';

/**
 * Heap of one worker: its compiled models and a sample's rows. automotive2_4's configure, compile
 * and 10,000-configuration sample peak at 494 MB resident for the process with it (78 MB without);
 * linux-2.6.33.3's compile grew past 1.6 GB within its 60 s budget: it now runs out of this heap
 * instead, which is remembered as its compile's failure (configurator.steps.ts), and the
 * configurator answers linux by propagation.
 */
const WORKER_MEMORY_MB = 448;
/**
 * Young generation of one worker. A configure step on a large model allocates tens of MB of
 * short-lived arrays; V8's default (16 MB semi-spaces) scavenged them many times per step and
 * promoted part of them. 192 MB saved about a tenth of the CPU of 40 steps on automotive2_4, but
 * two such workers took a quarter of the large lane's memory (HEAVY_MEMORY_MB, 1,024 MB).
 */
const WORKER_YOUNG_MB = 64;

export type PoolReply = ConfiguratorReply | CrashReply | { id: number; kind: 'busy'; message: string; retryAfterS: number }
  /** The worker needed the model's text and its file had gone meanwhile (deleted): no verdict on the content. */
  | { id: number; kind: 'gone' };

// No idle stop: a worker's worth is the models it holds compiled.
export const configuratorWorker: WorkerKind<ConfiguratorJob, ConfiguratorReply, ConfiguratorProgress> = {
  name: 'configurator',
  memoryMb: WORKER_MEMORY_MB + WORKER_YOUNG_MB,
  options: {
    script: new URL('./configurator.worker.ts', import.meta.url),
    resourceLimits: { maxOldGenerationSizeMb: WORKER_MEMORY_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
    crash: {
      error: (error) => error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `The computation ran out of its memory budget of ${WORKER_MEMORY_MB} MB and was stopped.` : `The configurator's worker failed: ${error.message}`,
      exit: (code) => `The configurator's worker stopped (exit code ${code}).`,
      overrun: (job) => `The computation overran its time budget of ${Math.round(job.timeoutMs / 1000)} s and was stopped.`,
    },
    isProgress: (message): message is ConfiguratorProgress => message.kind === 'progress',
  },
};

/** How a job is placed: its requester (fair queues), its lane, and whether it is a long one. */
export interface Placement {
  requester: string;
  lane: Lane;
  /** A compile or a sample: may take its whole budget. */
  long?: boolean;
  /** A configure step or a tree: does not wait for its model's seat while that seat runs a long job. */
  flexible?: boolean;
}

/** Runs a job on the model's seat; `busy` when the requester already holds its share of jobs. */
export async function runJob(scheduler: Scheduler, job: ConfiguratorJob, hardLimitMs: number, at: Placement, onProgress?: (p: ConfiguratorProgress) => void): Promise<PoolReply> {
  try {
    return await scheduler.submit(configuratorWorker, { ...at, job, hardLimitMs, placement: job.model.sha256, onProgress });
  } catch (error) {
    if (!(error instanceof TooManyJobs)) throw error;
    return { id: job.id, kind: 'busy', message: error.message, retryAfterS: error.retryAfterS };
  }
}
