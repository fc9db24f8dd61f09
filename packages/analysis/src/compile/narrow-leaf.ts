// A narrow component kept in the compiled form as its residual formula (a TABLE node, see
// decision-dnnf.ts) instead of the search's nodes. On a wide model (fm3.uvl) the search below the
// top meets about 900 components of about 200 variables whose min-degree eliminations have bags
// of at most 11 variables: tracing a search through them made 411 000 nodes and three quarters
// of the compile, while their tables (count/tree-decomposition.ts) cost a fraction of that and
// answer every query of the form:
// - the count under decisions: one elimination with the decided variables fixed;
// - each variable's count of models in which it is true (narrow-leaf-true-counts.ts): the tables passed up (the count's),
//   then tables passed down (what the rest of the component contributes to each bag), and each
//   variable's bag summed with both;
// - a uniform model: variables drawn in reverse elimination order, each with the weights its
//   bucket gives given the variables drawn before (exact: doubles decide unless the draw falls
//   within their rounding of the boundary, then the residues do);
// - model number i: from the root of the elimination tree down, as the form's AND nodes do,
//   a mixed-radix digit per child table.

import { fromResidues, mulMod } from '../count/residues.ts';
import { TreeDecompositionCounter, type BucketTables, type EliminationPlan, type NarrowFormula } from '../count/tree-decomposition.ts';
import type { SeededRandom } from '../sample/prng.ts';
import { leafTrueCounts } from './narrow-leaf-true-counts.ts';

export { leafTrueCounts };

/** A compiled narrow component: local variable i is the form's reduced variable vars[i]. */
export interface NarrowLeaf {
  vars: Int32Array;
  formula: NarrowFormula;
  /** Its count with nothing fixed, once known. */
  openCount?: bigint;
  /** Its elimination (the compiler's, or found at the first query). */
  plan?: EliminationPlan;
  /** Its latest counts under fixed values, by the fixed values (a configurator's decisions grow one at a time). */
  recentCounts?: Map<string, bigint>;
}

/** Counts under fixed values kept per leaf: a variable of fm3.uvl is in 194 of its 889 leaves (median). */
const RECENT_COUNTS = 8;

function planOf(leaf: NarrowLeaf): EliminationPlan {
  return (leaf.plan ??= evaluator.planWithin(leaf.formula, Infinity, Infinity)!);
}

/** One evaluator for every leaf: its arrays grow to the largest and are reused. */
const evaluator = new TreeDecompositionCounter();

/**
 * Doubles are off from the exact values by less than 2^-38 relative (a product and a sum per
 * step over at most 1 000 steps); a draw closer than this to its boundary is settled exactly.
 */
const DRAW_MARGIN = 2 ** -30;

/** A leaf of the formula (copied: the caller reuses its arrays) and its elimination when known (else found at the first query). */
export function makeLeaf(f: NarrowFormula, vars: ArrayLike<number>, from: number, plan?: EliminationPlan): NarrowLeaf {
  const clauseStart = f.clauseStart.slice(0, f.clauses + 1);
  return {
    vars: Int32Array.from({ length: f.vars }, (_, i) => vars[from + i]!),
    formula: { vars: f.vars, clauses: f.clauses, clauseStart, lits: f.lits.slice(0, clauseStart[f.clauses]!) },
    plan,
  };
}

/** The leaf's own values of the form's fixed values, or null when none of its variables is fixed. */
export function localFixed(leaf: NarrowLeaf, fixed: Int8Array): Int8Array | null {
  let local: Int8Array | null = null;
  for (let i = 0; i < leaf.vars.length; i++) {
    const value = fixed[leaf.vars[i]!]!;
    if (value === 0) continue;
    local ??= new Int8Array(leaf.vars.length);
    local[i] = value;
  }
  return local;
}

/** The number of the leaf's models that agree with the form's fixed values. */
export function leafCount(leaf: NarrowLeaf, fixed: Int8Array): bigint {
  const local = localFixed(leaf, fixed);
  if (local === null && leaf.openCount !== undefined) return leaf.openCount;
  const key = local === null ? '' : local.join();
  const recent = (leaf.recentCounts ??= new Map());
  const known = recent.get(key);
  if (known !== undefined) return known;
  const count = evaluator.count(leaf.formula, Infinity, Infinity, local, planOf(leaf));
  if (count === null) throw new Error('unreachable: a narrow leaf without a width limit');
  if (local === null) leaf.openCount = count;
  else {
    if (recent.size >= RECENT_COUNTS) recent.delete(recent.keys().next().value!);
    recent.set(key, count);
  }
  return count;
}

/** The leaf's tables under the fixed values (with residues or not: see TreeDecompositionCounter.tables). */
export function leafTables(leaf: NarrowLeaf, fixed: Int8Array, exact: 'doubles' | 'total' | 'max'): BucketTables {
  return evaluator.tables(leaf.formula, localFixed(leaf, fixed), exact, planOf(leaf));
}

/** The leaf's count and each variable's true count under the fixed values (local, as leafTrueCounts). */
export function leafCountAndTrueCounts(leaf: NarrowLeaf, fixed: Int8Array): { count: bigint; trueIn: bigint[] } {
  const local = localFixed(leaf, fixed);
  // The evaluator's own tables, used before its next call: nothing copied.
  const tables = evaluator.tables(leaf.formula, local, 'total', planOf(leaf), true);
  return { count: tables.total, trueIn: leafTrueCounts(tables, local) };
}

/**
 * Step s's weight for its variable at value b (1 true, -1 false) given the values of the rest of
 * its bag: 0 if a clause of its bucket is false, else the product of its incoming tables there,
 * in channel `channel` (0: the double; 1..: a residue).
 */
function stepWeight(t: BucketTables, s: number, values: Int8Array, b: number, channel: number): number {
  const scope = t.scopeStart[s]!;
  const x = t.scopeVars[scope]!;
  const f = t.formula;
  const previous = values[x]!;
  // A fixed variable (set before its step is reached) has no weight at its other value.
  if (previous !== 0 && previous !== b) return 0;
  values[x] = b;
  let allowed = true;
  for (let k = t.clauseAt[s]!; k < t.clauseAt[s + 1]! && allowed; k++) {
    const c = t.bucketClauses[k]!;
    let satisfied = false;
    for (let i = f.clauseStart[c]!; i < f.clauseStart[c + 1]! && !satisfied; i++) {
      const l = f.lits[i]!;
      satisfied = values[l >> 1] === (l & 1 ? -1 : 1);
    }
    allowed = satisfied;
  }
  values[x] = previous;
  if (!allowed) return 0;
  const p = channel === 0 ? 0 : t.primes[channel - 1]!;
  let product = 1;
  for (let m = t.inStart[s]!; m < t.inStart[s + 1]!; m++) {
    const from = t.scopeStart[t.inList[m]!]! + 1;
    const to = t.scopeStart[t.inList[m]! + 1]!;
    let at = 0;
    for (let j = 0; j < to - from; j++) {
      const v = t.scopeVars[from + j]!;
      if ((v === x ? b : values[v]) === 1) at |= 1 << j;
    }
    const entry = t.pool[t.tableAt[t.inList[m]!]! + at * t.channels + channel]!;
    product = channel === 0 ? product * entry : mulMod(product, entry, p);
  }
  return product;
}

/** Step s's exact weight (exact tables). */
function exactWeight(t: BucketTables, s: number, values: Int8Array, b: number): bigint {
  const residues: number[] = [];
  for (let j = 1; j < t.channels; j++) residues.push(stepWeight(t, s, values, b, j));
  return fromResidues(residues, t.primes);
}

/**
 * Draws a model of the leaf uniformly into `values` (local: 1 true, -1 false; its fixed values
 * set, the others 0), given the leaf's tables under those fixed values. `exact` gives exact
 * tables when a draw must be settled exactly (rarely: about once in 2^29 draws; a margin of 1,
 * for tests, settles every draw so).
 */
export function leafDraw(t: BucketTables, values: Int8Array, random: SeededRandom, exact: () => BucketTables, margin = DRAW_MARGIN): void {
  let exactTables: BucketTables | undefined;
  for (let s = t.vars - 1; s >= 0; s--) {
    const x = t.scopeVars[t.scopeStart[s]!]!;
    if (values[x] !== 0) continue;
    const wFalse = stepWeight(t, s, values, -1, 0);
    const wTrue = stepWeight(t, s, values, 1, 0);
    if (wTrue === 0 || wFalse === 0) {
      values[x] = wTrue === 0 ? -1 : 1;
      continue;
    }
    // False when the uniform real U in [m, m + 1) / 2^53 is below P(false).
    const pFalse = wFalse / (wFalse + wTrue);
    const m = random.nextUint53();
    if ((m + 1) / 2 ** 53 <= pFalse - margin) values[x] = -1;
    else if (m / 2 ** 53 >= pFalse + margin) values[x] = 1;
    else {
      exactTables ??= exact();
      values[x] = drawExactly(exactWeight(exactTables, s, values, -1), exactWeight(exactTables, s, values, 1), m, random) ? -1 : 1;
    }
  }
}

/** Whether U < first / (first + second), U's first 53 bits being m: more bits until it is settled. */
function drawExactly(first: bigint, second: bigint, m: number, random: SeededRandom): boolean {
  const total = first + second;
  let low = BigInt(m);
  let bits = 53n;
  for (;;) {
    const scaled = first << bits;
    if ((low + 1n) * total <= scaled) return true;
    if (low * total >= scaled) return false;
    low = (low << 32n) | random.nextBits(32);
    bits += 32n;
  }
}

/**
 * Model number `index` (0 <= index < t.total) of the leaf into `values` (local, as leafDraw's),
 * in a fixed order: from the roots of the elimination down, each step's value then one digit per
 * incoming table in the base of its entry. `t` must be exact.
 */
export function leafUnrank(t: BucketTables, index: bigint, values: Int8Array): void {
  const { scopeStart, scopeVars, tableAt, inStart, inList, pool, channels, primes } = t;
  const entryValue = (step: number): bigint => {
    const from = scopeStart[step]! + 1;
    const to = scopeStart[step + 1]!;
    let at = 0;
    for (let j = 0; j < to - from; j++) if (values[scopeVars[from + j]!] === 1) at |= 1 << j;
    const residues: number[] = [];
    for (let j = 1; j < channels; j++) residues.push(pool[tableAt[step]! + at * channels + j]!);
    return fromResidues(residues, primes);
  };
  const steps: number[] = [];
  const indices: bigint[] = [];
  for (let s = 0; s < t.vars; s++) {
    if (scopeStart[s + 1]! - scopeStart[s]! !== 1) continue;
    const total = entryValue(s);
    steps.push(s);
    indices.push(index % total);
    index /= total;
  }
  while (steps.length > 0) {
    const s = steps.pop()!;
    let i = indices.pop()!;
    const x = scopeVars[scopeStart[s]!]!;
    for (const b of [-1, 1]) {
      const w = exactWeight(t, s, values, b);
      if (i >= w) {
        i -= w;
        continue;
      }
      values[x] = b;
      for (let m = inStart[s]!; m < inStart[s + 1]!; m++) {
        const base = entryValue(inList[m]!);
        steps.push(inList[m]!);
        indices.push(i % base);
        i /= base;
      }
      break;
    }
  }
}
