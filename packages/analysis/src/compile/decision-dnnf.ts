// The compiled form: a decision-DNNF over the counter's reduced variables (features merged with
// the literals they equal), in typed arrays, nodes in post-order (every child before its
// parents, the root last). An AND node is the conjunction of its literals, its free variables
// (each either value) and its children, which share no variable; an OR node is a decision: its
// two children are AND nodes that assign the decided variable opposite values, or that differ on
// an auxiliary variable (dropped, see dnnf-builder.ts), so they share no model either way.
// Every OR node's children range over the same variables (the component's), so the form is
// smooth: each model of the root assigns each variable in exactly one AND node it passes through.

import { leafCount, leafCountAndTrueCounts, type NarrowLeaf } from './narrow-leaf.ts';

export const FALSE_KIND = 0;
export const AND_KIND = 1;
export const OR_KIND = 2;
/** A narrow component kept as its formula and answered by its tables (narrow-leaf.ts). */
export const TABLE_KIND = 3;

export interface DecisionDnnf {
  /** Number of reduced variables (1..vars). */
  vars: number;
  nodes: number;
  kind: Uint8Array;
  /** Children of node n: children[childStart[n] .. childStart[n + 1]). */
  childStart: Int32Array;
  children: Int32Array;
  /** Literals of AND node n (signed reduced variables): lits[litStart[n] .. litStart[n + 1]). */
  litStart: Int32Array;
  lits: Int32Array;
  /** Free variables of AND node n: free[freeStart[n] .. freeStart[n + 1]). */
  freeStart: Int32Array;
  free: Int32Array;
  /** The narrow components of TABLE nodes: node n's is leaves[leafOf[n]] (-1 for other nodes). */
  leafOf: Int32Array;
  leaves: NarrowLeaf[];
}

/** Whether the form has TABLE nodes (passes that only know decision nodes refuse it). */
export function hasTables(form: DecisionDnnf): boolean {
  return form.leaves.length > 0;
}

/** Values of the reduced variables the caller fixed: 1 true, -1 false, 0 open. */
export type FixedValues = Int8Array;

/** Sets the values of AND node n's literals (1 true, -1 false). */
export function setLiterals(form: DecisionDnnf, n: number, values: Int8Array): void {
  const { litStart, lits } = form;
  for (let k = litStart[n]!; k < litStart[n + 1]!; k++) {
    const l = lits[k]!;
    values[l > 0 ? l : -l] = l > 0 ? 1 : -1;
  }
}

/**
 * The number of models of each node that agree with `fixed` (its free variables counted over
 * the open ones only), in one upward pass. `keptTrueCounts` keeps each TABLE node's true counts
 * for trueCounts (a commonality pass), made from the same tables as its count.
 */
export function nodeCounts(form: DecisionDnnf, fixed: FixedValues, keptTrueCounts?: Map<number, bigint[]>): bigint[] {
  const counts: bigint[] = new Array<bigint>(form.nodes);
  const { kind, childStart, children } = form;
  for (let n = 0; n < form.nodes; n++) {
    if (kind[n] === FALSE_KIND) {
      counts[n] = 0n;
      continue;
    }
    if (kind[n] === OR_KIND) {
      let sum = 0n;
      for (let k = childStart[n]!; k < childStart[n + 1]!; k++) sum += counts[children[k]!]!;
      counts[n] = sum;
      continue;
    }
    if (kind[n] === TABLE_KIND) {
      const leaf = form.leaves[form.leafOf[n]!]!;
      if (keptTrueCounts === undefined) counts[n] = leafCount(leaf, fixed);
      else {
        // The true counts trueCounts will want, from the same tables as the count.
        const both = leafCountAndTrueCounts(leaf, fixed);
        keptTrueCounts.set(n, both.trueIn);
        counts[n] = both.count;
      }
      continue;
    }
    counts[n] = andNodeCount(form, n, fixed, counts);
  }
  return counts;
}

function andNodeCount(form: DecisionDnnf, n: number, fixed: FixedValues, counts: bigint[]): bigint {
  const { childStart, children, litStart, lits, freeStart, free } = form;
  for (let k = litStart[n]!; k < litStart[n + 1]!; k++) {
    const l = lits[k]!;
    const value = fixed[l > 0 ? l : -l]!;
    if (value !== 0 && value !== (l > 0 ? 1 : -1)) return 0n;
  }
  let open = 0;
  for (let k = freeStart[n]!; k < freeStart[n + 1]!; k++) if (fixed[free[k]!] === 0) open++;
  let product = open === 0 ? 1n : 1n << BigInt(open);
  for (let k = childStart[n]!; k < childStart[n + 1]!; k++) {
    const c = counts[children[k]!]!;
    if (c === 0n) return 0n;
    if (c !== 1n) product *= c;
  }
  return product;
}

/**
 * For each reduced variable, the number of the root's models (agreeing with `fixed`) in which it
 * is true: one downward pass after nodeCounts. paths[n] is the number of ways to complete a model
 * of node n into one of the root (the product of everything beside n on the way up, summed over
 * the ways up); a model that passes through AND node n assigns its literals and free variables
 * there, so n adds paths[n] * counts[n] to each of its true literals and half that to each open
 * free variable.
 */
export function trueCounts(form: DecisionDnnf, fixed: FixedValues, counts: bigint[], keptTrueCounts?: Map<number, bigint[]>): bigint[] {
  const { kind, childStart, children, litStart, lits, freeStart, free } = form;
  const result: bigint[] = new Array<bigint>(form.vars + 1).fill(0n);
  if (form.nodes === 0) return result;
  const paths: bigint[] = new Array<bigint>(form.nodes).fill(0n);
  paths[form.nodes - 1] = 1n;
  for (let n = form.nodes - 1; n >= 0; n--) {
    const up = paths[n]!;
    const here = counts[n]!;
    if (up === 0n || here === 0n) continue;
    if (kind[n] === OR_KIND) {
      for (let k = childStart[n]!; k < childStart[n + 1]!; k++) paths[children[k]!] += up;
      continue;
    }
    if (kind[n] === TABLE_KIND) {
      const leaf = form.leaves[form.leafOf[n]!]!;
      const trueIn = keptTrueCounts?.get(n) ?? leafCountAndTrueCounts(leaf, fixed).trueIn;
      for (let i = 0; i < trueIn.length; i++) if (trueIn[i]! !== 0n) result[leaf.vars[i]!] += up * trueIn[i]!;
      continue;
    }
    const through = up * here;
    for (let k = litStart[n]!; k < litStart[n + 1]!; k++) if (lits[k]! > 0) result[lits[k]!] += through;
    for (let k = freeStart[n]!; k < freeStart[n + 1]!; k++) {
      const v = free[k]!;
      // An open free variable doubled `here`: half of the models have it true.
      if (fixed[v] === 0) result[v] += through >> 1n;
      else if (fixed[v] === 1) result[v] += through;
    }
    for (let k = childStart[n]!; k < childStart[n + 1]!; k++) {
      const child = children[k]!;
      // counts[child] divides counts[n] exactly (it is one of its factors, and not zero).
      paths[child] += through / counts[child]!;
    }
  }
  return result;
}
