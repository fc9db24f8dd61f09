// What the analysis service's operations work with, passed to each of them explicitly: the module
// context, this instance's name in the claims, the time limits, the runner's state and the edit
// classifier, all living as long as the service.
import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { ModuleContext } from '../../core/modules.ts';
import { createEditClassifier } from './analysis.edit.ts';
import type { ScheduledAnalysis } from './analysis.pool.ts';

/** Time budget of deciding one pair of model versions' edit class. */
export const EDIT_CLASS_BUDGET_MS = 20_000;

/** The runner's state (analysis.runner.ts): its worker slots, the claim loop and its timers. */
export class RunnerState {
  /** Stopped until start(), and again from stop() on: nothing more is claimed. */
  stopped = true;
  /** This instance's ANALYSIS_WORKERS tokens (jobs go to core's scheduler), and those not analysing a model now. */
  slots: ScheduledAnalysis[] = [];
  readonly free: ScheduledAnalysis[] = [];
  /** The models being analysed, by analysis row: the heartbeat renews their claims, stop() waits for them. */
  readonly running = new Map<number, Promise<void>>();
  /** The claim loop: whether one runs, when it ends, and whether a kick came meanwhile (one more round). */
  kicking = false;
  kickDone: Promise<void> = Promise.resolve();
  kickAgain = false;
  poller: NodeJS.Timeout | undefined;
  beater: NodeJS.Timeout | undefined;
  /** Numbers the worker messages. */
  jobIds = 0;
  /** drain()'s waiters, woken when this instance's work runs out. */
  readonly idle: (() => void)[] = [];
  /** The startup catch-up (enqueueMissingInBackground), which stop() waits for. */
  background: Promise<unknown> = Promise.resolve();
}

export interface AnalysisDeps {
  ctx: ModuleContext;
  /** This instance's name in the claims of the analysis rows. */
  instance: string;
  /** The engine's own budget of one model, and the hard kill of its worker. */
  timeoutMs: number;
  hardLimitMs: number;
  runner: RunnerState;
  edits: ReturnType<typeof createEditClassifier>;
}

export function createAnalysisDeps(ctx: ModuleContext): AnalysisDeps {
  const timeoutMs = ctx.config.analysisTimeoutS * 1000;
  return {
    ctx,
    instance: `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`,
    timeoutMs,
    // Parsing and the engine's last step are outside its own deadline checks: the hard kill leaves room for them.
    hardLimitMs: Math.round(timeoutMs * 1.5) + 15_000,
    runner: new RunnerState(),
    edits: createEditClassifier(EDIT_CLASS_BUDGET_MS),
  };
}

export const sha256Of = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
