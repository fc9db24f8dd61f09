// Two passes over the compiled form without big integers, for the analysis's atomic sets
// (ops/compiled-anomalies.ts): which values each variable can take under fixed values (exact,
// Boolean), and a weighted count modulo a prime with random weights (a fingerprint: variables
// equal in every model always get equal sums; unequal ones get equal sums with probability at
// most about vars / prime, so equal sums only nominate candidates that the exact pass confirms).
// The form is smooth and deterministic (decision-dnnf.ts): every model of the root passes through
// AND nodes that assign each kept variable exactly once, and no two branches of an OR share one.

import { AND_KIND, FALSE_KIND, OR_KIND, type DecisionDnnf, type FixedValues } from './decision-dnnf.ts';

/** possibleValues' bits per variable. */
export const CAN_BE_TRUE = 1;
export const CAN_BE_FALSE = 2;

/**
 * Per reduced variable, the values it takes in the models that agree with `fixed`
 * (CAN_BE_TRUE | CAN_BE_FALSE bits; 0 for every variable when there is no such model).
 */
export function possibleValues(form: DecisionDnnf, fixed: FixedValues): Uint8Array {
  const { kind, childStart, children, litStart, lits, freeStart, free } = form;
  const out = new Uint8Array(form.vars + 1);
  if (form.nodes === 0) return out;
  // Upward: whether a node has a model that agrees with the fixed values.
  const sat = new Uint8Array(form.nodes);
  for (let n = 0; n < form.nodes; n++) {
    if (kind[n] === FALSE_KIND) continue;
    if (kind[n] === OR_KIND) {
      for (let k = childStart[n]!; k < childStart[n + 1]!; k++) if (sat[children[k]!]) sat[n] = 1;
      continue;
    }
    let ok = 1;
    for (let k = litStart[n]!; k < litStart[n + 1]! && ok; k++) {
      const l = lits[k]!;
      const value = fixed[l > 0 ? l : -l]!;
      if (value !== 0 && value !== (l > 0 ? 1 : -1)) ok = 0;
    }
    for (let k = childStart[n]!; k < childStart[n + 1]! && ok; k++) if (!sat[children[k]!]) ok = 0;
    sat[n] = ok;
  }
  // Downward: the nodes some such model of the root passes through, and what they assign.
  const reached = new Uint8Array(form.nodes);
  reached[form.nodes - 1] = sat[form.nodes - 1]!;
  for (let n = form.nodes - 1; n >= 0; n--) {
    if (!reached[n]) continue;
    if (kind[n] === OR_KIND) {
      for (let k = childStart[n]!; k < childStart[n + 1]!; k++) if (sat[children[k]!]) reached[children[k]!] = 1;
      continue;
    }
    for (let k = childStart[n]!; k < childStart[n + 1]!; k++) reached[children[k]!] = 1;
    for (let k = litStart[n]!; k < litStart[n + 1]!; k++) {
      const l = lits[k]!;
      out[l > 0 ? l : -l] |= l > 0 ? CAN_BE_TRUE : CAN_BE_FALSE;
    }
    for (let k = freeStart[n]!; k < freeStart[n + 1]!; k++) {
      const v = free[k]!;
      out[v] |= fixed[v] === 1 ? CAN_BE_TRUE : fixed[v] === -1 ? CAN_BE_FALSE : CAN_BE_TRUE | CAN_BE_FALSE;
    }
  }
  return out;
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
