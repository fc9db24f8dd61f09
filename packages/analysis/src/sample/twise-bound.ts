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
  const cliques = cliqueProductBound(t, exclusions, covered, valid, degree);
  if (cliques.size > chosen.length) return cliques;
  return {
    size: chosen.length,
    method: `greedy set of valid ${t}-wise interactions that are pairwise incompatible (a literal of one implies by unit propagation the negation of a literal of the other), over the ${top.length} literals with the most exclusions`,
  };
}

/** Cliques of the exclusion graph looked for, largest first. */
const CLIQUES = 12;

/**
 * Literals pairwise exclusive (a clique of the exclusion rows, such as the children of an
 * alternative group) need a configuration each; for t features, the covered interactions that
 * take one literal from each of t such cliques over distinct features are pairwise
 * incompatible too. The cliques are grown greedily from the literals of highest degree.
 */
function cliqueProductBound(t: 1 | 2 | 3, exclusions: TupleBits, covered: TupleBits, valid: Uint8Array, degree: Int32Array): LowerBound {
  const L = exclusions.L;
  const W = exclusions.W;
  const usedVar = new Uint8Array(L >> 1);
  const cliques: number[][] = [];
  const order = Array.from({ length: L }, (_, a) => a).filter((a) => valid[a]).sort((x, y) => degree[y]! - degree[x]! || x - y);
  for (const seed of order) {
    if (cliques.length >= CLIQUES) break;
    if (usedVar[seed >> 1]) continue;
    // Candidates: literals exclusive with every member so far.
    const candidates = exclusions.words.slice(seed * W, (seed + 1) * W);
    const clique = [seed];
    for (const a of order) {
      if (a === seed || usedVar[a >> 1] || (candidates[a >>> 5]! & (1 << (a & 31))) === 0) continue;
      clique.push(a);
      for (let w = 0; w < W; w++) candidates[w]! &= exclusions.words[a * W + w]!;
    }
    for (const a of clique) usedVar[a >> 1] = 1;
    cliques.push(clique.sort((x, y) => x - y));
  }
  let best = 0;
  let how = '';
  const count = (parts: number[][]): number => {
    let total = 0;
    const visit = (i: number, tuple: number[]): void => {
      if (i === parts.length) {
        const sorted = [...tuple].sort((x, y) => x - y);
        if (covered.has(covered.row(sorted), sorted[t - 1]!)) total++;
        return;
      }
      for (const a of parts[i]!) visit(i + 1, [...tuple, a]);
    };
    visit(0, []);
    return total;
  };
  const consider = (parts: number[][]) => {
    const size = count(parts);
    if (size > best) [best, how] = [size, parts.map((p) => p.length).join(' x ')];
  };
  for (let i = 0; i < cliques.length; i++) {
    if (t === 1) consider([cliques[i]!]);
    for (let j = i + 1; j < cliques.length && t >= 2; j++) {
      if (t === 2) consider([cliques[i]!, cliques[j]!]);
      else for (let k = j + 1; k < cliques.length; k++) consider([cliques[i]!, cliques[j]!, cliques[k]!]);
    }
  }
  return {
    size: best,
    method: `valid ${t}-wise interactions taking one literal from each of ${t} sets of pairwise exclusive literals (by unit propagation) over distinct features, sets of ${how} literals`,
  };
}
