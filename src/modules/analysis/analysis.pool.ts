// Worker threads for the analysis: one slot per ANALYSIS_WORKERS, each keeping its worker
// between jobs (starting one costs a module load) and replacing it after a crash or a kill.
import type { Worker } from 'node:worker_threads';
import { startTypeScriptWorker } from '../../core/worker.ts';
import type { ClassifyJob, ClassifyReply, ProgressMessage, WorkerJob, WorkerReply } from './analysis.protocol.ts';

/** Heap of one worker; beyond it V8 stops the worker and the model is recorded as failed. */
export const WORKER_MEMORY_MB = 2048;
/** An idle worker is stopped after this long, giving its memory back. */
const IDLE_MS = 60_000;

export type SlotReply = WorkerReply | { kind: 'crash'; id: number; message: string };
export type ClassifySlotReply = ClassifyReply | { kind: 'crash'; id: number; message: string };

function startWorker(): Worker {
  return startTypeScriptWorker(new URL('./analysis.worker.ts', import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: WORKER_MEMORY_MB } });
}

export class WorkerSlot {
  private worker: Worker | undefined;
  private idle: NodeJS.Timeout | undefined;
  private stopCurrent: ((message: string) => void) | undefined;

  /**
   * Runs one message; `hardLimitMs` kills a worker that stopped checking its deadline.
   * `onProgress` receives the results the worker reports before its final reply.
   */
  run(job: WorkerJob, hardLimitMs: number, onProgress?: (message: ProgressMessage) => void): Promise<SlotReply>;
  run(job: ClassifyJob, hardLimitMs: number): Promise<ClassifySlotReply>;
  run(job: WorkerJob | ClassifyJob, hardLimitMs: number, onProgress?: (message: ProgressMessage) => void): Promise<SlotReply | ClassifySlotReply> {
    clearTimeout(this.idle);
    const worker = (this.worker ??= startWorker());
    return new Promise((resolve) => {
      let settled = false;
      const finish = (reply: SlotReply | ClassifySlotReply, broken: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(guard);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        this.stopCurrent = undefined;
        if (broken) {
          if (this.worker === worker) this.worker = undefined;
          void worker.terminate();
        } else {
          this.idle = setTimeout(() => this.terminate(), IDLE_MS);
          this.idle.unref();
        }
        resolve(reply);
      };
      const onMessage = (reply: WorkerReply | ClassifyReply | ProgressMessage) => {
        if (reply.id !== job.id) return;
        if (reply.kind === 'progress') onProgress?.(reply);
        else finish(reply, false);
      };
      const onError = (error: Error & { code?: string }) => finish({
        kind: 'crash', id: job.id,
        message: error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `The analysis ran out of memory (limit ${WORKER_MEMORY_MB} MB) and was stopped.`
          : `The analysis worker failed: ${error.message}`,
      }, true);
      const onExit = (code: number) => finish({ kind: 'crash', id: job.id, message: `The analysis worker stopped (exit code ${code}).` }, true);
      const guard = setTimeout(() => finish({
        kind: 'crash', id: job.id,
        message: `The analysis overran its time budget of ${Math.round(job.timeoutMs / 1000)} s and was stopped.`,
      }, true), hardLimitMs);
      this.stopCurrent = (message) => finish({ kind: 'crash', id: job.id, message }, true);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage(job);
    });
  }

  /** Stops the worker; a job in flight answers a crash with `message`. */
  terminate(message = 'The server stopped during the analysis.'): void {
    clearTimeout(this.idle);
    if (this.stopCurrent) {
      this.stopCurrent(message);
      return;
    }
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
  }
}
