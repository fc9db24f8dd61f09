// Explanations: a minimal set of cross-tree constraints that, with the tree, causes an anomaly.
// Each constraint's clauses carry a selector variable (clause | -s); assuming every selector
// switches all constraints on. The failed assumptions of an unsatisfiable call are a first,
// usually small, core; deletion then drops each constraint whose removal keeps the anomaly
// (a deletion-based MUS over the selectors), so removing any one of the rest removes it.
//
// Most deletion steps find that the constraint is needed, which takes a model of the tree, the
// anomaly and the rest of the core. A SAT call assigns every variable (linux-2.6.33.3: 13 000
// with the selectors, 3 to 10 ms each, nine tenths of the explanations' time), yet such a model
// is usually a few flips away from a model of the tree alone: so it is patched from one
// (configure/model-patch.ts), and only when the patch fails is there a SAT call. Either way the
// answer is a model checked against every clause, never a guess.

import type { Deadline } from '../deadline.ts';
import type { EncodedConstraint, EncodedModel } from '../encode.ts';
import { ModelPatcher } from '../configure/model-patch.ts';
import { SatSolver } from '../sat/solver.ts';

export class Explainer {
  private readonly solver: SatSolver;
  private readonly selectors: number[];
  private readonly constraintOf = new Map<number, EncodedConstraint>();
  private readonly patcher: ModelPatcher;
  /** A model with every selector off, which patches start from; undefined until first needed, null when the tree has none. */
  private base: Int8Array | null | undefined;

  constructor(model: EncodedModel) {
    this.solver = new SatSolver(model.numVars);
    const clauses: number[][] = [...model.tree, ...model.definitions];
    for (const c of clauses) this.solver.addClause(c);
    this.selectors = model.constraints.map((constraint) => {
      const s = this.solver.newVar();
      for (const c of constraint.clauses) {
        const guarded = [...c, -s];
        this.solver.addClause(guarded);
        clauses.push(guarded);
      }
      this.constraintOf.set(s, constraint);
      return s;
    });
    this.patcher = new ModelPatcher(this.solver.variables, clauses);
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
      if (this.patched([...assumptions, ...trial], deadline)) {
        i++;
        continue;
      }
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
      .sort((a, b) => a.line - b.line || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  }

  /** True when a model of the assumptions was found by patching the base model (false: not found, which proves nothing). */
  private patched(assumptions: number[], deadline: Deadline): boolean {
    if (this.base === undefined) {
      const status = this.solver.solve(this.selectors.map((s) => -s), deadline);
      if (status === 'timeout') return false;
      this.base = status === 'sat' ? this.solver.model() : null;
      if (this.base) this.patcher.setBase(this.base);
    }
    return this.base !== null && this.patcher.patch(this.solver, assumptions) !== null;
  }

  private selectorsIn(lits: number[]): number[] {
    const set = new Set(lits);
    return this.selectors.filter((s) => set.has(s));
  }
}
