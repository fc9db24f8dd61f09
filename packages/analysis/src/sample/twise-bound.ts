// A lower bound on the size of any complete t-wise sample: a set of valid interactions no two of
// which fit in one configuration needs one configuration each. Validity is proven by the sample
// (only covered interactions are used); two interactions are incompatible when a literal of one
// implies, by unit propagation, the negation of a literal of the other (the exclusion rows, a
// sound under-approximation). The set is found greedily over the interactions of the literals
// with the most exclusions, which is where large incompatible sets live (alternative groups).

import type { TupleBits } from './tuple-bits.ts';

/** At most this many literals take part (their interactions are enumerated). */
const LITERALS = { 1: Infinity, 2: 600, 3: 70 } as const;
/** At most this many candidate interactions are tried. */
const CANDIDATES = 200_000;

export interface LowerBound {
  size: number;
  method: string;
}

/**
 * `exclusions`: row a holds the literals b with a => !b by propagation (symmetric);
 * `covered`: the sample's coverage (t-wise rows); `valid[a]`: literal a is in some configuration.
 */
export function greedyIncompatibleBound(t: 1 | 2 | 3, exclusions: TupleBits, covered: TupleBits, valid: Uint8Array): LowerBound {
  const L = exclusions.L;
  const degree = new Int32Array(L);
  const literals: number[] = [];
  for (let a = 0; a < L; a++) {
    if (!valid[a]) continue;
    degree[a] = exclusions.countAbove(a, -1);
    literals.push(a);
  }
  literals.sort((x, y) => degree[y]! - degree[x]! || x - y);
  const top = literals.slice(0, Math.min(literals.length, LITERALS[t])).sort((x, y) => x - y);

  // Candidates in order of decreasing total exclusions: the most constrained first.
  const candidates: number[][] = [];
  const visit = (start: number, prefix: number[]): void => {
    if (candidates.length >= CANDIDATES) return;
    if (prefix.length === t) {
      const last = prefix[t - 1]!;
      if (covered.has(covered.row(prefix), last)) candidates.push([...prefix]);
      return;
    }
    for (let i = start; i < top.length; i++) {
      const a = top[i]!;
      // Distinct features, compatible among themselves.
      if (prefix.some((p) => exclusions.has(p, a))) continue;
      prefix.push(a);
      visit(i + 1, prefix);
      prefix.pop();
    }
  };
  visit(0, []);
  const weight = (tuple: number[]) => tuple.reduce((s, a) => s + degree[a]!, 0);
  candidates.sort((x, y) => weight(y) - weight(x));

  const chosen: number[][] = [];
  const union = new Uint32Array(exclusions.W);
  for (const tuple of candidates) {
    union.fill(0);
    for (const a of tuple) for (let w = 0; w < exclusions.W; w++) union[w]! |= exclusions.words[a * exclusions.W + w]!;
    const clashesWithAll = chosen.every((other) => other.some((b) => (union[b >>> 5]! & (1 << (b & 31))) !== 0));
    if (clashesWithAll) chosen.push(tuple);
  }
  return {
    size: chosen.length,
    method: `greedy set of valid ${t}-wise interactions that are pairwise incompatible (a literal of one implies by unit propagation the negation of a literal of the other), over the ${top.length} literals with the most exclusions`,
  };
}
