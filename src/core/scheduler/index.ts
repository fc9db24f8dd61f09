export { Scheduler, TooManyJobs, SMALL_MODEL_FEATURES, laneOf, placementIndex, type Lane, type SchedulerOptions, type Submission, type WorkerKind } from './scheduler.ts';
export { requesterOf } from './requester.ts';
export { budgetedKind, type BudgetedKind } from './budgeted-kind.ts';
