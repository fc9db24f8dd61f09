// Bit sets over GF(2): the XOR rows' reduction to reduced row echelon form, and word helpers
// (sat/xor-gauss.ts).
import { Deadline } from '../deadline.ts';

export interface XorRow {
  /** DIMACS variables (distinct). */
  vars: readonly number[];
  /** True: an odd number of them is true. */
  parity: boolean;
}

/** Parity of the set bits of a 32-bit word. */
export const parity32 = (x: number): number => {
  x ^= x >>> 16;
  x ^= x >>> 8;
  x ^= x >>> 4;
  x ^= x >>> 2;
  x ^= x >>> 1;
  return x & 1;
};

/** Index of the lowest set bit of a non-zero word. */
export const lowBit = (x: number): number => 31 - Math.clz32(x & -x);

/**
 * The rows as bit sets in reduced row echelon form with their pivots (taken in column order);
 * null when inconsistent. Each row addition starts at the pivot row's first non-zero word.
 * `deadline` is looked at every 64 pivots (thousands of dense rows take seconds): past it,
 * DeadlineExceeded is thrown.
 */
export function reduce(rows: readonly XorRow[], colOf: Int32Array, cols: number, W: number, deadline: Deadline = Deadline.none()): { bits: Uint32Array; rhs: number; pivot: number }[] | null {
  const n = rows.length;
  const m = new Uint32Array(Math.max(1, n * W));
  const rhs = new Uint8Array(n);
  rows.forEach((row, r) => {
    for (const v of row.vars) m[r * W + (colOf[v]! >>> 5)]! ^= 1 << (colOf[v]! & 31);
    rhs[r] = row.parity ? 1 : 0;
  });
  const order = Array.from({ length: n }, (_, r) => r); // order[i]: the row in position i
  const out: { bits: Uint32Array; rhs: number; pivot: number }[] = [];
  let next = 0;
  for (let col = 0; col < cols && next < n; col++) {
    const word = col >>> 5;
    const bit = 1 << (col & 31);
    let found = -1;
    for (let i = next; i < n; i++) if (m[order[i]! * W + word]! & bit) { found = i; break; }
    if (found < 0) continue;
    [order[next], order[found]] = [order[found]!, order[next]!];
    const p = order[next]! * W;
    let lo = 0;
    while (m[p + lo] === 0) lo++;
    for (let i = 0; i < n; i++) {
      const t = order[i]! * W;
      if (i === next || !(m[t + word]! & bit)) continue;
      for (let w = lo; w < W; w++) m[t + w]! ^= m[p + w]!;
      rhs[order[i]!]! ^= rhs[order[next]!]!;
    }
    out.push({ bits: m.subarray(p, p + W), rhs: rhs[order[next]!]!, pivot: col });
    next++;
    if ((next & 63) === 0) deadline.check();
  }
  for (let i = next; i < n; i++) if (rhs[order[i]!] === 1) return null;
  // rhs of the kept rows may have changed after they were pushed: read them again.
  return out.map((o, i) => ({ bits: o.bits, rhs: rhs[order[i]!]!, pivot: o.pivot }));
}
