// Equivalences that the binary clauses alone prove. A clause (a | b) is the implications
// !a -> b and !b -> a; literals in one strongly connected component of that graph imply each
// other, so their variables are equal (or opposite) in every model. Feature models are full of
// them: a mandatory child and its parent, `A <=> B`, an alternative of two whose other child is
// dead. Clauses are first reduced by the known fixed values (the backbone), which turns longer
// clauses into binary ones.

import { graphComponents } from '../count/equivalences.ts';

/** Literal index of a DIMACS literal: 2v for v, 2v + 1 for -v. */
const index = (lit: number): number => (lit > 0 ? 2 * lit : -2 * lit + 1);

/**
 * Per variable, the component of its positive literal (equal numbers: equal variables in every
 * model). `fixed[v]` is 1 or -1 for a variable with a known value, 0 otherwise.
 */
export function binaryEquivalenceClasses(numVars: number, clauses: Iterable<ArrayLike<number>>, fixed: Int8Array): Int32Array {
  const size = 2 * numVars + 2;
  const heads: number[] = [];
  const tails: number[] = [];
  const reduced: number[] = [];
  for (const clause of clauses) {
    reduced.length = 0;
    let satisfied = false;
    for (let i = 0; i < clause.length && !satisfied; i++) {
      const lit = clause[i]!;
      const value = fixed[Math.abs(lit)] ?? 0;
      if (value === 0) reduced.push(lit);
      else if ((value > 0) === (lit > 0)) satisfied = true;
    }
    if (satisfied || reduced.length !== 2) continue;
    const [a, b] = reduced as [number, number];
    heads.push(index(-a), index(-b));
    tails.push(index(b), index(a));
  }
  const component = graphComponents(size, heads, tails);
  const out = new Int32Array(numVars + 1);
  for (let v = 1; v <= numVars; v++) out[v] = component[2 * v]!;
  return out;
}
