// What the configurator service's operations work with, passed to each of them explicitly: the
// module context, this instance's name in the claims, the time limits, the compiles remembered,
// the contents and results kept in memory and the background work, all living as long as the
// service. The worker threads are core's scheduler's (ctx.scheduler).
import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { ModuleContext } from '../../core/modules.ts';
import { createResultCache } from './configurator.cache.ts';
import { CompileMemory } from './configurator.compiles.ts';
import { StoredForms } from './configurator.forms.ts';
import { SampleWatches } from './configurator.watch.ts';
import { SampleEvictor } from './configurator.evict.ts';

/** A file's content key and imports: stored files never change, so both are kept. */
export interface KnownFile { sha256: string; imports?: Record<string, string | null>; features: number }

/** The service's work in the background: job numbers, stored results being computed, stopping. */
export class JobState {
  /** Numbers the worker messages. */
  ids = 0;
  /** Stored results this instance computed (the two-instance test reads it). */
  computed = 0;
  /** Jobs whose worker stopped early on their cancel flag (the cancel test reads it). */
  stoppedEarly = 0;
  /** Compiled forms sent to workers from the store, and compiled by them (the stored-form test reads them). */
  formsLoaded = 0;
  formsCompiled = 0;
  /** Set by stop(): nothing more is computed, and what finishes meanwhile is given back. */
  stopped = false;
  /** The stored results being computed, which stop() waits for. */
  readonly computing = new Set<Promise<void>>();
}

export interface ConfiguratorDeps {
  ctx: ModuleContext;
  /** This instance's name in the claims of the stored results. */
  instance: string;
  /** The engine's own budget of one job, and the hard kill of its worker. */
  timeoutMs: number;
  hardLimitMs: number;
  /** A claim older than this was left by an instance that stopped: taken over. */
  staleMs: number;
  /** Which models compiled, are compiling, or did not compile within the budget (stored). */
  compiles: CompileMemory;
  /** Compiled forms in the file store, by content: loaded instead of compiled again. */
  forms: StoredForms;
  /** By file id, at most KNOWN_FILES (configurator.service.ts). */
  knownFiles: Map<number, KnownFile>;
  /** Finished results by key, as the bytes sent. */
  finished: ReturnType<typeof createResultCache>;
  jobs: JobState;
  /** Samples computed here: their progress, waiters and cancel flags. */
  watches: SampleWatches;
  /** Keeps the stored samples within SAMPLE_STORE_MAX_BYTES, least recently used out first. */
  evictor: SampleEvictor;
}

export function createConfiguratorDeps(ctx: ModuleContext): ConfiguratorDeps {
  const timeoutMs = ctx.config.analysisTimeoutS * 1000;
  const hardLimitMs = Math.round(timeoutMs * 1.5) + 15_000;
  return {
    ctx,
    instance: `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`,
    timeoutMs,
    hardLimitMs,
    staleMs: hardLimitMs + 30_000,
    compiles: new CompileMemory(ctx.db),
    forms: new StoredForms(ctx.store, (error, sha256) => ctx.log.warn({ err: error, sha256 }, 'configurator: storing a compiled form failed')),
    knownFiles: new Map(),
    finished: createResultCache((error) => ctx.log.warn({ err: error }, 'configurator: compressing a stored result failed')),
    jobs: new JobState(),
    watches: new SampleWatches(),
    evictor: new SampleEvictor(ctx.db, ctx.store, ctx.config.sampleStoreMaxBytes, ctx.log),
  };
}

export const sha256Of = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
