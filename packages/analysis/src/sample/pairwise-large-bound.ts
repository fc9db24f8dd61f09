// The lower bound of the large pairwise path (as twise-bound.ts's clique products, over compact
// literals): literals that exclude one another by propagation (a clique of the exclusion rows,
// such as the children of an alternative group) are in different configurations, so covered
// pairs taking one literal from each of two such cliques over distinct features are pairwise
// incompatible, and any complete sample needs one configuration for each. automotive2_4's
// alternative groups of 231 and 167 children give 38 577.

import type { PairRows } from './pair-rows.ts';
import { popcount } from './tuple-bits.ts';

/** Cliques grown, from the literals of highest degree. */
const CLIQUES = 16;

/** Cliques of the exclusion rows over distinct features, grown greedily from the literals of highest degree. */
export function exclusiveCliques(exclusions: PairRows, features: number, count = CLIQUES): number[][] {
  const L = exclusions.L;
  const W = exclusions.W;
  const degree = new Int32Array(L);
  for (let p = 0; p < L; p++) {
    const row = exclusions.readRow(p);
    for (let w = 0; w < W; w++) degree[p]! += popcount(row[w]!);
  }
  const order = Array.from({ length: L }, (_, p) => p).sort((x, y) => degree[y]! - degree[x]! || x - y);
  const usedFeature = new Uint8Array(features);
  const cliques: number[][] = [];
  for (const seed of order) {
    if (cliques.length >= count) break;
    if (usedFeature[seed >> 1]) continue;
    const candidates = exclusions.readRow(seed).slice();
    const clique = [seed];
    for (const p of order) {
      if (p === seed || usedFeature[p >> 1] || (candidates[p >>> 5]! & (1 << (p & 31))) === 0) continue;
      clique.push(p);
      const row = exclusions.readRow(p);
      for (let w = 0; w < W; w++) candidates[w]! &= row[w]!;
    }
    for (const p of clique) usedFeature[p >> 1] = 1;
    cliques.push(clique);
  }
  return cliques;
}

export function cliqueBound(exclusions: PairRows, covered: PairRows, size: Int32Array): { size: number; method: string } {
  const cliques = exclusiveCliques(exclusions, size.length);
  let best = 0;
  let how = 'no covered pair';
  // One clique alone: its literals that are in some covered pair are in as many configurations.
  for (const clique of cliques) {
    const count = clique.filter((p) => covered.readRow(p).some((w) => w !== 0)).length;
    if (count > best) [best, how] = [count, `${clique.length}`];
  }
  for (let i = 0; i < cliques.length; i++) {
    for (let j = i + 1; j < cliques.length; j++) {
      let count = 0;
      for (const p of cliques[i]!) for (const q of cliques[j]!) if (covered.has(p, q)) count++;
      if (count > best) [best, how] = [count, `${cliques[i]!.length} x ${cliques[j]!.length}`];
    }
  }
  return {
    size: best,
    method: how.includes('x')
      ? `valid 2-wise interactions taking one literal from each of 2 sets of pairwise exclusive literals (by unit propagation) over distinct features, sets of ${how} literals`
      : `valid literals pairwise exclusive by unit propagation, a set of ${how}`,
  };
}
