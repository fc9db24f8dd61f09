// The limit on new shared configurations (docs/security.md, "Filling the disk with stored
// configurations"): storing one needs no account, so without a limit a visitor could post distinct
// configurations in a loop (each up to the 2 MiB body limit) and fill the database's disk. The limit
// is a budget by size: each new configuration costs one unit per started SHARE_UNIT_BYTES of its
// stored decisions (a small one costs 1), and each requester (the account when signed in, else the
// client address: core's requesterOf) has SHARE_UNITS_PER_HOUR units in a sliding hour. A person
// deciding by hand on a large model, whose page stores a small configuration at every step, can
// store about 600 an hour; a script storing large ones, about 10 MB an hour. Asking again for a
// stored configuration costs nothing. Kept in memory per process, so each instance counts its own.

/** The bytes one unit of the budget pays for: a new configuration costs one unit per started 16 KiB. */
export const SHARE_UNIT_BYTES = 16 * 1024;
/** Units per requester in any hour: 600 small configurations, or about 10 MB of decisions. */
export const SHARE_UNITS_PER_HOUR = 600;
export const SHARE_WINDOW_MS = 60 * 60 * 1000;
/** Requesters remembered at once (each with at most SHARE_UNITS_PER_HOUR takes in memory). */
export const SHARE_REQUESTERS_KEPT = 10_000;

/** The units a new configuration costs: one per started SHARE_UNIT_BYTES of its stored JSON (UTF-8). */
export function shareUnits(storedJson: string): number {
  return Math.max(1, Math.ceil(Buffer.byteLength(storedJson, 'utf8') / SHARE_UNIT_BYTES));
}

/** The 429's message: the limit in a person's words, and when to try again. */
export function shareLimitMessage(retryAfterS: number, signedIn: boolean): string {
  const megabytes = Math.round((SHARE_UNITS_PER_HOUR * SHARE_UNIT_BYTES) / 1_000_000);
  return `Too many configurations stored from ${signedIn ? 'your account' : 'here'}: at most ${SHARE_UNITS_PER_HOUR} small ones`
    + ` (or about ${megabytes} MB) an hour. Try again in ${retryAfterS} seconds.`;
}

export type Take = { allowed: true } | { allowed: false; retryAfterS: number };

export interface WindowLimiterOptions {
  /** Weight allowed per key in any window. */
  limit: number;
  windowMs: number;
  /** Keys remembered at once; beyond, the one that took least recently is forgotten. */
  maxKeys: number;
  /** The clock (milliseconds), injectable for tests. */
  now?: () => number;
}

interface Window {
  /** The key's takes within the window, oldest first. */
  takes: { at: number; weight: number }[];
  /** Their total weight. */
  sum: number;
}

/**
 * A sliding-window budget per key: the key's takes (time, weight) within the last window, whose
 * total may not pass the limit. As every weight is at least 1, a key keeps at most `limit` takes.
 * The map is kept in the order of each key's last take, so the keys whose window passed are at its
 * front and leave at the next take; when it still holds maxKeys, the least recently active key goes.
 */
export class WindowLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly now: () => number;

  constructor(private readonly options: WindowLimiterOptions) {
    this.now = options.now ?? Date.now;
  }

  /**
   * Counts a take of `weight` (an integer from 1 to the limit) for `key`, or refuses it with the
   * seconds until enough of the key's weight has left the window for it to fit.
   */
  take(key: string, weight = 1): Take {
    if (!Number.isInteger(weight) || weight < 1 || weight > this.options.limit) {
      throw new RangeError(`A take weighs 1 to ${this.options.limit}, not ${weight}`);
    }
    const now = this.now();
    const passed = now - this.options.windowMs;
    this.forgetPassed(passed);
    const window = this.windows.get(key) ?? { takes: [], sum: 0 };
    while (window.takes.length > 0 && window.takes[0]!.at <= passed) window.sum -= window.takes.shift()!.weight;
    if (window.sum + weight > this.options.limit) {
      // The oldest takes that must leave for this one to fit: it fits once the last of them has.
      let excess = window.sum + weight - this.options.limit;
      let i = 0;
      for (; excess > 0; i++) excess -= window.takes[i]!.weight;
      return { allowed: false, retryAfterS: Math.max(1, Math.ceil((window.takes[i - 1]!.at - passed) / 1000)) };
    }
    window.takes.push({ at: now, weight });
    window.sum += weight;
    this.windows.delete(key);
    this.windows.set(key, window);
    if (this.windows.size > this.options.maxKeys) this.windows.delete(this.windows.keys().next().value!);
    return { allowed: true };
  }

  /**
   * Gives back a take of `weight` by `key` (what it was for did not happen): the latest of that
   * weight, so that two overlapping requests of one requester never give back each other's
   * (takes of one weight are interchangeable).
   */
  giveBack(key: string, weight: number): void {
    const window = this.windows.get(key);
    if (!window) return;
    for (let i = window.takes.length - 1; i >= 0; i--) {
      if (window.takes[i]!.weight !== weight) continue;
      window.takes.splice(i, 1);
      window.sum -= weight;
      break;
    }
    if (window.takes.length === 0) this.windows.delete(key);
  }

  /** Keys remembered now. */
  get size(): number {
    return this.windows.size;
  }

  /** The takes of `key` remembered now (at most `limit`). */
  takesOf(key: string): number {
    return this.windows.get(key)?.takes.length ?? 0;
  }

  private forgetPassed(passed: number): void {
    for (const [key, window] of this.windows) {
      if (window.takes.length > 0 && window.takes[window.takes.length - 1]!.at > passed) break;
      this.windows.delete(key);
    }
  }
}

export function newShareLimiter(now?: () => number): WindowLimiter {
  return new WindowLimiter({ limit: SHARE_UNITS_PER_HOUR, windowMs: SHARE_WINDOW_MS, maxKeys: SHARE_REQUESTERS_KEPT, now });
}
