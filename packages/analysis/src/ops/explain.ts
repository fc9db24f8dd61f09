// Explanations: a minimal set of cross-tree constraints that, with the tree, causes an anomaly.
// Each constraint's clauses carry a selector variable (clause | -s); assuming every selector
// switches all constraints on. The failed assumptions of an unsatisfiable call are a first,
// usually small, core; deletion then drops each constraint whose removal keeps the anomaly
// (a deletion-based MUS over the selectors), so removing any one of the rest removes it.

import type { Deadline } from '../deadline.ts';
import type { EncodedConstraint, EncodedModel } from '../encode.ts';
import { SatSolver } from '../sat/solver.ts';

export class Explainer {
  private readonly solver: SatSolver;
  private readonly selectors: number[];
  private readonly constraintOf = new Map<number, EncodedConstraint>();

  constructor(model: EncodedModel) {
    this.solver = new SatSolver(model.numVars);
    for (const c of model.tree) this.solver.addClause(c);
    for (const c of model.definitions) this.solver.addClause(c);
    this.selectors = model.constraints.map((constraint) => {
      const s = this.solver.newVar();
      for (const c of constraint.clauses) this.solver.addClause([...c, -s]);
      this.constraintOf.set(s, constraint);
      return s;
    });
  }

  /**
   * The constraints (by line) that with the tree make the assumptions unsatisfiable;
   * [] when the tree alone does; undefined when they are satisfiable with every constraint;
   * null when the deadline passed.
   */
  explain(assumptions: number[], deadline: Deadline): EncodedConstraint[] | undefined | null {
    const status = this.solver.solve([...assumptions, ...this.selectors], deadline);
    if (status === 'timeout') return null;
    if (status === 'sat') return undefined;
    let current = this.selectorsIn(this.solver.failedAssumptions());
    let i = 0;
    while (i < current.length) {
      const trial = current.filter((_, k) => k !== i);
      const st = this.solver.solve([...assumptions, ...trial], deadline);
      if (st === 'timeout') return null;
      if (st === 'unsat') {
        // The new core may be smaller still; every constraint before i stays necessary.
        const failed = new Set(this.solver.failedAssumptions());
        current = trial.filter((s) => failed.has(s));
        i = Math.min(i, current.length);
        continue;
      }
      i++;
    }
    return current
      .map((s) => this.constraintOf.get(s)!)
      .sort((a, b) => a.line - b.line || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0))
  }

  private selectorsIn(lits: number[]): number[] {
    const set = new Set(lits);
    return this.selectors.filter((s) => set.has(s));
  }
}
