// The samples' store bounded (SAMPLE_STORE_MAX_BYTES): anyone may ask for a sample of any seed, and
// each new one was kept for ever (10,000 configurations of automotive2_4 are 23 MB), so a loop over
// seeds filled the disk. A sample is reproducible from its parameters and seed by the same engine
// version, so a deleted one asked for again is computed again: the least recently used finished
// samples are deleted, row first (by id, while still finished and unserved since it was chosen),
// then their object, until the total is at most 90% of the bound. A cleanup runs after each sample
// stored here (at most one at a time, the next one at least MIN_GAP_MS later) and every SWEEP_MS.
import type { FileStore } from '../../core/storage/index.ts';
import type { Db } from '../../core/db/connect.ts';
import * as repo from './configurator.repository.ts';

/** The total a cleanup brings the samples down to, as a share of the bound. */
export const TARGET_SHARE = 0.9;
/** Rows read at a time, and deleted at most by one cleanup (the next one goes on). */
const BATCH = 50;
const MAX_EVICTED_PER_RUN = 1000;
/** Packed samples stored before their size was kept, measured in the store by one cleanup. */
const MEASURED_PER_RUN = 200;
/** A cleanup after a store waits this long after the previous one's start (each one sums the sizes). */
const MIN_GAP_MS = 1000;
/** The periodic cleanup: samples stored by other instances, sizes not yet measured. */
const SWEEP_MS = 10 * 60 * 1000;

interface Log { warn(object: object, message: string): void }

export interface CleanupOutcome { before: number; after: number; evicted: number; measured: number }

export class SampleEvictor {
  private running: Promise<CleanupOutcome> | undefined;
  private queued: Promise<CleanupOutcome> | undefined;
  private lastStart = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Samples stored here since the last cleanup began: never deleted by the cleanup their store asked for. */
  private fresh: number[] = [];
  private stopped = false;

  /** `maxBytes` 0: no bound. */
  constructor(private readonly db: Db, private readonly store: FileStore, private readonly maxBytes: number, private readonly log: Log) {}

  /** A sample was stored (row `id`): a cleanup follows, which leaves that one alone. */
  stored(id: number): Promise<CleanupOutcome> {
    this.fresh.push(id);
    return this.request();
  }

  /** A cleanup: the one waiting to start if there is one, else a new one after the one running. */
  request(): Promise<CleanupOutcome> {
    if (this.queued) return this.queued;
    const previous = this.running;
    let next!: Promise<CleanupOutcome>;
    next = (async () => {
      // Always yields first: `next` is assigned before this goes on.
      await previous?.catch(() => undefined);
      const wait = this.lastStart + MIN_GAP_MS - Date.now();
      if (wait > 0 && !this.stopped) await new Promise((resolve) => setTimeout(resolve, wait).unref());
      // Running from here: a request meanwhile queues the next one.
      this.queued = undefined;
      this.running = next;
      this.lastStart = Date.now();
      try {
        return await this.cleanup(this.fresh.splice(0));
      } finally {
        if (this.running === next) this.running = undefined;
      }
    })();
    this.queued = next;
    return next;
  }

  /** The periodic cleanup, once now (sizes kept before the migration are measured) and every SWEEP_MS. */
  start(): void {
    if (this.timer || this.stopped) return;
    const sweep = () => this.request().catch((error) => this.log.warn({ err: error }, 'configurator: cleaning up the stored samples failed'));
    void sweep();
    this.timer = setInterval(sweep, SWEEP_MS);
    this.timer.unref();
  }

  /** No more cleanups; the one running ends. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await Promise.allSettled([this.running, this.queued]);
  }

  /** Measures what is unmeasured, then deletes the least recently used samples past the bound. */
  private async cleanup(keep: number[]): Promise<CleanupOutcome> {
    const measured = this.stopped ? 0 : await this.measure();
    const before = await repo.storedTotal(this.db);
    let total = before;
    let evicted = 0;
    if (this.maxBytes > 0 && total > this.maxBytes) {
      const target = Math.floor(this.maxBytes * TARGET_SHARE);
      while (total > target && evicted < MAX_EVICTED_PER_RUN && !this.stopped) {
        const rows = await repo.leastRecentlyUsed(this.db, BATCH, keep);
        let deleted = 0;
        for (const row of rows) {
          if (total <= target) break;
          // Served (dated again) or gone since it was chosen: it stays, or another instance took it.
          if (!await repo.evict(this.db, row)) continue;
          total -= row.stored_bytes;
          evicted++;
          deleted++;
          // The row is gone first: a reader holding it finds no object and computes the sample again.
          if (row.stored_key !== null) {
            await this.store.delete(row.stored_key).catch((error) => this.log.warn({ err: error, key: row.stored_key }, 'configurator: deleting an evicted sample failed'));
          }
        }
        // Nothing left to take, or everything chosen was served meanwhile: the next cleanup goes on.
        if (deleted === 0) break;
      }
    }
    return { before, after: total, evicted, measured };
  }

  private async measure(): Promise<number> {
    const rows = await repo.unmeasured(this.db, MEASURED_PER_RUN);
    for (const row of rows) {
      const found = await this.store.stat(row.stored_key);
      // Gone from the store: the row goes too, and the next request computes the sample again.
      if (found) await repo.measure(this.db, row.id, found.size + repo.ROW_BYTES);
      else await repo.forget(this.db, row.id, row.stored_key);
    }
    return rows.length;
  }
}
