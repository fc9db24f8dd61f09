// Conversion of uploaded models of other formats off the serving thread (extensions section 10):
// each conversion is a job of core's scheduler, queued per requester (the uploader's account)
// like every other heavy job. The answers are those of convertUpload and conversionOf.
import type { CrashReply } from '../../../core/worker-slot.ts';
import { budgetedKind, type Scheduler } from '../../../core/scheduler/index.ts';
import type { ModelFormat } from '../../../../packages/uvl/src/index.ts';
import { ConversionError, formatTitle, type Conversion } from './converted-upload.ts';
import { tooManyFeatures } from './staging-names.ts';
import { withoutFinalStop } from '../../../core/text.ts';

export interface ConvertJob {
  id: number;
  /** `convert`: the UVL text too; `report`: the format and the loss report only. */
  op: 'convert' | 'report';
  name: string;
  bytes: Uint8Array;
  /** A FeatureIDE file with more features is refused from a count of its bytes, before it is read. */
  maxFeatures?: number;
}

export interface ConvertReply {
  id: number;
  kind: 'done';
  format: ModelFormat | undefined;
  uvl?: string;
  losses: string[];
  errors: string[];
  /** Set when the file has more than the job's maxFeatures: its count, and nothing was read. */
  tooManyFeatures?: number;
}

/**
 * Heap of one worker: the reader's tree and model. 10^6 features of FeatureIDE took 1.3 GB, so the
 * 200,000 of MAX_FEATURES' default about 260 MB; a file over MAX_FEATURES is counted, not read.
 */
const WORKER_MEMORY_MB = 384;
/** A reader past this is stopped: the upload is refused rather than a worker held. */
const HARD_LIMIT_MS = 120_000;
/** Uploads up to this size take the small lane: about 1,000 features of FeatureIDE XML. */
const SMALL_BYTES = 128 * 1024;

export const convertWorker = budgetedKind<ConvertJob, ConvertReply>({
  name: 'convert', script: new URL('./convert.worker.ts', import.meta.url), memoryMb: WORKER_MEMORY_MB, hardLimitMs: HARD_LIMIT_MS, doing: 'reading it',
});

let ids = 0;

/**
 * Reads the file in a worker. An upload throws TooManyJobs (429) when the uploader holds its share
 * of heavy jobs; a report (the upload page lists every staged file's) waits for room instead, as
 * the page's background work (it leaves half of the share to what the person asks next).
 */
async function read(scheduler: Scheduler, userId: number, op: ConvertJob['op'], name: string, bytes: Uint8Array, maxFeatures?: number): Promise<ConvertReply | CrashReply> {
  const lane = bytes.byteLength <= SMALL_BYTES ? 'small' : 'large';
  const submission = { requester: `account:${userId}`, lane, job: { id: ++ids, op, name, bytes, maxFeatures }, hardLimitMs: HARD_LIMIT_MS } as const;
  return op === 'convert' ? scheduler.submit(convertWorker, submission) : scheduler.submitWhenRoom(convertWorker, { ...submission, background: true });
}

/**
 * As convertUpload, off the serving thread: the UVL text, or ConversionError; a FeatureIDE file
 * with more than `maxFeatures` features throws the staging refusal too_many_features unread.
 */
export async function convertUploadOff(scheduler: Scheduler, userId: number, name: string, bytes: Uint8Array, maxFeatures?: number): Promise<{ uvl: string } & Conversion> {
  const reply = await read(scheduler, userId, 'convert', name, bytes, maxFeatures);
  if (reply.kind === 'crash') throw new ConversionError(`${name} could not be read: ${reply.message}`, [reply.message]);
  if (reply.tooManyFeatures !== undefined) throw tooManyFeatures(name, reply.tooManyFeatures, maxFeatures!);
  if (reply.errors.length > 0 || reply.uvl === undefined || reply.format === undefined || reply.format === 'uvl') {
    const what = reply.format && reply.format !== 'uvl' ? `a valid ${formatTitle(reply.format)} model` : 'a model in a format the hub reads';
    throw new ConversionError(`${name} is not ${what}: ${reply.errors[0] ?? 'it could not be read'}`, reply.errors);
  }
  return { uvl: reply.uvl, format: reply.format, losses: reply.losses };
}

/** As conversionOf, off the serving thread: the format and loss report of a stored original. */
export async function conversionOff(scheduler: Scheduler, userId: number, name: string, bytes: Uint8Array): Promise<Conversion> {
  const reply = await read(scheduler, userId, 'report', name, bytes);
  if (reply.kind === 'crash') return { format: 'featureide', losses: [`The loss report could not be made: ${withoutFinalStop(reply.message)}.`] };
  const format = reply.format === undefined || reply.format === 'uvl' ? 'featureide' : reply.format;
  return { format, losses: reply.losses };
}
