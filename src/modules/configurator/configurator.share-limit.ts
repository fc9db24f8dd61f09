// The limit on new shared configurations (docs/security.md, "Filling the database through stored
// configurations"): storing one needs no account, so without a limit a visitor could post distinct
// configurations in a loop (each up to 2 MB) and fill the database's disk. Each requester (the
// account when signed in, else the client address: core's requesterOf) may store at most
// NEW_SHARES_PER_HOUR new ones in a sliding hour; asking again for a stored one costs nothing.
// Kept in memory per process, so each instance counts its own requests.

export const NEW_SHARES_PER_HOUR = 60;
export const SHARE_WINDOW_MS = 60 * 60 * 1000;
/** Requesters remembered at once (at most NEW_SHARES_PER_HOUR times each in memory). */
export const SHARE_REQUESTERS_KEPT = 10_000;

export type Take = { allowed: true } | { allowed: false; retryAfterS: number };

export interface WindowLimiterOptions {
  /** Takes allowed per key in any window. */
  limit: number;
  windowMs: number;
  /** Keys remembered at once; beyond, the one that took least recently is forgotten. */
  maxKeys: number;
  /** The clock (milliseconds), injectable for tests. */
  now?: () => number;
}

/**
 * A sliding-window count per key: the times of the key's takes within the last window. The map is
 * kept in the order of each key's last take, so the keys whose window passed are at its front and
 * leave at the next take; when it still holds maxKeys, the least recently active key goes.
 */
export class WindowLimiter {
  private readonly times = new Map<string, number[]>();
  private readonly now: () => number;

  constructor(private readonly options: WindowLimiterOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Counts one take of `key`, or refuses it with the seconds until its oldest take leaves the window. */
  take(key: string): Take {
    const now = this.now();
    const passed = now - this.options.windowMs;
    this.forgetPassed(passed);
    const times = this.times.get(key) ?? [];
    while (times.length > 0 && times[0]! <= passed) times.shift();
    if (times.length >= this.options.limit) {
      return { allowed: false, retryAfterS: Math.max(1, Math.ceil((times[0]! - passed) / 1000)) };
    }
    times.push(now);
    this.times.delete(key);
    this.times.set(key, times);
    if (this.times.size > this.options.maxKeys) this.times.delete(this.times.keys().next().value!);
    return { allowed: true };
  }

  /** Takes back the last take of `key` (what it was for did not happen). */
  giveBack(key: string): void {
    const times = this.times.get(key);
    times?.pop();
    if (times?.length === 0) this.times.delete(key);
  }

  /** Keys remembered now. */
  get size(): number {
    return this.times.size;
  }

  private forgetPassed(passed: number): void {
    for (const [key, times] of this.times) {
      if (times.length > 0 && times[times.length - 1]! > passed) break;
      this.times.delete(key);
    }
  }
}

export function newShareLimiter(now?: () => number): WindowLimiter {
  return new WindowLimiter({ limit: NEW_SHARES_PER_HOUR, windowMs: SHARE_WINDOW_MS, maxKeys: SHARE_REQUESTERS_KEPT, now });
}
