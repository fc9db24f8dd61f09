// A smaller set of variables that determines the others (an independent support), by Padoa's
// method: x is a function of the set I when the formula F(X), a copy F(X') and y = y' for every y
// in I leave no room for x true and x' false. Hashing and blocking over I instead of every
// feature keeps the count (each assignment of I that extends to a model extends in one way) and
// leaves far fewer free variables for the solver once the XORs fix their pivots.

import { Deadline } from '../deadline.ts';
import { SatSolver } from '../sat/solver.ts';

/**
 * The candidates minus those found to be functions of the rest, greedily in the given order. A
 * check that runs past `perCheckMs` (or the deadline) keeps its variable: keeping one is always
 * sound, only slower to hash. `featureVars`: variables above it are never branched on. `known`:
 * candidates known to be in every independent support (kept unchecked).
 */
export function independentSupport(numVars: number, clauses: readonly (readonly number[])[], candidates: readonly number[], options: { deadline?: Deadline; perCheckMs?: number; featureVars?: number; known?: ReadonlySet<number> } = {}): number[] {
  const deadline = options.deadline ?? Deadline.none();
  const solver = new SatSolver(2 * numVars);
  const copy = (lit: number) => (lit > 0 ? lit + numVars : lit - numVars);
  for (const c of clauses) {
    solver.addClause(c);
    solver.addClause(c.map(copy));
  }
  const featureVars = options.featureVars ?? numVars;
  for (let v = featureVars + 1; v <= numVars; v++) {
    solver.setDecisionVar(v, false);
    solver.setDecisionVar(v + numVars, false);
  }
  // e_y: y = y' when assumed.
  const equal = new Map<number, number>();
  for (const y of candidates) {
    const e = solver.newVar();
    solver.setDecisionVar(e, false);
    solver.addClause([-e, -y, copy(y)]);
    solver.addClause([-e, y, -copy(y)]);
    equal.set(y, e);
  }
  const kept = new Set(candidates);
  for (const x of candidates) {
    if (deadline.expired()) break;
    if (options.known?.has(x)) continue;
    const assumptions: number[] = [];
    for (const y of kept) if (y !== x) assumptions.push(equal.get(y)!);
    assumptions.push(x, -copy(x));
    const check = Deadline.after(Math.min(options.perCheckMs ?? 100, deadline.remainingMs()));
    if (solver.solve(assumptions, check) === 'unsat') kept.delete(x);
  }
  return candidates.filter((v) => kept.has(v));
}
