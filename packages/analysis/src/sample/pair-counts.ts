// How many configurations of a pairwise sample cover each pair of literals: the table the
// improvement (twise-improve.ts) decides by. A count per pair (a < b), L * L 16-bit counts, so
// that removing or changing one configuration updates only its own pairs and "only this
// configuration covers it" is a count of 1.
//
// A configuration is given as `on`: its literal per feature (on[v - 1] is litIndex(v) or
// litIndex(-v)), increasing, so that each pair is read as (on[i], on[j]) with i < j.

export class PairCounts {
  readonly L: number;
  private readonly count: Uint16Array;

  constructor(features: number) {
    this.L = 2 * features;
    this.count = new Uint16Array(this.L * this.L);
  }

  /** Every count back to 0 (a table used again instead of another one allocated). */
  clear(): void {
    this.count.fill(0);
  }

  /** Configurations covering pair (a, b), in either order. */
  of(a: number, b: number): number {
    return this.count[a < b ? a * this.L + b : b * this.L + a]!;
  }

  /** Counts every pair of the configuration up or down. */
  add(on: Int32Array, by: 1 | -1): void {
    const { count, L } = this;
    for (let i = 0; i < on.length; i++) {
      const base = on[i]! * L;
      for (let j = i + 1; j < on.length; j++) count[base + on[j]!]! += by;
    }
  }

  /** The pairs only this configuration covers (up to `limit`), as [smaller, larger] literals. */
  unique(on: Int32Array, limit: number): [number, number][] {
    const { count, L } = this;
    const out: [number, number][] = [];
    for (let i = 0; i < on.length; i++) {
      const base = on[i]! * L;
      for (let j = i + 1; j < on.length; j++) {
        if (count[base + on[j]!] !== 1) continue;
        out.push([on[i]!, on[j]!]);
        if (out.length >= limit) return out;
      }
    }
    return out;
  }

  /**
   * The configuration's literals, of the `changed` features and of their partners, in the pairs
   * it alone covers that the change would lose: what must stay for the change to lose nothing.
   * Empty when every pair the change loses is covered by another configuration too.
   */
  lostBy(on: Int32Array, changed: number[]): number[] {
    const keep = new Set<number>();
    for (const v of changed) {
      const a = on[v - 1]!;
      for (let j = 0; j < on.length; j++) {
        if (j === v - 1 || this.of(a, on[j]!) !== 1) continue;
        keep.add(a);
        keep.add(on[j]!);
      }
    }
    // A partner the change keeps is no constraint of its own, but harmless: it holds already.
    return [...keep];
  }

  /** Counts, up or down, the configuration's pairs that have at least one changed feature. */
  change(on: Int32Array, changed: number[], by: 1 | -1): void {
    const { count, L } = this;
    const isChanged = new Uint8Array(on.length);
    for (const v of changed) isChanged[v - 1] = 1;
    for (const v of changed) {
      const a = on[v - 1]!;
      for (let j = 0; j < on.length; j++) {
        if (j === v - 1 || (isChanged[j] && j < v - 1)) continue; // a pair of two changed features: once
        const b = on[j]!;
        count[a < b ? a * L + b : b * L + a]! += by;
      }
    }
  }
}
