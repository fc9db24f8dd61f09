// The configurator's worker threads: a few, each holding its models compiled. A model always
// goes to the same worker (chosen by its SHA-256), so a second step finds it warm; jobs to one
// worker run one after another. A job past its hard limit stops its worker (a new one starts).
import type { Worker } from 'node:worker_threads';
import { startTypeScriptWorker } from '../../core/worker.ts';
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

export type PoolReply = ConfiguratorReply | { id: number; kind: 'crash'; message: string };

class ConfiguratorWorker {
  private worker: Worker | undefined;
  /** The job before the next one: each waits for the previous. */
  private tail: Promise<unknown> = Promise.resolve();
  /** Set when the app closes: a job still queued then must not start a worker that nothing will stop. */
  private stopped = false;

  run(job: ConfiguratorJob, hardLimitMs: number): Promise<PoolReply> {
    const next = this.tail.then(() => this.runNow(job, hardLimitMs));
    this.tail = next;
    return next;
  }

  private runNow(job: ConfiguratorJob, hardLimitMs: number): Promise<PoolReply> {
    if (this.stopped) return Promise.resolve({ id: job.id, kind: 'crash', message: 'The configurator is stopping.' });
    const worker = (this.worker ??= startTypeScriptWorker(new URL('./configurator.worker.ts', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: WORKER_MEMORY_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
    }));
    return new Promise((resolve) => {
      const finish = (reply: PoolReply, broken: boolean) => {
        clearTimeout(guard);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (broken) this.stop();
        resolve(reply);
      };
      const onMessage = (reply: ConfiguratorReply) => { if (reply.id === job.id) finish(reply, false); };
      const onError = (error: Error) => finish({ id: job.id, kind: 'crash', message: `The configurator's worker failed: ${error.message}` }, true);
      const onExit = (code: number) => finish({ id: job.id, kind: 'crash', message: `The configurator's worker stopped (exit code ${code}).` }, true);
      const guard = setTimeout(() => finish({
        id: job.id, kind: 'crash', message: `The computation overran its time budget of ${Math.round(job.timeoutMs / 1000)} s and was stopped.`,
      }, true), hardLimitMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage(job);
    });
  }

  stop(): void {
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
  }

  /** For good (the app closes): queued jobs answer without a worker. */
  close(): void {
    this.stopped = true;
    this.stop();
  }
}

export function createConfiguratorPool(size: number) {
  const workers = Array.from({ length: Math.max(1, size) }, () => new ConfiguratorWorker());
  return {
    run(job: ConfiguratorJob, hardLimitMs: number): Promise<PoolReply> {
      const slot = parseInt(job.model.sha256.slice(0, 8), 16) % workers.length;
      return workers[slot]!.run(job, hardLimitMs);
    },
    stop(): void {
      for (const w of workers) w.close();
    },
  };
}

export type ConfiguratorPool = ReturnType<typeof createConfiguratorPool>;
