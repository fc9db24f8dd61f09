// The SAT solver's clauses and literals (solver.ts). Inside the solver a literal is 2v for v and
// 2v+1 for -v, so that `lit ^ 1` is its negation and arrays can be indexed by literal.

export class Clause {
  lits: Int32Array;
  learnt: boolean;
  activity = 0;
  lbd = 0;
  removed = false;
  /** A reason made when first read (extra propagator): `lits` is empty until then. */
  lazy: (() => Int32Array) | null = null;
  constructor(lits: Int32Array, learnt: boolean) {
    this.lits = lits;
    this.learnt = learnt;
  }
}

export const TRUE = 1, FALSE = -1;
export const EMPTY = new Int32Array(0);

/** A clause's literals, made first if it is a lazy reason. */
export function litsOf(c: Clause): Int32Array {
  if (c.lazy !== null) {
    c.lits = c.lazy();
    c.lazy = null;
  }
  return c.lits;
}

export const toInternal = (dimacs: number): number => (dimacs > 0 ? dimacs << 1 : ((-dimacs) << 1) | 1);
export const toDimacs = (lit: number): number => (lit & 1 ? -(lit >> 1) : lit >> 1);
