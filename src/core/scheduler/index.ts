export { Scheduler, TooManyJobs, SMALL_MODEL_FEATURES, placementIndex, type Lane, type SchedulerOptions, type Submission, type WorkerKind } from './scheduler.ts';
export { requesterOf } from './requester.ts';
