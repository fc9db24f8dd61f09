// The usual heavy worker kind: one script, a heap limit that is also its declared memory, an idle
// stop, and crash replies worded from what the worker was doing ("reading the model ran out of
// memory (limit 512 MB)"), so that every kind tells its user the same four causes the same way.
import type { WorkerKind } from './scheduler.ts';

export interface BudgetedKind {
  name: string;
  script: URL;
  /** The worker's heap limit, declared to the large lane's memory (HEAVY_MEMORY_MB). */
  memoryMb: number;
  /** The jobs' hard limit, only for the wording of an overrun. */
  hardLimitMs: number;
  /** What the worker does, as the subject of the crash sentences: 'reading the model'. */
  doing: string;
}

export function budgetedKind<Job extends { id: number }, Reply extends { id: number }>(kind: BudgetedKind): WorkerKind<Job, Reply> {
  const { doing, memoryMb, hardLimitMs } = kind;
  return {
    name: kind.name,
    memoryMb,
    options: {
      script: kind.script,
      resourceLimits: { maxOldGenerationSizeMb: memoryMb },
      idleMs: 60_000,
      crash: {
        error: (error) => error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `${doing} ran out of memory (limit ${memoryMb} MB)` : `${doing} failed: ${error.message}`,
        exit: (code) => `${doing} stopped (exit code ${code})`,
        overrun: () => `${doing} took longer than ${hardLimitMs / 1000} s`,
      },
    },
  };
}
