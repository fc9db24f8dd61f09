// The number of configurations of a feature tree without cross-tree constraints, by a product
// over the tree: ways(f) counts the configurations of f's subtree with f selected. A relation
// [min..max] over children with ways w1..wn contributes the sum over k in [min..max] of the
// k-th elementary symmetric polynomial of the w's (pick k children, each configured its own
// way; unpicked subtrees are off). Valid only when every tree node has its own name.

import type { FlatModel } from '../../../uvl/src/index.ts';

export function treeFormulaCount(flat: FlatModel): bigint {
  const n = flat.features.length;
  if (n === 0) return 0n;
  const ways: bigint[] = new Array(n).fill(1n);
  // Children come after their parent in the flat order, so a reverse pass sees children first.
  for (let i = n - 1; i >= 0; i--) {
    let product = 1n;
    for (const r of flat.features[i]!.relations) {
      product *= relationWays(r.children.map((c) => ways[c]!), r.min, r.max);
      if (product === 0n) break;
    }
    ways[i] = product;
  }
  return ways[0]!;
}

/** Sum over k in [min..max] of e_k(w): the ways to configure a group given its parent is on. */
function relationWays(w: bigint[], min: number, max: number): bigint {
  const n = w.length;
  const lo = Math.max(0, min);
  const hi = Math.min(n, max);
  if (lo > hi) return 0n;
  if (lo === 0 && hi === n) return w.reduce((p, x) => p * (1n + x), 1n);
  if (hi === 1 && lo <= 1) {
    const sum = w.reduce((s, x) => s + x, 0n);
    return lo === 0 ? sum + 1n : sum;
  }
  if (hi === n) {
    // All subsets minus those with fewer than lo picked: only e_0..e_{lo-1} are needed.
    const total = w.reduce((p, x) => p * (1n + x), 1n);
    const e = elementary(w, lo - 1);
    let below = 0n;
    for (let k = 0; k < lo; k++) below += e[k]!;
    return total - below;
  }
  const e = elementary(w, hi);
  let sum = 0n;
  for (let k = lo; k <= hi; k++) sum += e[k]!;
  return sum;
}

/** e_0..e_top of the values (the coefficients of prod (1 + w_i x) up to x^top). */
function elementary(w: bigint[], top: number): bigint[] {
  const e: bigint[] = new Array(top + 1).fill(0n);
  e[0] = 1n;
  for (const x of w) {
    for (let k = top; k >= 1; k--) e[k] = e[k]! + e[k - 1]! * x;
  }
  return e;
}
