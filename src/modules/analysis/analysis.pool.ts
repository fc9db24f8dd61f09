// Worker threads for the analysis. The runner's models go to core's scheduler (the `analysis`
// kind of worker), as one requester of its own (background work: its share of the workers, round
// robin with the people waiting for pages), small models in the small lane; the runner still
// claims at most ANALYSIS_WORKERS rows at a time. The edit classifier keeps one slot of its own.
import { WorkerSlot as Slot, type CrashReply, type WorkerSlotOptions } from '../../core/worker-slot.ts';
import { laneOf, type Scheduler, type WorkerKind } from '../../core/scheduler/index.ts';
import { featureEstimate } from '../../../packages/uvl/src/index.ts';
import type { ClassifyJob, ClassifyReply, ProgressMessage, WorkerJob, WorkerReply } from './analysis.protocol.ts';

/**
 * Heap of one worker (old generation, plus YOUNG_MB of young); beyond it V8 stops the worker and
 * the model is recorded as failed (out of memory: the model's size, not retried). Measured, the
 * resident memory a worker adds (tsx sources, heap and what V8 holds beside): automotive2_4
 * (18,616 features) 470 MB with a 2,048 MB heap limit over 25 s, 378 MB with 448 MB and done in
 * 29 s (no time lost to collection); linux-2.6.33.3 300 MB until its 60 s budget ran out.
 */
export const WORKER_MEMORY_MB = 448;
const YOUNG_MB = 64;
/** An idle worker is stopped after this long, giving its memory back. */
const IDLE_MS = 60_000;
/** The fair queues' key of the analysis runner's jobs. */
const REQUESTER = 'background:analysis';

export type SlotReply = WorkerReply | CrashReply;
export type ClassifySlotReply = ClassifyReply | CrashReply;

const workerOptions: WorkerSlotOptions<WorkerJob | ClassifyJob, WorkerReply | ClassifyReply, ProgressMessage> = {
  script: new URL('./analysis.worker.ts', import.meta.url),
  resourceLimits: { maxOldGenerationSizeMb: WORKER_MEMORY_MB, maxYoungGenerationSizeMb: YOUNG_MB },
  idleMs: IDLE_MS,
  isProgress: (message): message is ProgressMessage => message.kind === 'progress',
  crash: {
    error: (error) => error.code === 'ERR_WORKER_OUT_OF_MEMORY'
      ? `The analysis ran out of memory (limit ${WORKER_MEMORY_MB} MB) and was stopped.`
      : `The analysis worker failed: ${error.message}`,
    exit: (code) => `The analysis worker stopped (exit code ${code}).`,
    overrun: (job) => `The analysis overran its time budget of ${Math.round(job.timeoutMs / 1000)} s and was stopped.`,
  },
};

/** Declared to the large lane's memory (HEAVY_MEMORY_MB): its heap limits. */
export const analysisWorker: WorkerKind<WorkerJob | ClassifyJob, WorkerReply | ClassifyReply, ProgressMessage> = { name: 'analysis', memoryMb: WORKER_MEMORY_MB + YOUNG_MB, options: workerOptions };

/** A model analysed through the scheduler: one of the runner's ANALYSIS_WORKERS tokens. */
export class ScheduledAnalysis {
  constructor(private readonly scheduler: Scheduler) {}

  /** Runs one message when the scheduler gives it a seat; `hardLimitMs` counts from its start. */
  run(job: WorkerJob, hardLimitMs: number, onProgress?: (message: ProgressMessage) => void): Promise<SlotReply> {
    const lane = laneOf(featureEstimate(job.text));
    return this.scheduler.submitWhenRoom(analysisWorker, { requester: REQUESTER, lane, job, hardLimitMs, onProgress }) as Promise<SlotReply>;
  }

  /** The runner stops: analyses running or queued answer a crash with `message`. */
  terminate(message = 'The server stopped during the analysis.'): void {
    this.scheduler.stopKind(analysisWorker.name, message);
  }
}

/** The edit classifier's own worker: one pair at a time, its kill timer starting with the run. */
export class WorkerSlot {
  private readonly slot = new Slot(workerOptions);

  run(job: ClassifyJob, hardLimitMs: number): Promise<ClassifySlotReply> {
    return this.slot.run(job, hardLimitMs) as Promise<ClassifySlotReply>;
  }

  /** Stops the worker; a job in flight answers a crash with `message`. */
  terminate(message = 'The server stopped during the analysis.'): void {
    this.slot.stop(message);
  }
}
