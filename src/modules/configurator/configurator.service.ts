// Configurator service (extensions section 6, "In the hub"): configure steps answered by a worker
// at once by propagation, counted when the model is compiled (section 6a); commonality and
// samples computed once per (content, kind, parameters, engine version), stored, and answered
// `pending` while a worker computes them. Engine work never runs on the event loop: every job
// goes to core's scheduler, queued per requester (section 10). Each operation is an exported function taking the
// dependencies (configurator.deps.ts) first; the service is those operations bound once.
import type { ModuleContext } from '../../core/modules.ts';
import { bindOperations } from '../../core/operations.ts';
import { ENGINE_VERSION } from '../../../packages/analysis/src/index.ts';
import { featureEstimate, IMPORT_READ_ROUNDS } from '../../../packages/uvl/src/index.ts';
import { laneOf } from '../../core/scheduler/index.ts';
import type { StoredFile } from '../hubfile/index.ts';
import type { StoredBody } from './configurator.cache.ts';
import { createConfiguratorDeps, sha256Of, type ConfiguratorDeps } from './configurator.deps.ts';
import { runJob, type Placement } from './configurator.pool.ts';
import { configureStep } from './configurator.steps.ts';
import { answerOf, call, type Answer, type Requester } from './configurator.calls.ts';
import { paramsText, type SampleRequest } from './configurator.params.ts';
import { SAMPLE_CANCELLED, type ConfiguratorJob, type ConfiguratorOp, type ModelSource } from './configurator.protocol.ts';
import * as repo from './configurator.repository.ts';
import { sampleObjectKey } from './sample-stream.ts';
import { sampleCitation, type SampleCitation } from './configurator.citation.ts';
import { probabilitiesByName } from './probabilities.ts';

/** A configure step; `since`: the decisions of the state the caller holds (the answer is then what changed). */
export type ConfigureRequest = { selected: string[]; deselected: string[]; why?: string; since?: { selected: string[]; deselected: string[] }; compact?: boolean };

/** Files the service knows the content of: stored files never change, so the hash is kept. */
const KNOWN_FILES = 1000;
/** Cheap test for an `imports` section: only such a model needs the worker to name its imports first. */
const HAS_IMPORTS = /^\s*imports\b/m;

/**
 * The imports of a model that has an `imports` section, read from its dataset in rounds (the
 * worker parses and names the files still missing), as the analysis does.
 */
async function importsOf(d: ConfiguratorDeps, requester: Requester, file: StoredFile, text: string, textSha: string): Promise<Record<string, string | null>> {
  const imports: Record<string, string | null> = {};
  for (let round = 0; round < IMPORT_READ_ROUNDS; round++) {
    const job: ConfiguratorJob = { id: ++d.jobs.ids, model: { sha256: textSha, fileName: file.name, text, imports }, timeoutMs: d.timeoutMs, op: 'resolve' };
    const reply = await runJob(d.ctx.scheduler, job, d.hardLimitMs, { requester, lane: laneOf(featureEstimate(text)), flexible: true });
    if (reply.kind !== 'need-imports') break;
    const texts = await Promise.all(reply.paths.map((p) => d.ctx.services.hubfile.readSibling(file, p)));
    reply.paths.forEach((p, i) => { imports[p] = texts[i] ?? null; });
  }
  return imports;
}

/** The content key: the text's hash, or for a model with imports the hash of the text and its imports. */
async function sourceOf(d: ConfiguratorDeps, requester: Requester, file: StoredFile): Promise<{ source: ModelSource; features: number } | undefined> {
  const known = d.knownFiles.get(file.id);
  if (known) return { source: { sha256: known.sha256, fileName: file.name }, features: known.features };
  const text = await d.ctx.services.hubfile.readText(file);
  if (text === undefined) return undefined;
  const textSha = sha256Of(text);
  const imports = HAS_IMPORTS.test(text) ? await importsOf(d, requester, file, text, textSha) : undefined;
  const paths = Object.keys(imports ?? {}).sort();
  const sha256 = paths.length === 0 ? textSha : sha256Of(JSON.stringify([text, ...paths.map((p) => [p, imports![p]])]));
  const features = [text, ...paths.map((p) => imports![p] ?? '')].reduce((n, t) => n + featureEstimate(t), 0);
  d.knownFiles.set(file.id, { sha256, imports, features });
  if (d.knownFiles.size > KNOWN_FILES) d.knownFiles.delete(d.knownFiles.keys().next().value!);
  return { source: { sha256, fileName: file.name, text, imports }, features };
}

/** A file the viewer may see, with its content key and lane; undefined for an unknown, hidden or missing one. */
export async function visible(d: ConfiguratorDeps, fileId: number, viewerId: number | null, requester: Requester) {
  const file = await d.ctx.services.hubfile.getVisibleFile(fileId, viewerId);
  const found = file && await sourceOf(d, requester, file);
  return file && found ? { file, source: found.source, lane: laneOf(found.features) } : undefined;
}

/**
 * Computes a stored result in the background; the row says `running` meanwhile. A packed sample
 * goes to the file store under `storedKey` (one key per computation) before its row says `done`;
 * a sample's row gets its weight, and the samples' bound is kept (configurator.evict.ts).
 */
function compute(d: ConfiguratorDeps, id: number, at: Placement, file: StoredFile, source: ModelSource, op: ConfiguratorOp, storedKey: string, watchKey: string): void {
  const { db, log } = d.ctx;
  d.jobs.computed++;
  const watched = d.watches.start(watchKey, at.requester);
  // The commonality (one per model) is not a sample: it weighs nothing against the bound.
  const weigh = (bytes: number) => (op.op === 'commonality' ? null : bytes + repo.ROW_BYTES);
  const work = call(d, { ...at, long: true }, file, source, op, watched).then(async (reply) => {
    // Stopping, cancelled, or the requester's share was taken meanwhile: the claim goes back, a later request takes it.
    if (reply.kind === 'failed' && reply.message === SAMPLE_CANCELLED) d.jobs.stoppedEarly++;
    if (d.jobs.stopped || d.ctx.scheduler.closed || reply.kind === 'busy' || reply.kind === 'gone' || d.watches.cancelled(watched)) return repo.release(db, id, d.instance);
    if (reply.kind === 'budget') await d.compiles.fail(source.sha256, reply.message);
    else if (reply.kind === 'done' && op.op !== 'twise') d.compiles.set(source.sha256, { state: 'compiled' });
    let finished: boolean;
    let bytes: number | null;
    if (reply.kind === 'done' && reply.sample) {
      await d.ctx.store.put(storedKey, Buffer.from(reply.sample.buffer, reply.sample.byteOffset, reply.sample.byteLength));
      bytes = weigh(reply.sample.byteLength);
      finished = await repo.finish(db, id, d.instance, { status: 'done', result: null, stored_key: storedKey, stored_bytes: bytes, summary: null, error: null });
      // Another instance took the claim over and stores its own object: this one is nobody's.
      if (!finished) await d.ctx.store.delete(storedKey);
    } else {
      const answer = answerOf(reply);
      const outcome = answer.kind === 'done'
        ? { status: 'done' as const, result: answer.json, summary: reply.kind === 'done' ? reply.summary ?? null : null, error: null }
        : { status: 'failed' as const, result: null, summary: null, error: 'message' in answer ? answer.message : 'failed' };
      bytes = weigh(Buffer.byteLength(outcome.result ?? outcome.error ?? '', 'utf8'));
      finished = await repo.finish(db, id, d.instance, { ...outcome, stored_bytes: bytes });
    }
    if (finished && bytes !== null) await d.evictor.stored(id).catch((error) => log.warn({ err: error }, 'configurator: cleaning up the stored samples failed'));
  }).catch((error) => log.error({ err: error, sha256: source.sha256 }, 'configurator: storing a result failed'))
    .finally(() => {
      d.watches.end(watchKey, watched);
      d.jobs.computing.delete(work);
    });
  d.jobs.computing.add(work);
}

/** The stored result of (content, kind, parameters), else `pending` after making sure someone computes it. */
async function stored(d: ConfiguratorDeps, fileId: number, viewerId: number | null, requester: Requester, kind: string, params: string, op: ConfiguratorOp): Promise<Answer> {
  const { db } = d.ctx;
  const found = await visible(d, fileId, viewerId, requester);
  if (!found) return { kind: 'not-found' };
  const key = { sha256: found.source.sha256, kind, params, engine_version: ENGINE_VERSION };
  const cacheKey = `${key.sha256}\n${kind}\n${params}`;
  const cached = d.finished.get(cacheKey);
  if (cached !== undefined) return { kind: 'stored', body: cached };
  let row = await repo.find(db, key);
  // A sample served: dated for the bound's least-recently-used order, at most once a minute (the commonality is not bounded).
  if (row && row.status !== 'running' && kind !== 'commonality') await touchServed(d, row);
  if (row?.status === 'done' && row.stored_key !== null) {
    const content = await d.ctx.store.get(row.stored_key);
    if (content) return { kind: 'sample', body: content.body };
    // Its object is gone (deleted past the bound after this row was read, or a store restored without it): computed again.
    await repo.forget(db, row.id, row.stored_key);
    row = undefined;
  }
  if (row?.status === 'done') return { kind: 'stored', body: d.finished.remember(cacheKey, row.result!) };
  if (row?.status === 'failed') return { kind: /^unknown feature/i.test(row.error ?? '') ? 'bad-value' : 'failed', message: row.error ?? 'failed' };
  if (d.jobs.stopped) return { kind: 'pending' };
  // Commonality and uniform samples need the compiled form: a model that did not compile is not tried again.
  const compile = op.op === 'twise' ? undefined : await d.compiles.stateOf(found.source.sha256);
  if (compile?.state === 'failed') return { kind: 'failed', message: compile.message };
  // A sample already claimed is being computed (or will be taken over by a request with room): polling it costs no job.
  if (!d.ctx.scheduler.hasRoom(requester)) return row ? { kind: 'pending', progress: d.watches.progress(cacheKey, requester) } : busyAnswer(d);
  const at: Placement = { requester, lane: found.lane };
  if (!row) {
    const id = await repo.claimNew(db, key, d.instance);
    if (id !== undefined) compute(d, id, at, found.file, found.source, op, sampleObjectKey(key), cacheKey);
  } else if (row.claimed_at !== null && await repo.claimStale(db, row.id, d.instance, new Date(Date.now() - d.staleMs).toISOString())) {
    compute(d, row.id, at, found.file, found.source, op, sampleObjectKey(key), cacheKey);
  }
  return { kind: 'pending', progress: d.watches.progress(cacheKey, requester) };
}

/** A finished row served is dated again when its date is older than this: one write a minute at most, none per request. */
export const TOUCH_AFTER_MS = 60_000;

async function touchServed(d: ConfiguratorDeps, row: repo.SampleRow): Promise<void> {
  const before = new Date(Date.now() - TOUCH_AFTER_MS).toISOString();
  if (row.last_used_at === null || row.last_used_at < before) await repo.touch(d.ctx.db, row.id, before);
}

function busyAnswer(d: ConfiguratorDeps): Answer {
  return { kind: 'busy', message: `Too many heavy requests at once: at most ${d.ctx.config.heavyJobsPerRequester} per requester are queued or running.`, retryAfterS: 2 };
}

/** One configure step: the propagation answer at once, counted when the model is compiled (section 6a); never stored. */
export async function configure(d: ConfiguratorDeps, fileId: number, viewerId: number | null, requester: Requester, request: ConfigureRequest): Promise<Answer> {
  const found = await visible(d, fileId, viewerId, requester);
  if (!found) return { kind: 'not-found' };
  return configureStep(d, { requester, lane: found.lane }, found.file, found.source, request);
}

/**
 * The names that are none of the model's features (a shared configuration's decisions), found in a
 * worker that holds the model parsed: `{"unknown": [...]}`. Parsing never runs on this thread.
 */
export async function unknownNames(d: ConfiguratorDeps, fileId: number, viewerId: number | null, requester: Requester, names: string[]): Promise<Answer> {
  const found = await visible(d, fileId, viewerId, requester);
  if (!found) return { kind: 'not-found' };
  return answerOf(await call(d, { requester, lane: found.lane, flexible: true }, found.file, found.source, { op: 'names', names }));
}

/** Changes when the page's tree or probabilities change form: part of their entity tags. */
const PAGE_DATA_FORM = '2';

/**
 * The feature tree for the configurator on the model page: built in a worker once per content,
 * then kept as the bytes sent, compressed once (855 KB for automotive2_4, 146 KB as brotli).
 */
export async function tree(d: ConfiguratorDeps, fileId: number, viewerId: number | null, requester: Requester): Promise<Answer> {
  const found = await visible(d, fileId, viewerId, requester);
  if (!found) return { kind: 'not-found' };
  const cacheKey = `${found.source.sha256}\ntree`;
  const tag = `${found.source.sha256.slice(0, 32)}-tree-${PAGE_DATA_FORM}`;
  const cached = d.finished.get(cacheKey);
  if (cached !== undefined) return { kind: 'stored', body: cached, tag };
  const answer = answerOf(await call(d, { requester, lane: found.lane, flexible: true }, found.file, found.source, { op: 'tree' }));
  return answer.kind === 'done' ? { kind: 'stored', body: d.finished.remember(cacheKey, answer.json), tag } : answer;
}

/**
 * Every feature's probability alone (`{"probability": {"<name>": p}, "shown", "bins"}`), for the
 * page and the histogram; computed with the commonality. `byName`: the page's form
 * (probabilities.ts), without the names.
 */
export async function probabilities(d: ConfiguratorDeps, fileId: number, viewerId: number | null, requester: Requester, byName = false): Promise<Answer> {
  const found = await visible(d, fileId, viewerId, requester);
  if (!found) return { kind: 'not-found' };
  const cacheKey = `${found.source.sha256}\nprobabilities${byName ? '-by-name' : ''}`;
  const tag = `${found.source.sha256.slice(0, 32)}-probabilities-${byName ? 'n' : 'f'}${PAGE_DATA_FORM}-${ENGINE_VERSION}`;
  const cached = d.finished.get(cacheKey);
  if (cached !== undefined) return { kind: 'stored', body: cached, tag };
  const summary = await repo.findSummary(d.ctx.db, { sha256: found.source.sha256, kind: 'commonality', params: '', engine_version: ENGINE_VERSION });
  if (typeof summary === 'string') return { kind: 'stored', body: d.finished.remember(cacheKey, byName ? probabilitiesByName(summary) : summary), tag };
  const answer = await stored(d, fileId, viewerId, requester, 'commonality', '', { op: 'commonality' });
  return answer.kind === 'stored' ? { kind: 'failed', message: 'No probabilities were stored with this commonality.' } : answer;
}

export function commonality(d: ConfiguratorDeps, fileId: number, viewerId: number | null, requester: Requester): Promise<Answer> {
  return stored(d, fileId, viewerId, requester, 'commonality', '', { op: 'commonality' });
}

export function sample(d: ConfiguratorDeps, fileId: number, viewerId: number | null, requester: Requester, request: SampleRequest): Promise<Answer> {
  return stored(d, fileId, viewerId, requester, request.op, paramsText(request), request);
}

/** The citation of a sample of a visible file (its dataset's authors, year and DOI); undefined for an unknown or hidden file. */
export async function citation(d: ConfiguratorDeps, fileId: number, viewerId: number | null, request: SampleRequest, url: string): Promise<SampleCitation | undefined> {
  const file = await d.ctx.services.hubfile.getVisibleFile(fileId, viewerId);
  const dataset = file && (await d.ctx.services.dataset.summariesOf([file.datasetId]))[0];
  if (!file || !dataset) return undefined;
  return sampleCitation({ title: dataset.title, authors: dataset.authors, publishedAt: dataset.publishedAt ?? dataset.createdAt, doi: dataset.doi }, file.name, request, url);
}

/**
 * The requester stops waiting for a sample computed on this instance; its job stops (and its
 * claim is released) when no other requester asked for it lately. undefined: unknown or hidden file.
 */
export async function cancel(d: ConfiguratorDeps, fileId: number, viewerId: number | null, requester: Requester, request: SampleRequest) {
  const file = await d.ctx.services.hubfile.getVisibleFile(fileId, viewerId);
  const known = file && d.knownFiles.get(file.id);
  if (!file) return undefined;
  if (!known) return { running: false, cancelled: false, waiting: 0 };
  return d.watches.cancel(`${known.sha256}\n${request.op}\n${paramsText(request)}`, requester);
}

export function computedHere(d: ConfiguratorDeps): number {
  return d.jobs.computed;
}

/** Compiled forms this instance's workers loaded from the store, and compiled. */
export function formsHere(d: ConfiguratorDeps): { loaded: number; compiled: number } {
  return { loaded: d.jobs.formsLoaded, compiled: d.jobs.formsCompiled };
}

/** Jobs of this instance that their cancel flag stopped before their end. */
export function stoppedEarlyHere(d: ConfiguratorDeps): number {
  return d.jobs.stoppedEarly;
}

/** Starts the periodic cleanup of the stored samples (SAMPLE_STORE_MAX_BYTES; configurator.evict.ts). */
export function start(d: ConfiguratorDeps): void {
  d.evictor.start();
}

/** A cleanup of the stored samples now (after the one running): what it found and deleted (the bound's tests wait for it). */
export function cleanSamples(d: ConfiguratorDeps) {
  return d.evictor.request();
}

export async function stop(d: ConfiguratorDeps): Promise<void> {
  d.jobs.stopped = true;
  await Promise.allSettled([...d.jobs.computing]);
  await d.evictor.stop();
}

export function createConfiguratorService(ctx: ModuleContext) {
  return bindOperations(createConfiguratorDeps(ctx), { configure, unknownNames, tree, probabilities, commonality, sample, citation, cancel, computedHere, stoppedEarlyHere, formsHere, start, cleanSamples, stop });
}

export type ConfiguratorService = ReturnType<typeof createConfiguratorService>;
