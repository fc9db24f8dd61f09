// Two passes over the compiled form without big integers, for the analysis's atomic sets
// (ops/compiled-anomalies.ts): which values each variable can take when one literal is fixed,
// for many literals at once (exact, Boolean), and a weighted count modulo a prime with random weights (a fingerprint: variables
// equal in every model always get equal sums; unequal ones get equal sums with probability at
// most about vars / prime, so equal sums only nominate candidates that the exact pass confirms).
// The form is smooth and deterministic (decision-dnnf.ts): every model of the root passes through
// AND nodes that assign each kept variable exactly once, and no two branches of an OR share one.

import { FALSE_KIND, hasTables, OR_KIND, type DecisionDnnf } from './decision-dnnf.ts';

function decisionNodesOnly(form: DecisionDnnf): void {
  // The analysis compiles without TABLE nodes (compileEncoded's default).
  if (hasTables(form)) throw new Error('these passes need a form without TABLE nodes');
}

/** At most this many lanes per valuesUnder pass: one bit each of an int32. */
export const LANES = 32;

/** valuesUnder's answer: per reduced variable, a bit per lane. */
export interface LaneValues {
  /** Bit i of canBeTrue[v]: v is true in some model of lane i. */
  canBeTrue: Int32Array;
  canBeFalse: Int32Array;
}

/**
 * The values each reduced variable takes in the models in which one literal is fixed, for up to
 * LANES literals at once (lane i fixes lanes[i]; 0 fixes nothing): one pass up (which nodes have
 * such a model) and one down (which of them such a model of the root passes through, and what
 * they assign), each lane a bit of the same words. A lane with no model has no bit anywhere.
 */
export function valuesUnder(form: DecisionDnnf, lanes: readonly number[]): LaneValues {
  if (lanes.length > LANES) throw new RangeError(`at most ${LANES} lanes`);
  decisionNodesOnly(form);
  const { kind, childStart, children, litStart, lits, freeStart, free } = form;
  const canBeTrue = new Int32Array(form.vars + 1);
  const canBeFalse = new Int32Array(form.vars + 1);
  if (form.nodes === 0 || lanes.length === 0) return { canBeTrue, canBeFalse };
  // The lanes in which each variable is fixed true, false.
  const fixedTrue = new Int32Array(form.vars + 1);
  const fixedFalse = new Int32Array(form.vars + 1);
  lanes.forEach((l, i) => {
    if (l > 0) fixedTrue[l] |= 1 << i;
    else if (l < 0) fixedFalse[-l] |= 1 << i;
  });
  const all = lanes.length === LANES ? -1 : (1 << lanes.length) - 1;
  // Upward: the lanes in which a node has a model.
  const sat = new Int32Array(form.nodes);
  for (let n = 0; n < form.nodes; n++) {
    if (kind[n] === FALSE_KIND) continue;
    let mask = kind[n] === OR_KIND ? 0 : all;
    if (kind[n] === OR_KIND) {
      for (let k = childStart[n]!; k < childStart[n + 1]!; k++) mask |= sat[children[k]!]!;
    } else {
      for (let k = litStart[n]!; k < litStart[n + 1]! && mask !== 0; k++) {
        const l = lits[k]!;
        mask &= ~(l > 0 ? fixedFalse[l]! : fixedTrue[-l]!);
      }
      for (let k = childStart[n]!; k < childStart[n + 1]! && mask !== 0; k++) mask &= sat[children[k]!]!;
    }
    sat[n] = mask;
  }
  // Downward: the lanes whose models of the root pass through a node (a subset of its sat lanes).
  const reached = new Int32Array(form.nodes);
  reached[form.nodes - 1] = sat[form.nodes - 1]!;
  for (let n = form.nodes - 1; n >= 0; n--) {
    const r = reached[n]!;
    if (r === 0) continue;
    if (kind[n] === OR_KIND) {
      for (let k = childStart[n]!; k < childStart[n + 1]!; k++) reached[children[k]!] |= r & sat[children[k]!]!;
      continue;
    }
    for (let k = childStart[n]!; k < childStart[n + 1]!; k++) reached[children[k]!] |= r;
    for (let k = litStart[n]!; k < litStart[n + 1]!; k++) {
      const l = lits[k]!;
      if (l > 0) canBeTrue[l] |= r;
      else canBeFalse[-l] |= r;
    }
    for (let k = freeStart[n]!; k < freeStart[n + 1]!; k++) {
      const v = free[k]!;
      canBeTrue[v] |= r & ~fixedFalse[v]!;
      canBeFalse[v] |= r & ~fixedTrue[v]!;
    }
  }
  return { canBeTrue, canBeFalse };
}

export interface WeightedSums {
  /** The weighted count of the root, modulo the prime. */
  total: number;
  /** Per reduced variable, the weighted count of the models in which it is true. */
  trueSum: Float64Array;
}

/**
 * Each variable v gets the weight r (true) and 1 - r (false), r drawn from [2, prime); a model
 * weighs the product of its values' weights. The sums are the multilinear extension of each
 * variable's set of models at the point r, so two variables' sums differ unless their sets are
 * equal or r is a root of the (nonzero) difference, of degree at most vars.
 * `prime` must be below 2^26: products of two residues stay exact in a double.
 */
export function weightedTrueSums(form: DecisionDnnf, prime: number, random: () => number): WeightedSums {
  decisionNodesOnly(form);
  const { kind, childStart, children, litStart, lits, freeStart, free } = form;
  const weight = new Float64Array(form.vars + 1);
  for (let v = 1; v <= form.vars; v++) weight[v] = 2 + Math.floor(random() * (prime - 2));
  const trueSum = new Float64Array(form.vars + 1);
  if (form.nodes === 0) return { total: 0, trueSum };
  const litWeight = (l: number): number => (l > 0 ? weight[l]! : prime + 1 - weight[-l]!);
  // A node's own factor: the product of its literals' weights (a free variable's two weights add to 1).
  const local = new Float64Array(form.nodes);
  const value = new Float64Array(form.nodes);
  for (let n = 0; n < form.nodes; n++) {
    if (kind[n] === FALSE_KIND) continue;
    if (kind[n] === OR_KIND) {
      let sum = 0;
      for (let k = childStart[n]!; k < childStart[n + 1]!; k++) sum += value[children[k]!]!;
      value[n] = sum % prime;
      continue;
    }
    let product = 1;
    for (let k = litStart[n]!; k < litStart[n + 1]!; k++) product = (product * litWeight(lits[k]!)) % prime;
    local[n] = product;
    for (let k = childStart[n]!; k < childStart[n + 1]!; k++) product = (product * value[children[k]!]!) % prime;
    value[n] = product;
  }
  // Downward, as trueCounts (decision-dnnf.ts), with the products of the other children
  // (prefix and suffix) in place of a division, which a residue may not allow.
  const paths = new Float64Array(form.nodes);
  paths[form.nodes - 1] = 1;
  let suffix = new Float64Array(16);
  for (let n = form.nodes - 1; n >= 0; n--) {
    const up = paths[n]!;
    if (up === 0 || kind[n] === FALSE_KIND) continue;
    const from = childStart[n]!;
    const to = childStart[n + 1]!;
    if (kind[n] === OR_KIND) {
      for (let k = from; k < to; k++) paths[children[k]!] = (paths[children[k]!]! + up) % prime;
      continue;
    }
    const through = (up * value[n]!) % prime;
    for (let k = litStart[n]!; k < litStart[n + 1]!; k++) if (lits[k]! > 0) trueSum[lits[k]!] = (trueSum[lits[k]!]! + through) % prime;
    for (let k = freeStart[n]!; k < freeStart[n + 1]!; k++) {
      const v = free[k]!;
      trueSum[v] = (trueSum[v]! + ((through * weight[v]!) % prime)) % prime;
    }
    if (to - from + 1 > suffix.length) suffix = new Float64Array(2 * (to - from + 1));
    suffix[to - from] = 1;
    for (let k = to - 1; k >= from; k--) suffix[k - from] = (suffix[k - from + 1]! * value[children[k]!]!) % prime;
    let prefix = (up * local[n]!) % prime;
    for (let k = from; k < to; k++) {
      const c = children[k]!;
      paths[c] = (paths[c]! + ((prefix * suffix[k - from + 1]!) % prime)) % prime;
      prefix = (prefix * value[c]!) % prime;
    }
  }
  return { total: value[form.nodes - 1]!, trueSum };
}
