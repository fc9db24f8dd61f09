// Samples being computed on this instance (issue 37, item 6): the latest progress their worker
// reported, who waits for them, and the flag that cancels them. In memory, per instance: a
// cancel or a poll that reaches another instance than the computing one sees none of it.
import type { JobWatch, SampleProgress } from './configurator.calls.ts';
import type { ConfiguratorProgress } from './configurator.protocol.ts';

/** A requester that has not asked for the sample for this long no longer counts as waiting for it (the page asks every 2 s). */
const WAITING_MS = 30_000;

export interface Watched extends JobWatch {
  startedAt: number;
  latest?: ConfiguratorProgress;
  /** Requesters that asked for the sample, with when they last did. */
  waiting: Map<string, number>;
}

export class SampleWatches {
  private readonly byKey = new Map<string, Watched>();

  /** Starts watching a computation (its cancel flag lives on shared memory the worker reads). */
  start(key: string, requester: string): Watched {
    const watched: Watched = {
      cancel: new Int32Array(new SharedArrayBuffer(4)),
      startedAt: Date.now(),
      waiting: new Map([[requester, Date.now()]]),
      onProgress: (p) => { watched.latest = p; },
    };
    this.byKey.set(key, watched);
    return watched;
  }

  end(key: string, watched: Watched): void {
    if (this.byKey.get(key) === watched) this.byKey.delete(key);
  }

  /** Whether this computation was cancelled (its result is then thrown away and its claim released). */
  cancelled(watched: Watched): boolean {
    return Atomics.load(watched.cancel, 0) !== 0;
  }

  /** The requester waits for the sample; its progress when the worker reported some. */
  progress(key: string, requester: string): SampleProgress | undefined {
    const watched = this.byKey.get(key);
    if (!watched) return undefined;
    watched.waiting.set(requester, Date.now());
    const p = watched.latest;
    if (!p || p.total <= 0) return undefined;
    const elapsed = (Date.now() - watched.startedAt) / 1000;
    // Linear in the interactions covered. It errs short: the greedy covers most interactions early and the
    // last cost most, and the pairwise improvement after the greedy (covered = total then) is not counted.
    const estimate = p.covered > 0 ? Math.round((elapsed * (p.total - p.covered)) / p.covered) : null;
    return { covered: p.covered, total: p.total, elapsed_s: Math.round(elapsed), estimate_s: estimate };
  }

  /**
   * The requester no longer waits; the job stops when nobody else asked for it lately.
   * `running: false`: nothing of this key is computed on this instance.
   */
  cancel(key: string, requester: string): { running: boolean; cancelled: boolean; waiting: number } {
    const watched = this.byKey.get(key);
    if (!watched) return { running: false, cancelled: false, waiting: 0 };
    watched.waiting.delete(requester);
    const since = Date.now() - WAITING_MS;
    const others = [...watched.waiting.values()].filter((at) => at >= since).length;
    if (others > 0) return { running: true, cancelled: false, waiting: others };
    Atomics.store(watched.cancel, 0, 1);
    this.byKey.delete(key);
    return { running: true, cancelled: true, waiting: 0 };
  }
}
