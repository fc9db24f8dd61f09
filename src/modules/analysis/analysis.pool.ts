// Worker threads for the analysis: one slot per ANALYSIS_WORKERS, each keeping its worker
// between jobs (starting one costs a module load) and replacing it after a crash or a kill.
import { WorkerSlot as Slot, type CrashReply } from '../../core/worker-slot.ts';
import type { ClassifyJob, ClassifyReply, ProgressMessage, WorkerJob, WorkerReply } from './analysis.protocol.ts';

/** Heap of one worker; beyond it V8 stops the worker and the model is recorded as failed. */
export const WORKER_MEMORY_MB = 2048;
/** An idle worker is stopped after this long, giving its memory back. */
const IDLE_MS = 60_000;

export type SlotReply = WorkerReply | CrashReply;
export type ClassifySlotReply = ClassifyReply | CrashReply;

export class WorkerSlot {
  private readonly slot = new Slot<WorkerJob | ClassifyJob, WorkerReply | ClassifyReply, ProgressMessage>({
    script: new URL('./analysis.worker.ts', import.meta.url),
    resourceLimits: { maxOldGenerationSizeMb: WORKER_MEMORY_MB },
    idleMs: IDLE_MS,
    isProgress: (message): message is ProgressMessage => message.kind === 'progress',
    crash: {
      error: (error) => error.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? `The analysis ran out of memory (limit ${WORKER_MEMORY_MB} MB) and was stopped.`
        : `The analysis worker failed: ${error.message}`,
      exit: (code) => `The analysis worker stopped (exit code ${code}).`,
      overrun: (job) => `The analysis overran its time budget of ${Math.round(job.timeoutMs / 1000)} s and was stopped.`,
    },
  });

  /**
   * Runs one message (after the one before it); `hardLimitMs` kills a worker that stopped
   * checking its deadline. `onProgress` receives the results the worker reports before its final reply.
   */
  run(job: WorkerJob, hardLimitMs: number, onProgress?: (message: ProgressMessage) => void): Promise<SlotReply>;
  run(job: ClassifyJob, hardLimitMs: number): Promise<ClassifySlotReply>;
  run(job: WorkerJob | ClassifyJob, hardLimitMs: number, onProgress?: (message: ProgressMessage) => void): Promise<SlotReply | ClassifySlotReply> {
    return this.slot.run(job, hardLimitMs, onProgress);
  }

  /** Stops the worker; a job in flight answers a crash with `message`. */
  terminate(message = 'The server stopped during the analysis.'): void {
    this.slot.stop(message);
  }
}
