// Configurator service (extensions section 6, "In the hub"): configure steps answered by a worker
// that keeps the model compiled; commonality and samples computed once per (content, kind,
// parameters, engine version), stored, and answered `pending` while a worker computes them.
// Engine work never runs on the event loop.
import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { ModuleContext } from '../../core/modules.ts';
import { ENGINE_VERSION } from '../../../packages/analysis/src/index.ts';
import type { StoredFile } from '../hubfile/index.ts';
import { createConfiguratorPool, type PoolReply } from './configurator.pool.ts';
import { paramsText, type SampleRequest } from './configurator.params.ts';
import type { ConfiguratorJob, ConfiguratorOp, ModelSource } from './configurator.protocol.ts';
import * as repo from './configurator.repository.ts';

/** What a request gets: the answer, `pending` (202), a bad value (400) or a failure (422). */
export type Answer =
  | { kind: 'done'; json: string }
  | { kind: 'pending' }
  | { kind: 'bad-value' | 'failed'; message: string }
  | { kind: 'not-found' };

/** Files the service knows the content of: stored files never change, so the hash is kept. */
const KNOWN_FILES = 1000;
/** Characters of stored results kept in memory (a large model's commonality is tens of MB: read once, not per request). */
const CACHED_CHARS = 128 * 1024 * 1024;

export function createConfiguratorService(ctx: ModuleContext) {
  const { db, config, log } = ctx;
  const instance = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const timeoutMs = config.analysisTimeoutS * 1000;
  const hardLimitMs = Math.round(timeoutMs * 1.5) + 15_000;
  // A claim older than this was left by an instance that stopped: taken over.
  const staleMs = hardLimitMs + 30_000;
  // Configure steps and commonality (short, on warm models) apart from samples (long).
  const interactive = createConfiguratorPool(1);
  const samples = createConfiguratorPool(1);
  const shaOfFile = new Map<number, string>();
  /** Finished results by key, least recently used first; a stored result never changes. */
  const finished = new Map<string, string>();
  let finishedChars = 0;
  const remember = (key: string, json: string) => {
    if (json.length > CACHED_CHARS / 2) return;
    finished.set(key, json);
    finishedChars += json.length;
    for (const [oldKey, oldJson] of finished) {
      if (finishedChars <= CACHED_CHARS) break;
      finished.delete(oldKey);
      finishedChars -= oldJson.length;
    }
  };
  const computing = new Set<Promise<void>>();
  let jobIds = 0;
  /** Stored results this instance computed (the two-instance test reads it). */
  let computed = 0;
  let stopped = false;

  async function sourceOf(file: StoredFile): Promise<ModelSource | undefined> {
    const known = shaOfFile.get(file.id);
    if (known) return { sha256: known, fileName: file.name };
    const text = await ctx.services.hubfile.readText(file);
    if (text === undefined) return undefined;
    const sha256 = createHash('sha256').update(text, 'utf8').digest('hex');
    shaOfFile.set(file.id, sha256);
    if (shaOfFile.size > KNOWN_FILES) shaOfFile.delete(shaOfFile.keys().next().value!);
    return { sha256, fileName: file.name, text };
  }

  /** Runs one job; a worker that does not hold the model gets it again with its text. */
  async function call(pool: ReturnType<typeof createConfiguratorPool>, file: StoredFile, source: ModelSource, op: ConfiguratorOp): Promise<PoolReply> {
    const job = { id: ++jobIds, model: source, timeoutMs, ...op } as ConfiguratorJob;
    const reply = await pool.run(job, hardLimitMs);
    if (reply.kind !== 'need-text') return reply;
    const text = await ctx.services.hubfile.readText(file);
    if (text === undefined) return { id: job.id, kind: 'failed', message: 'The file is missing from the store.' };
    return pool.run({ ...job, id: ++jobIds, model: { ...source, text } }, hardLimitMs);
  }

  function answerOf(reply: PoolReply): Answer {
    if (reply.kind === 'done') return { kind: 'done', json: reply.json };
    if (reply.kind === 'bad-value') return { kind: 'bad-value', message: reply.message };
    return { kind: 'failed', message: reply.kind === 'need-text' ? 'The model could not be read.' : reply.message };
  }

  async function visible(fileId: number, viewerId: number | null) {
    const file = await ctx.services.hubfile.getVisibleFile(fileId, viewerId);
    const source = file && await sourceOf(file);
    return file && source ? { file, source } : undefined;
  }

  /** Computes a stored result in the background; the row says `running` meanwhile. */
  function compute(id: number, file: StoredFile, source: ModelSource, op: ConfiguratorOp): void {
    computed++;
    const pool = op.op === 'commonality' ? interactive : samples;
    const work = call(pool, file, source, op).then(async (reply) => {
      if (stopped) return repo.release(db, id, instance);
      const answer = answerOf(reply);
      await repo.finish(db, id, instance, answer.kind === 'done'
        ? { status: 'done', result: answer.json, summary: reply.kind === 'done' ? reply.summary ?? null : null, error: null }
        : { status: 'failed', result: null, summary: null, error: 'message' in answer ? answer.message : 'failed' });
    }).catch((error) => log.error({ err: error, sha256: source.sha256 }, 'configurator: storing a result failed'))
      .finally(() => computing.delete(work));
    computing.add(work);
  }

  /** The stored result of (content, kind, parameters), else `pending` after making sure someone computes it. */
  async function stored(fileId: number, viewerId: number | null, kind: string, params: string, op: ConfiguratorOp): Promise<Answer> {
    const found = await visible(fileId, viewerId);
    if (!found) return { kind: 'not-found' };
    const key = { sha256: found.source.sha256, kind, params, engine_version: ENGINE_VERSION };
    const cacheKey = `${key.sha256}\n${kind}\n${params}`;
    const cached = finished.get(cacheKey);
    if (cached !== undefined) return { kind: 'done', json: cached };
    const row = await repo.find(db, key);
    if (row?.status === 'done') {
      remember(cacheKey, row.result!);
      return { kind: 'done', json: row.result! };
    }
    if (row?.status === 'failed') return { kind: /^unknown feature/i.test(row.error ?? '') ? 'bad-value' : 'failed', message: row.error ?? 'failed' };
    if (stopped) return { kind: 'pending' };
    if (!row) {
      const id = await repo.claimNew(db, key, instance);
      if (id !== undefined) compute(id, found.file, found.source, op);
    } else if (row.claimed_at !== null && await repo.claimStale(db, row.id, instance, new Date(Date.now() - staleMs).toISOString())) {
      compute(row.id, found.file, found.source, op);
    }
    return { kind: 'pending' };
  }

  return {
    /** One configure step (the propagation answer, with `why` when asked); never stored. */
    async configure(fileId: number, viewerId: number | null, request: { selected: string[]; deselected: string[]; why?: string }): Promise<Answer> {
      const found = await visible(fileId, viewerId);
      if (!found) return { kind: 'not-found' };
      return answerOf(await call(interactive, found.file, found.source, { op: 'configure', ...request }));
    },

    /** The feature tree for the configurator on the model page. */
    async tree(fileId: number, viewerId: number | null): Promise<Answer> {
      const found = await visible(fileId, viewerId);
      if (!found) return { kind: 'not-found' };
      return answerOf(await call(interactive, found.file, found.source, { op: 'tree' }));
    },

    /** Every feature's probability alone (`{"<name>": p}`), for the page and the histogram; computed with the commonality. */
    async probabilities(fileId: number, viewerId: number | null): Promise<Answer> {
      const found = await visible(fileId, viewerId);
      if (!found) return { kind: 'not-found' };
      const summary = await repo.findSummary(db, { sha256: found.source.sha256, kind: 'commonality', params: '', engine_version: ENGINE_VERSION });
      if (typeof summary === 'string') return { kind: 'done', json: summary };
      const answer = await stored(fileId, viewerId, 'commonality', '', { op: 'commonality' });
      return answer.kind === 'done' ? { kind: 'failed', message: 'No probabilities were stored with this commonality.' } : answer;
    },

    commonality: (fileId: number, viewerId: number | null) => stored(fileId, viewerId, 'commonality', '', { op: 'commonality' }),

    sample: (fileId: number, viewerId: number | null, request: SampleRequest) => stored(fileId, viewerId, request.op, paramsText(request), request),

    computedHere: () => computed,

    async stop(): Promise<void> {
      stopped = true;
      interactive.stop();
      samples.stop();
      await Promise.allSettled([...computing]);
    },
  };
}

export type ConfiguratorService = ReturnType<typeof createConfiguratorService>;
