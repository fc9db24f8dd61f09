// The backbone: the literals true in every model. One SAT call finds a model; each literal of it
// is then a candidate, tested by solving under its negation. An unsatisfiable test proves the
// literal (it is added as a unit, which speeds up the rest); a satisfiable one gives a new model
// that removes every candidate it disagrees with (solution filtering), so most variant
// variables cost no call of their own.

import { Deadline } from '../deadline.ts';
import { SatSolver } from '../sat/solver.ts';

export interface Backbone {
  satisfiable: boolean;
  /** Per variable: 1 true in every model, -1 false in every model, 0 neither (or not asked). */
  value: Int8Array;
}

export function cnfBackbone(numVars: number, clauses: number[][], deadline: Deadline = Deadline.none()): Backbone | null {
  const solver = new SatSolver(numVars);
  for (const c of clauses) solver.addClause(c);
  const vars: number[] = [];
  for (let v = 1; v <= numVars; v++) vars.push(v);
  return solverBackbone(solver, vars, deadline);
}

/**
 * The backbone over `vars`, on a solver that holds the formula. Proven literals are added to
 * the solver as units. `onModel` sees every model found (other operations reuse them).
 */
export function solverBackbone(
  solver: SatSolver,
  vars: ArrayLike<number>,
  deadline: Deadline,
  onModel?: (model: Int8Array) => void,
): Backbone | null {
  const value = new Int8Array(solver.variables + 1);
  const first = solver.solve([], deadline);
  if (first === 'timeout') return null;
  if (first === 'unsat') return { satisfiable: false, value };
  let model = solver.model();
  onModel?.(model);
  // candidate[v]: the value v had in every model so far (0: dropped).
  const candidate = new Int8Array(solver.variables + 1);
  for (let i = 0; i < vars.length; i++) {
    const v = vars[i]!;
    candidate[v] = model[v]!;
  }
  for (let i = 0; i < vars.length; i++) {
    const v = vars[i]!;
    const c = candidate[v]!;
    if (c === 0) continue;
    const lit = c > 0 ? v : -v;
    if (solver.topValue(lit) === 1) {
      value[v] = c;
      continue;
    }
    // Looking for models that disagree with the candidates makes filtering remove more of them;
    // settled variables lean to false, which in a feature model leaves the most room (a
    // selected sibling would take the place of a candidate in its alternative group).
    for (let k = 0; k < vars.length; k++) {
      const u = vars[k]!;
      solver.setPhase(u, candidate[u]! < 0);
    }
    const status = solver.solve([-lit], deadline);
    if (status === 'timeout') return null;
    if (status === 'unsat') {
      value[v] = c;
      solver.addClause([lit]);
      continue;
    }
    model = solver.model();
    onModel?.(model);
    for (let k = i; k < vars.length; k++) {
      const u = vars[k]!;
      if (candidate[u] !== 0 && candidate[u] !== model[u]) candidate[u] = 0;
    }
  }
  return { satisfiable: true, value };
}
