// Configurator service (extensions section 6, "In the hub"): configure steps answered by a worker
// that keeps the model compiled; commonality and samples computed once per (content, kind,
// parameters, engine version), stored, and answered `pending` while a worker computes them.
// Engine work never runs on the event loop. Each operation is an exported function taking the
// dependencies (configurator.deps.ts) first; the service is those operations bound once.
import type { Readable } from 'node:stream';
import type { ModuleContext } from '../../core/modules.ts';
import { bindOperations } from '../../core/operations.ts';
import { ENGINE_VERSION } from '../../../packages/analysis/src/index.ts';
import { IMPORT_READ_ROUNDS } from '../../../packages/uvl/src/index.ts';
import type { StoredFile } from '../hubfile/index.ts';
import type { StoredBody } from './configurator.cache.ts';
import { createConfiguratorDeps, sha256Of, type ConfiguratorDeps } from './configurator.deps.ts';
import type { ConfiguratorPool, PoolReply } from './configurator.pool.ts';
import { paramsText, type SampleRequest } from './configurator.params.ts';
import type { ConfiguratorJob, ConfiguratorOp, ModelSource } from './configurator.protocol.ts';
import * as repo from './configurator.repository.ts';
import { sampleObjectKey } from './sample-stream.ts';

/** What a request gets: the answer, `pending` (202), a bad value (400) or a failure (422). */
export type Answer =
  | { kind: 'done'; json: string }
  | { kind: 'stored'; body: StoredBody }
  /** A sample kept packed in the file store (sample-stream.ts sends it as JSON or CSV). */
  | { kind: 'sample'; body: Readable }
  | { kind: 'pending' }
  | { kind: 'bad-value' | 'failed'; message: string }
  | { kind: 'not-found' };

/** Files the service knows the content of: stored files never change, so the hash is kept. */
const KNOWN_FILES = 1000;
/** Cheap test for an `imports` section: only such a model needs the worker to name its imports first. */
const HAS_IMPORTS = /^\s*imports\b/m;

/**
 * The imports of a model that has an `imports` section, read from its dataset in rounds (the
 * worker parses and names the files still missing), as the analysis does.
 */
async function importsOf(d: ConfiguratorDeps, file: StoredFile, text: string, textSha: string): Promise<Record<string, string | null>> {
  const imports: Record<string, string | null> = {};
  for (let round = 0; round < IMPORT_READ_ROUNDS; round++) {
    const job: ConfiguratorJob = { id: ++d.jobs.ids, model: { sha256: textSha, fileName: file.name, text, imports }, timeoutMs: d.timeoutMs, op: 'resolve' };
    const reply = await d.interactive.run(job, d.hardLimitMs);
    if (reply.kind !== 'need-imports') break;
    const texts = await Promise.all(reply.paths.map((p) => d.ctx.services.hubfile.readSibling(file, p)));
    reply.paths.forEach((p, i) => { imports[p] = texts[i] ?? null; });
  }
  return imports;
}

/** The content key: the text's hash, or for a model with imports the hash of the text and its imports. */
async function sourceOf(d: ConfiguratorDeps, file: StoredFile): Promise<ModelSource | undefined> {
  const known = d.knownFiles.get(file.id);
  if (known) return { sha256: known.sha256, fileName: file.name };
  const text = await d.ctx.services.hubfile.readText(file);
  if (text === undefined) return undefined;
  const textSha = sha256Of(text);
  const imports = HAS_IMPORTS.test(text) ? await importsOf(d, file, text, textSha) : undefined;
  const paths = Object.keys(imports ?? {}).sort();
  const sha256 = paths.length === 0 ? textSha : sha256Of(JSON.stringify([text, ...paths.map((p) => [p, imports![p]])]));
  d.knownFiles.set(file.id, { sha256, imports });
  if (d.knownFiles.size > KNOWN_FILES) d.knownFiles.delete(d.knownFiles.keys().next().value!);
  return { sha256, fileName: file.name, text, imports };
}

/** Runs one job; a worker that does not hold the model gets it again with its text (and imports). */
async function call(d: ConfiguratorDeps, pool: ConfiguratorPool, file: StoredFile, source: ModelSource, op: ConfiguratorOp): Promise<PoolReply> {
  const job = { id: ++d.jobs.ids, model: source, timeoutMs: d.timeoutMs, ...op } as ConfiguratorJob;
  const reply = await pool.run(job, d.hardLimitMs);
  if (reply.kind !== 'need-text') return reply;
  const text = await d.ctx.services.hubfile.readText(file);
  if (text === undefined) return { id: job.id, kind: 'failed', message: 'The file is missing from the store.' };
  const imports = source.imports ?? d.knownFiles.get(file.id)?.imports;
  return pool.run({ ...job, id: ++d.jobs.ids, model: { ...source, text, imports } }, d.hardLimitMs);
}

function answerOf(reply: PoolReply): Answer {
  if (reply.kind === 'done') return { kind: 'done', json: reply.json };
  if (reply.kind === 'bad-value') return { kind: 'bad-value', message: reply.message };
  return { kind: 'failed', message: reply.kind === 'need-text' || reply.kind === 'need-imports' ? 'The model could not be read.' : reply.message };
}

/** A file the viewer may see, with its content key; undefined for an unknown, hidden or missing one. */
async function visible(d: ConfiguratorDeps, fileId: number, viewerId: number | null) {
  const file = await d.ctx.services.hubfile.getVisibleFile(fileId, viewerId);
  const source = file && await sourceOf(d, file);
  return file && source ? { file, source } : undefined;
}

/**
 * Computes a stored result in the background; the row says `running` meanwhile. A packed sample
 * goes to the file store under `storedKey` before its row says `done`.
 */
function compute(d: ConfiguratorDeps, id: number, file: StoredFile, source: ModelSource, op: ConfiguratorOp, storedKey: string): void {
  const { db, log } = d.ctx;
  d.jobs.computed++;
  const pool = op.op === 'commonality' ? d.interactive : d.samples;
  const work = call(d, pool, file, source, op).then(async (reply) => {
    if (d.jobs.stopped) return repo.release(db, id, d.instance);
    if (reply.kind === 'done' && reply.sample) {
      await d.ctx.store.put(storedKey, Buffer.from(reply.sample.buffer, reply.sample.byteOffset, reply.sample.byteLength));
      return repo.finish(db, id, d.instance, { status: 'done', result: null, stored_key: storedKey, summary: null, error: null });
    }
    const answer = answerOf(reply);
    await repo.finish(db, id, d.instance, answer.kind === 'done'
      ? { status: 'done', result: answer.json, summary: reply.kind === 'done' ? reply.summary ?? null : null, error: null }
      : { status: 'failed', result: null, summary: null, error: 'message' in answer ? answer.message : 'failed' });
  }).catch((error) => log.error({ err: error, sha256: source.sha256 }, 'configurator: storing a result failed'))
    .finally(() => d.jobs.computing.delete(work));
  d.jobs.computing.add(work);
}

/** The stored result of (content, kind, parameters), else `pending` after making sure someone computes it. */
async function stored(d: ConfiguratorDeps, fileId: number, viewerId: number | null, kind: string, params: string, op: ConfiguratorOp): Promise<Answer> {
  const { db } = d.ctx;
  const found = await visible(d, fileId, viewerId);
  if (!found) return { kind: 'not-found' };
  const key = { sha256: found.source.sha256, kind, params, engine_version: ENGINE_VERSION };
  const cacheKey = `${key.sha256}\n${kind}\n${params}`;
  const cached = d.finished.get(cacheKey);
  if (cached !== undefined) return { kind: 'stored', body: cached };
  let row = await repo.find(db, key);
  if (row?.status === 'done' && row.stored_key !== null) {
    const content = await d.ctx.store.get(row.stored_key);
    if (content) return { kind: 'sample', body: content.body };
    // Its object is gone (a store restored without it): computed again.
    await repo.forget(db, row.id);
    row = undefined;
  }
  if (row?.status === 'done') return { kind: 'stored', body: d.finished.remember(cacheKey, row.result!) };
  if (row?.status === 'failed') return { kind: /^unknown feature/i.test(row.error ?? '') ? 'bad-value' : 'failed', message: row.error ?? 'failed' };
  if (d.jobs.stopped) return { kind: 'pending' };
  if (!row) {
    const id = await repo.claimNew(db, key, d.instance);
    if (id !== undefined) compute(d, id, found.file, found.source, op, sampleObjectKey(key));
  } else if (row.claimed_at !== null && await repo.claimStale(db, row.id, d.instance, new Date(Date.now() - d.staleMs).toISOString())) {
    compute(d, row.id, found.file, found.source, op, sampleObjectKey(key));
  }
  return { kind: 'pending' };
}

/** One configure step (the propagation answer, with `why` when asked); never stored. */
export async function configure(d: ConfiguratorDeps, fileId: number, viewerId: number | null, request: { selected: string[]; deselected: string[]; why?: string }): Promise<Answer> {
  const found = await visible(d, fileId, viewerId);
  if (!found) return { kind: 'not-found' };
  return answerOf(await call(d, d.interactive, found.file, found.source, { op: 'configure', ...request }));
}

/** The feature tree for the configurator on the model page. */
export async function tree(d: ConfiguratorDeps, fileId: number, viewerId: number | null): Promise<Answer> {
  const found = await visible(d, fileId, viewerId);
  if (!found) return { kind: 'not-found' };
  return answerOf(await call(d, d.interactive, found.file, found.source, { op: 'tree' }));
}

/** Every feature's probability alone (`{"<name>": p}`), for the page and the histogram; computed with the commonality. */
export async function probabilities(d: ConfiguratorDeps, fileId: number, viewerId: number | null): Promise<Answer> {
  const found = await visible(d, fileId, viewerId);
  if (!found) return { kind: 'not-found' };
  const cacheKey = `${found.source.sha256}\nprobabilities`;
  const cached = d.finished.get(cacheKey);
  if (cached !== undefined) return { kind: 'stored', body: cached };
  const summary = await repo.findSummary(d.ctx.db, { sha256: found.source.sha256, kind: 'commonality', params: '', engine_version: ENGINE_VERSION });
  if (typeof summary === 'string') return { kind: 'stored', body: d.finished.remember(cacheKey, summary) };
  const answer = await stored(d, fileId, viewerId, 'commonality', '', { op: 'commonality' });
  return answer.kind === 'stored' ? { kind: 'failed', message: 'No probabilities were stored with this commonality.' } : answer;
}

export function commonality(d: ConfiguratorDeps, fileId: number, viewerId: number | null): Promise<Answer> {
  return stored(d, fileId, viewerId, 'commonality', '', { op: 'commonality' });
}

export function sample(d: ConfiguratorDeps, fileId: number, viewerId: number | null, request: SampleRequest): Promise<Answer> {
  return stored(d, fileId, viewerId, request.op, paramsText(request), request);
}

export function computedHere(d: ConfiguratorDeps): number {
  return d.jobs.computed;
}

export async function stop(d: ConfiguratorDeps): Promise<void> {
  d.jobs.stopped = true;
  d.interactive.stop();
  d.samples.stop();
  await Promise.allSettled([...d.jobs.computing]);
}

export function createConfiguratorService(ctx: ModuleContext) {
  return bindOperations(createConfiguratorDeps(ctx), { configure, tree, probabilities, commonality, sample, computedHere, stop });
}

export type ConfiguratorService = ReturnType<typeof createConfiguratorService>;
