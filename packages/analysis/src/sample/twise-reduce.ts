// The improvement after the greedy: configurations that cover nothing the others do not are
// dropped. The configurations are taken again, last built first (the late ones hold the rare
// interactions; the early ones mostly common ones that later configurations also have), and one
// is kept only when it covers an interaction the kept ones do not: one pass over bit rows, and
// the kept set still covers every interaction the whole sample covered.

import { litIndex, literalMask } from './tuple-bits.ts';

/** The indices (in building order) of the configurations to keep, for t = 1 or 2; every one for t = 3. */
export function keepNeeded(models: Int8Array[], n: number, t: number): number[] {
  const all = models.map((_, i) => i);
  if (t === 3) return all;
  const L = 2 * n;
  const W = Math.ceil(L / 32);
  const seen = new Uint32Array((t === 1 ? 1 : L) * W);
  const keep: number[] = [];
  for (let i = models.length - 1; i >= 0; i--) {
    const on: number[] = [];
    for (let v = 1; v <= n; v++) on.push(litIndex(models[i]![v] === 1 ? v : -v));
    const mask = literalMask(on, W);
    let adds = false;
    for (const a of t === 1 ? [0] : on) {
      const base = (t === 1 ? 0 : a) * W;
      for (let w = 0; w < W && !adds; w++) {
        // A pair needs a partner: the literal's own bit in its row is no pair.
        const own = t === 2 && w === a >>> 5 ? 1 << (a & 31) : 0;
        adds = (mask[w]! & ~seen[base + w]! & ~own) !== 0;
      }
      if (adds) break;
    }
    if (!adds) continue;
    keep.push(i);
    for (const a of t === 1 ? [0] : on) {
      const base = (t === 1 ? 0 : a) * W;
      for (let w = 0; w < W; w++) seen[base + w]! |= mask[w]!;
    }
  }
  return keep.reverse();
}
