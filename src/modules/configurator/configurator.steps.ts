// Configure steps that never wait for a compile (extensions section 6a): a step is answered by
// SAT propagation in a worker; it is counted only where the model is compiled already. The first
// step on a model not compiled yet starts its compile in the background (one per model), placed
// on the model's seat before the step, so that a small model's step finds it compiled there.
// Meanwhile a step says `"remaining_status": "counting"`; after a compile that ran out of its
// budget (stored, never tried again) `"not counted"`.
import type { StoredFile } from '../hubfile/index.ts';
import type { ConfiguratorDeps } from './configurator.deps.ts';
import type { Placement } from './configurator.pool.ts';
import type { ModelSource } from './configurator.protocol.ts';
import { answerOf, call, type Answer } from './configurator.calls.ts';

type Decisions = { selected: string[]; deselected: string[]; why?: string; since?: { selected: string[]; deselected: string[] }; compact?: boolean };

const NOT_COUNTED = '"remaining_status":"not counted"';

/** Starts the model's compile in the background unless one runs or it failed; the requester needs room for it and its step. */
function startCompile(d: ConfiguratorDeps, at: Placement, file: StoredFile, source: ModelSource): void {
  const sha = source.sha256;
  if (d.jobs.stopped || !d.compiles.begin(sha)) return;
  if (!d.ctx.scheduler.hasRoom(at.requester, 2)) {
    d.compiles.set(sha, { state: 'unknown' });
    return;
  }
  const work = call(d, { ...at, long: true, flexible: false }, file, source, { op: 'compile' }).then(async (reply) => {
    if (reply.kind === 'done') return d.compiles.set(sha, { state: 'compiled' });
    // A stop or a full share is no verdict on the model: a later step tries again.
    if (d.jobs.stopped || d.ctx.scheduler.closed || reply.kind === 'busy' || reply.kind === 'gone' || reply.kind === 'need-text' || reply.kind === 'need-imports' || reply.kind === 'need-form') return d.compiles.set(sha, { state: 'unknown' });
    // Not valid UVL: every step says so itself; remembered here only, it is no compile failure.
    if (reply.kind === 'failed' || reply.kind === 'bad-value') return d.compiles.set(sha, { state: 'failed', message: reply.message });
    // Out of its budget of time (`budget`, or the hard limit) or memory (a crash): stored, never tried again.
    await d.compiles.fail(sha, reply.message);
  }).catch((error) => {
    d.compiles.set(sha, { state: 'unknown' });
    d.ctx.log.error({ err: error, sha256: sha }, 'configurator: a compile in the background failed');
  }).finally(() => d.jobs.computing.delete(work));
  d.jobs.computing.add(work);
}

export async function configureStep(d: ConfiguratorDeps, at: Placement, file: StoredFile, source: ModelSource, decisions: Decisions): Promise<Answer> {
  const before = await d.compiles.stateOf(source.sha256);
  // A stored compiled form is loaded by the step itself (configurator.forms.ts): nothing to compile.
  if (before.state === 'unknown' && !(await d.forms.has(source.sha256))) startCompile(d, at, file, source);
  // Flexible: while the model's seat compiles, the step takes another seat and answers by propagation.
  const reply = await call(d, { ...at, flexible: true }, file, source, { op: 'configure', ...decisions });
  if (reply.kind !== 'done') return answerOf(reply);
  if (reply.compiled) {
    d.compiles.set(source.sha256, { state: 'compiled' });
    return { kind: 'done', json: reply.json };
  }
  // Not counted here: the model is compiling, failed, or compiled on a seat this step did not get
  // (that seat may also have let it go: a compile there answers at once when it still holds it).
  const after = await d.compiles.stateOf(source.sha256);
  // Also when the step was to load a stored form that its worker could not read: compiled again.
  if (after.state === 'compiled' || (after.state === 'unknown' && !(await d.forms.has(source.sha256)))) startCompile(d, at, file, source);
  const counting = (await d.compiles.stateOf(source.sha256)).state === 'compiling';
  return { kind: 'done', json: counting ? reply.json.replace(NOT_COUNTED, '"remaining_status":"counting"') : reply.json };
}
