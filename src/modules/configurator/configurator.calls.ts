// One job of the configurator through core's scheduler, and what a request gets from its reply;
// shared by the service (stored results) and the configure steps (configurator.steps.ts).
import type { Readable } from 'node:stream';
import type { StoredFile } from '../hubfile/index.ts';
import type { StoredBody } from './configurator.cache.ts';
import type { ConfiguratorDeps } from './configurator.deps.ts';
import { runJob, type Placement, type PoolReply } from './configurator.pool.ts';
import type { ConfiguratorJob, ConfiguratorOp, ConfiguratorProgress, ModelSource } from './configurator.protocol.ts';

/** A long job's watchers: its progress reports, and the flag that cancels it. */
export interface JobWatch { cancel: Int32Array; onProgress: (p: ConfiguratorProgress) => void }

/** What a request gets: the answer, `pending` (202), a bad value (400) or a failure (422). */
export type Answer =
  | { kind: 'done'; json: string }
  /** `tag`: an entity tag for a result that never changes for its content (the page's tree and probabilities): 304 when the client has it. */
  | { kind: 'stored'; body: StoredBody; tag?: string }
  /** A sample kept packed in the file store (sample-stream.ts sends it as JSON or CSV). */
  | { kind: 'sample'; body: Readable }
  /** `progress`: a t-wise sample being computed on this instance, as its worker last reported. */
  | { kind: 'pending'; progress?: SampleProgress }
  | { kind: 'bad-value' | 'failed'; message: string }
  /** The requester holds its share of heavy jobs already: 429 with Retry-After. */
  | { kind: 'busy'; message: string; retryAfterS: number }
  | { kind: 'not-found' };

/** The 202's `progress` (issue 37, item 6): interactions covered of the total known so far, seconds spent and a linear estimate of those left. */
export interface SampleProgress { covered: number; total: number; elapsed_s: number; estimate_s: number | null }

/** Who asks (the fair queues' key: account, else client address). */
export type Requester = string;

/** The jobs that count or sample on the compiled form: a stored one is loaded for them (configurator.forms.ts). */
const USES_FORM = new Set(['configure', 'compile', 'commonality', 'uniform']);

/**
 * Runs one job through the scheduler; a worker that does not hold the model gets it again with
 * its text (and imports), one that does not hold it compiled with its stored compiled form when
 * there is one. A form the job compiled is stored. `busy` when the requester holds its share of
 * jobs already.
 */
export async function call(d: ConfiguratorDeps, at: Placement, file: StoredFile, source: ModelSource, op: ConfiguratorOp, watch?: JobWatch): Promise<PoolReply> {
  const formStored = USES_FORM.has(op.op) && await d.forms.has(source.sha256);
  let job = { id: ++d.jobs.ids, model: source, timeoutMs: d.timeoutMs, cancel: watch?.cancel, formStored, ...op } as ConfiguratorJob;
  // At most: the text, then the form.
  for (let round = 0; round < 3; round++) {
    const reply = await runJob(d.ctx.scheduler, job, d.hardLimitMs, at, watch?.onProgress);
    if (reply.kind === 'need-text') {
      const text = await d.ctx.services.hubfile.readText(file);
      // Deleted since the request found it: other files may have the same content, so nothing is
      // stored for it (a failure would be kept for every copy); this request gets a 404.
      if (text === undefined) return { id: job.id, kind: 'gone' };
      const imports = source.imports ?? d.knownFiles.get(file.id)?.imports;
      job = { ...job, id: ++d.jobs.ids, model: { ...source, text, imports } };
    } else if (reply.kind === 'need-form') {
      // Gone since (a store restored without it): the job goes on without, and compiles if it must.
      const form = await d.forms.read(source.sha256);
      if (form) d.jobs.formsLoaded++;
      job = { ...job, id: ++d.jobs.ids, form, formStored: form !== undefined };
    } else {
      if (reply.kind === 'done' && reply.formRefused) d.forms.refused(source.sha256);
      if (reply.kind === 'done' && reply.form) {
        d.jobs.formsCompiled++;
        d.forms.save(source.sha256, reply.form);
      }
      return reply;
    }
  }
  return { id: job.id, kind: 'failed', message: 'The model could not be read.' };
}

export function answerOf(reply: PoolReply): Answer {
  if (reply.kind === 'done') return { kind: 'done', json: reply.json };
  if (reply.kind === 'bad-value') return { kind: 'bad-value', message: reply.message };
  if (reply.kind === 'busy') return { kind: 'busy', message: reply.message, retryAfterS: reply.retryAfterS };
  if (reply.kind === 'gone') return { kind: 'not-found' };
  return { kind: 'failed', message: reply.kind === 'need-text' || reply.kind === 'need-imports' || reply.kind === 'need-form' ? 'The model could not be read.' : reply.message };
}

