// A minimal unsatisfiable subset of assumption literals, by deletion. The failed assumptions of
// the first call are a core, usually small; each item of it is then dropped in turn, and the
// drop is kept when the rest is still unsatisfiable (its new core may drop more at once). What
// is left is minimal: without any one of its items the fixed literals and the rest have a model.

import { DeadlineExceeded, type Deadline } from '../deadline.ts';
import type { SatSolver } from '../sat/solver.ts';

/**
 * The items (assumption literals) of a minimal subset such that `fixed` + subset is
 * unsatisfiable on the solver's clauses, in the order of `items`; undefined when `fixed` + all
 * items is satisfiable. Throws DeadlineExceeded past the deadline.
 */
export function minimalCore(solver: SatSolver, fixed: number[], items: number[], deadline: Deadline): number[] | undefined {
  const first = solver.solve([...fixed, ...items], deadline);
  if (first === 'timeout') throw new DeadlineExceeded();
  if (first === 'sat') return undefined;
  let current = keepFailed(items, solver.failedAssumptions());
  let i = 0;
  while (i < current.length) {
    const trial = current.filter((_, k) => k !== i);
    const status = solver.solve([...fixed, ...trial], deadline);
    if (status === 'timeout') throw new DeadlineExceeded();
    if (status === 'unsat') {
      // Every item before i is needed in any subset of the current one, so the core keeps them.
      current = keepFailed(trial, solver.failedAssumptions());
      continue;
    }
    i++;
  }
  return current;
}

function keepFailed(items: number[], failed: number[]): number[] {
  const set = new Set(failed);
  return items.filter((x) => set.has(x));
}
