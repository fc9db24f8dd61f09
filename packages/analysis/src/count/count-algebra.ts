// What the counter's search computes with. Counting multiplies the counts of a branch's
// components and adds the two branches of a decision; the compiler (compile/) does the same
// search and builds, in place of each product and sum, an AND node and an OR node of a
// decision-DNNF. The search and its cache do not care which: they take an algebra.

export interface CountAlgebra<T> {
  /** The value of no model (a failed branch, an unsatisfiable component). */
  readonly zero: T;
  isZero(value: T): boolean;
  /**
   * The start of a branch (or of the whole formula): it assigned the literals trail[from .. to)
   * (the counter's encoding, 2v for v and 2v + 1 for not v), and free[0 .. freeCount) are its
   * variables in no clause. The value its components are multiplied into.
   */
  branch(trail: Int32Array, from: number, to: number, free: Int32Array, freeCount: number): T;
  /** A branch's value times one of its components'. */
  times(product: T, factor: T): T;
  /** The values of a decision's branches together (total starts at zero). */
  plus(total: T, branch: T): T;
  /** A count found without a search (the dynamic programming); absent when the algebra needs the search's trace. */
  fromCount?: (count: bigint) => T;
  /**
   * A narrow component kept as its residual formula (the compiler's TABLE nodes): variable i of
   * the formula is the counter's variable vars[from + i], `plan` its elimination. The formula's
   * arrays are reused after the call. Absent when the algebra counts them or wants them searched.
   */
  fromNarrow?: (formula: NarrowFormula, vars: Int32Array, from: number, plan: EliminationPlan) => T;
}

import type { EliminationPlan, NarrowFormula } from './tree-decomposition.ts';

const powersOfTwo: bigint[] = [];

function powerOfTwo(k: number): bigint {
  while (powersOfTwo.length <= k) powersOfTwo.push(1n << BigInt(powersOfTwo.length));
  return powersOfTwo[k]!;
}

/** Exact counts: each free variable doubles a branch's count. */
export const BIGINT_COUNT: CountAlgebra<bigint> = {
  zero: 0n,
  isZero: (value) => value === 0n,
  branch: (_trail, _from, _to, _free, freeCount) => powerOfTwo(freeCount),
  times: (product, factor) => product * factor,
  plus: (total, branch) => total + branch,
  fromCount: (count) => count,
};
