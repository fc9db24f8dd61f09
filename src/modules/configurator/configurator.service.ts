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
import { createResultCache, type StoredBody } from './configurator.cache.ts';

/** What a request gets: the answer, `pending` (202), a bad value (400) or a failure (422). */
export type Answer =
  | { kind: 'done'; json: string }
  | { kind: 'stored'; body: StoredBody }
  | { kind: 'pending' }
  | { kind: 'bad-value' | 'failed'; message: string }
  | { kind: 'not-found' };

/** Files the service knows the content of: stored files never change, so the hash is kept. */
const KNOWN_FILES = 1000;
/** Rounds of reading imports (an import may import again). */
const MAX_IMPORT_ROUNDS = 8;
/** Cheap test for an `imports` section: only such a model needs the worker to name its imports first. */
const HAS_IMPORTS = /^\s*imports\b/m;

const sha256Of = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** A file's content key and imports: stored files never change, so both are kept. */
interface KnownFile { sha256: string; imports?: Record<string, string | null> }

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
  const knownFiles = new Map<number, KnownFile>();
  /** Finished results by key, as the bytes sent. */
  const finished = createResultCache((error) => log.warn({ err: error }, 'configurator: compressing a stored result failed'));
  const computing = new Set<Promise<void>>();
  let jobIds = 0;
  /** Stored results this instance computed (the two-instance test reads it). */
  let computed = 0;
  let stopped = false;

  /**
   * The imports of a model that has an `imports` section, read from its dataset in rounds (the
   * worker parses and names the files still missing), as the analysis does.
   */
  async function importsOf(file: StoredFile, text: string, textSha: string): Promise<Record<string, string | null>> {
    const imports: Record<string, string | null> = {};
    for (let round = 0; round < MAX_IMPORT_ROUNDS; round++) {
      const job: ConfiguratorJob = { id: ++jobIds, model: { sha256: textSha, fileName: file.name, text, imports }, timeoutMs, op: 'resolve' };
      const reply = await interactive.run(job, hardLimitMs);
      if (reply.kind !== 'need-imports') break;
      const texts = await Promise.all(reply.paths.map((p) => ctx.services.hubfile.readSibling(file, p)));
      reply.paths.forEach((p, i) => { imports[p] = texts[i] ?? null; });
    }
    return imports;
  }

  /** The content key: the text's hash, or for a model with imports the hash of the text and its imports. */
  async function sourceOf(file: StoredFile): Promise<ModelSource | undefined> {
    const known = knownFiles.get(file.id);
    if (known) return { sha256: known.sha256, fileName: file.name };
    const text = await ctx.services.hubfile.readText(file);
    if (text === undefined) return undefined;
    const textSha = sha256Of(text);
    const imports = HAS_IMPORTS.test(text) ? await importsOf(file, text, textSha) : undefined;
    const paths = Object.keys(imports ?? {}).sort();
    const sha256 = paths.length === 0 ? textSha : sha256Of(JSON.stringify([text, ...paths.map((p) => [p, imports![p]])]));
    knownFiles.set(file.id, { sha256, imports });
    if (knownFiles.size > KNOWN_FILES) knownFiles.delete(knownFiles.keys().next().value!);
    return { sha256, fileName: file.name, text, imports };
  }

  /** Runs one job; a worker that does not hold the model gets it again with its text (and imports). */
  async function call(pool: ReturnType<typeof createConfiguratorPool>, file: StoredFile, source: ModelSource, op: ConfiguratorOp): Promise<PoolReply> {
    const job = { id: ++jobIds, model: source, timeoutMs, ...op } as ConfiguratorJob;
    const reply = await pool.run(job, hardLimitMs);
    if (reply.kind !== 'need-text') return reply;
    const text = await ctx.services.hubfile.readText(file);
    if (text === undefined) return { id: job.id, kind: 'failed', message: 'The file is missing from the store.' };
    const imports = source.imports ?? knownFiles.get(file.id)?.imports;
    return pool.run({ ...job, id: ++jobIds, model: { ...source, text, imports } }, hardLimitMs);
  }

  function answerOf(reply: PoolReply): Answer {
    if (reply.kind === 'done') return { kind: 'done', json: reply.json };
    if (reply.kind === 'bad-value') return { kind: 'bad-value', message: reply.message };
    return { kind: 'failed', message: reply.kind === 'need-text' || reply.kind === 'need-imports' ? 'The model could not be read.' : reply.message };
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
    if (cached !== undefined) return { kind: 'stored', body: cached };
    const row = await repo.find(db, key);
    if (row?.status === 'done') return { kind: 'stored', body: finished.remember(cacheKey, row.result!) };
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
      const cacheKey = `${found.source.sha256}\nprobabilities`;
      const cached = finished.get(cacheKey);
      if (cached !== undefined) return { kind: 'stored', body: cached };
      const summary = await repo.findSummary(db, { sha256: found.source.sha256, kind: 'commonality', params: '', engine_version: ENGINE_VERSION });
      if (typeof summary === 'string') return { kind: 'stored', body: finished.remember(cacheKey, summary) };
      const answer = await stored(fileId, viewerId, 'commonality', '', { op: 'commonality' });
      return answer.kind === 'stored' ? { kind: 'failed', message: 'No probabilities were stored with this commonality.' } : answer;
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
