// One worker thread kept between jobs (starting one costs a module load), running one job at a
// time: a job is a message with an id, answered by the worker's message with that id. A worker
// that fails, exits or overruns a job's hard limit answers that job with a crash and is replaced
// at the next job, so a caller always gets one reply and never an exception.
import type { ResourceLimits, Worker } from 'node:worker_threads';
import { startTypeScriptWorker } from './worker.ts';

/**
 * Why a job has no reply of its worker. `out-of-memory`: its worker hit its heap limit;
 * `error`: an exception the worker did not catch; `exit`: the worker exited (or was terminated)
 * under it; `overrun`: past its hard limit; `stopped`: its scheduler or slot was closed or its
 * kind stopped (the job may not even have started). Only the first two say something of the
 * job's own work; the rest are the machinery's, which a caller storing a verdict must tell apart.
 */
export type CrashCause = 'out-of-memory' | 'error' | 'exit' | 'overrun' | 'stopped';

/** The reply of a job whose worker failed, exited, overran its limit or was stopped. */
export interface CrashReply {
  kind: 'crash';
  id: number;
  message: string;
  cause?: CrashCause;
}

/** What a crash reply says, per cause; each is told the job it ends. */
export interface CrashWording<Job> {
  /** The worker's 'error' event: an exception it did not catch, or its memory limit (`code` ERR_WORKER_OUT_OF_MEMORY). */
  error(error: Error & { code?: string }, job: Job): string;
  /** The worker exited while the job ran. */
  exit(code: number, job: Job): string;
  /** The job ran past its hard limit and its worker was stopped. */
  overrun(job: Job): string;
}

export interface WorkerSlotOptions<Job, Reply, Progress> {
  /** The worker's module (a `.ts` file URL, see startTypeScriptWorker). */
  script: URL;
  resourceLimits?: ResourceLimits;
  /** A worker idle this long is stopped, giving its memory back; without it, it stays until stop(). */
  idleMs?: number;
  crash: CrashWording<Job>;
  /** Messages that report on the job before its final reply; they go to run()'s `onProgress`. */
  isProgress?: (message: Reply | Progress) => message is Progress;
}

interface Message {
  id: number;
}

export class WorkerSlot<Job extends Message, Reply extends Message, Progress extends Message = never> {
  private worker: Worker | undefined;
  private idle: NodeJS.Timeout | undefined;
  /** Ends the job in flight with a crash saying `message`. */
  private stopCurrent: ((message: string) => void) | undefined;
  /** The last job queued: each waits for the one before, as the worker runs one at a time. */
  private tail: Promise<unknown> = Promise.resolve();
  /** Set by close(): a job still queued then must not start a worker that nothing will stop. */
  private closedMessage: string | undefined;

  constructor(private readonly options: WorkerSlotOptions<Job, Reply, Progress>) {}

  /** Whether a worker thread is up (holding its memory): false before the first job, after a crash, an idle stop or stop(). */
  get alive(): boolean {
    return this.worker !== undefined;
  }

  /** Runs `job` after those queued before it; `hardLimitMs` (from its start) stops a worker that stopped checking its own deadline. */
  run(job: Job, hardLimitMs: number, onProgress?: (message: Progress) => void): Promise<Reply | CrashReply> {
    const next = this.tail.then(() => this.runNow(job, hardLimitMs, onProgress));
    // A job that threw (a message the worker cannot take) must not hold up those behind it.
    this.tail = next.catch(() => undefined);
    return next;
  }

  /**
   * Stops the worker now; a later job starts another. The job in flight answers a crash saying
   * `message`, or without one, the wording of its worker's exit.
   */
  stop(message?: string): void {
    clearTimeout(this.idle);
    if (this.stopCurrent && message !== undefined) {
      this.stopCurrent(message);
      return;
    }
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
  }

  /**
   * For good (the app closes): stops the worker as stop() does (the job in flight answers as its
   * worker's exit); jobs still queued answer a crash saying `message`.
   */
  close(message: string): void {
    this.closedMessage = message;
    this.stop();
  }

  private runNow(job: Job, hardLimitMs: number, onProgress?: (message: Progress) => void): Promise<Reply | CrashReply> {
    if (this.closedMessage !== undefined) return Promise.resolve({ kind: 'crash', id: job.id, message: this.closedMessage, cause: 'stopped' });
    clearTimeout(this.idle);
    const { crash, isProgress } = this.options;
    const worker = (this.worker ??= startTypeScriptWorker(this.options.script, { resourceLimits: this.options.resourceLimits }));
    return new Promise((resolve) => {
      let settled = false;
      const finish = (reply: Reply | CrashReply, broken: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(guard);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        this.stopCurrent = undefined;
        if (broken) this.replace(worker);
        else this.idleStop();
        resolve(reply);
      };
      const crashed = (message: string, cause: CrashCause) => finish({ kind: 'crash', id: job.id, message, cause }, true);
      const onMessage = (message: Reply | Progress) => {
        if (message.id !== job.id) return;
        if (isProgress?.(message)) onProgress?.(message);
        else finish(message as Reply, false);
      };
      const onError = (error: Error & { code?: string }) => crashed(crash.error(error, job), error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'out-of-memory' : 'error');
      const onExit = (code: number) => crashed(crash.exit(code, job), 'exit');
      const guard = setTimeout(() => crashed(crash.overrun(job), 'overrun'), hardLimitMs);
      this.stopCurrent = (message) => crashed(message, 'stopped');
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage(job);
    });
  }

  /** A worker that failed or may still be busy is not reused: the next job starts another. */
  private replace(worker: Worker): void {
    if (this.worker === worker) this.worker = undefined;
    void worker.terminate();
  }

  private idleStop(): void {
    if (this.options.idleMs === undefined) return;
    this.idle = setTimeout(() => this.stop(), this.options.idleMs);
    this.idle.unref();
  }
}
