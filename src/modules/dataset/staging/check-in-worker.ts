// The checks of staged and uploaded model files off the serving thread (extensions section 10):
// each is a job of core's scheduler in a worker of the `check` kind, queued per requester (the
// uploader's account) like every other heavy job. A check waits for room rather than answering
// 429: the upload page stages several files at once, and the upload checks each of its models.
// The page's own checks (staging, listing) are background work: they leave half of the share to
// what the person asks next (scheduler README, "Background work").
import type { CrashReply } from '../../../core/worker-slot.ts';
import { budgetedKind, type Lane, type Scheduler } from '../../../core/scheduler/index.ts';
import type { ModelCheck } from '../model-check.ts';
import { withoutFinalStop } from '../../../core/text.ts';

export interface CheckJob {
  id: number;
  bytes: Uint8Array;
}

export interface CheckReply {
  id: number;
  kind: 'done';
  check: ModelCheck;
}

/**
 * Heap of one worker: the parser's model of the largest accepted file (MAX_FEATURES, 200,000
 * features). Measured on the modeltool's worker, which parses as this one does and converts too:
 * the largest corpus models add about 100 MB of resident memory, a generated 200,000-feature
 * model about 300 MB (with a 384 MB heap limit).
 */
const WORKER_MEMORY_MB = 512;
/** A parse past this is stopped: the file gets an error instead of holding a worker. */
const HARD_LIMIT_MS = 120_000;
/** Files up to this size take the small lane: about 1,000 features of UVL. */
const SMALL_BYTES = 64 * 1024;

export const checkWorker = budgetedKind<CheckJob, CheckReply>({
  name: 'check', script: new URL('./check.worker.ts', import.meta.url), memoryMb: WORKER_MEMORY_MB, hardLimitMs: HARD_LIMIT_MS, doing: 'checking it',
});

let ids = 0;

/** A check that could not be made: an error naming why, never remembered (StagedChecks). */
export function uncheckedOf(reply: CrashReply): ModelCheck & { unchecked: true } {
  return { valid: false, errors: [`The model could not be checked: ${withoutFinalStop(reply.message)}. Try again.`], warnings: [], features: 0, unchecked: true };
}

/**
 * Checks `bytes` in a worker for `requester` (an account, or a background key), waiting for room;
 * `background`: the upload page's own checks, which leave half of the requester's share free.
 */
export async function checkOff(scheduler: Scheduler, requester: string, bytes: Uint8Array, background = false): Promise<ModelCheck> {
  const lane: Lane = bytes.byteLength <= SMALL_BYTES ? 'small' : 'large';
  const reply = await scheduler.submitWhenRoom(checkWorker, { requester, lane, job: { id: ++ids, bytes }, hardLimitMs: HARD_LIMIT_MS, background });
  return reply.kind === 'crash' ? uncheckedOf(reply) : reply.check;
}
