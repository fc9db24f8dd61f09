// The configurator's kind of worker thread in core's scheduler: each worker holds its models
// compiled, so a model's jobs are placed on one seat (by its SHA-256) and find it warm there. The
// scheduler owns the threads, queues the jobs per requester and keeps small models in their lane.
import type { CrashReply } from '../../core/worker-slot.ts';
import { TooManyJobs, type Lane, type Scheduler, type WorkerKind } from '../../core/scheduler/index.ts';
import type { ConfiguratorJob, ConfiguratorProgress, ConfiguratorReply } from './configurator.protocol.ts';

/** Heap of one worker: a few compiled large models. */
const WORKER_MEMORY_MB = 2048;
/**
 * Young generation of one worker. A configure step on a large model allocates tens of MB of
 * short-lived arrays; with V8's default (16 MB semi-spaces) they were scavenged many times per
 * step and part promoted, so a larger nursery saves collection time (about a tenth of the
 * CPU of 40 steps on automotive2_4 with 64 MB semi-spaces).
 */
const WORKER_YOUNG_MB = 192;

export type PoolReply = ConfiguratorReply | CrashReply | { id: number; kind: 'busy'; message: string; retryAfterS: number };

// No idle stop: a worker's worth is the models it holds compiled.
export const configuratorWorker: WorkerKind<ConfiguratorJob, ConfiguratorReply, ConfiguratorProgress> = {
  name: 'configurator',
  options: {
    script: new URL('./configurator.worker.ts', import.meta.url),
    resourceLimits: { maxOldGenerationSizeMb: WORKER_MEMORY_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
    crash: {
      error: (error) => `The configurator's worker failed: ${error.message}`,
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
