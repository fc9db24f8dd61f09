// The configurator's worker threads: a few, each holding its models compiled. A model always
// goes to the same worker (chosen by its SHA-256), so a second step finds it warm; jobs to one
// worker run one after another. A job past its hard limit stops its worker (a new one starts).
import { WorkerSlot, type CrashReply } from '../../core/worker-slot.ts';
import type { ConfiguratorJob, ConfiguratorReply } from './configurator.protocol.ts';

/** Heap of one worker: a few compiled large models. */
const WORKER_MEMORY_MB = 2048;
/**
 * Young generation of one worker. A configure step on a large model allocates tens of MB of
 * short-lived arrays; with V8's default (16 MB semi-spaces) they were scavenged many times per
 * step and part promoted, so a larger nursery saves collection time (about a tenth of the
 * CPU of 40 steps on automotive2_4 with 64 MB semi-spaces).
 */
const WORKER_YOUNG_MB = 192;

export type PoolReply = ConfiguratorReply | CrashReply;

// No idle stop: a worker's worth is the models it holds compiled.
const configuratorWorker = () => new WorkerSlot<ConfiguratorJob, ConfiguratorReply>({
  script: new URL('./configurator.worker.ts', import.meta.url),
  resourceLimits: { maxOldGenerationSizeMb: WORKER_MEMORY_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
  crash: {
    error: (error) => `The configurator's worker failed: ${error.message}`,
    exit: (code) => `The configurator's worker stopped (exit code ${code}).`,
    overrun: (job) => `The computation overran its time budget of ${Math.round(job.timeoutMs / 1000)} s and was stopped.`,
  },
});

export function createConfiguratorPool(size: number) {
  const workers = Array.from({ length: Math.max(1, size) }, configuratorWorker);
  return {
    run(job: ConfiguratorJob, hardLimitMs: number): Promise<PoolReply> {
      const slot = parseInt(job.model.sha256.slice(0, 8), 16) % workers.length;
      return workers[slot]!.run(job, hardLimitMs);
    },
    /** For good (the app closes): queued jobs answer without starting a worker. */
    stop(): void {
      for (const w of workers) w.close('The configurator is stopping.');
    },
  };
}

export type ConfiguratorPool = ReturnType<typeof createConfiguratorPool>;
