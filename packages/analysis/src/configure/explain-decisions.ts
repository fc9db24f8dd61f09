// Explanations in terms of decisions and constraint lines. A solver of its own holds the tree
// and the definitions as they are and each constraint's clauses with a selector (clause | -s),
// so that a constraint is on when its selector is assumed; decisions are assumed as literals.
// Minimal subsets come from the failed assumptions, then deletion (minimal-core.ts).

import type { Deadline } from '../deadline.ts';
import type { EncodedModel } from '../encode.ts';
import { SatSolver } from '../sat/solver.ts';
import { minimalCore } from './minimal-core.ts';

export class DecisionExplainer {
  private readonly solver: SatSolver;
  private readonly selectors: number[] = [];
  private readonly constraintOf = new Map<number, { label: string; line: number }>();
  private readonly names: string[];

  constructor(enc: EncodedModel) {
    this.names = enc.names;
    this.solver = new SatSolver(enc.numVars);
    for (const c of enc.tree) this.solver.addClause(c);
    for (const c of enc.definitions) this.solver.addClause(c);
    for (let v = enc.featureVars + 1; v <= enc.numVars; v++) this.solver.setDecisionVar(v, false);
    for (const constraint of enc.constraints) {
      const s = this.solver.newVar();
      for (const c of constraint.clauses) this.solver.addClause([...c, -s]);
      this.selectors.push(s);
      this.constraintOf.set(s, constraint);
    }
  }

  /**
   * A minimal set of the decisions and constraint lines that with the tree implies `implied`
   * (decisions first, in their order, then constraints by line); [] when the tree alone does.
   */
  explainImplied(implied: number, decisions: number[], deadline: Deadline): string[] {
    // Constraints are tried for removal first, so that a decision the user made is kept over a line.
    const core = minimalCore(this.solver, [-implied], [...this.selectors, ...decisions], deadline);
    if (core === undefined) throw new Error('explainImplied: the literal is not implied');
    return this.describe(core);
  }

  /** A minimal set of constraint lines that with the tree makes the decisions inconsistent. */
  constraintsAgainst(decisions: number[], deadline: Deadline): string[] {
    const core = minimalCore(this.solver, decisions, this.selectors, deadline);
    return core === undefined ? [] : this.describe(core);
  }

  private describe(core: number[]): string[] {
    const decisions = core.filter((l) => !this.constraintOf.has(l)).map((l) => decisionText(this.names, l));
    const constraints = core
      .filter((l) => this.constraintOf.has(l))
      .map((s) => this.constraintOf.get(s)!)
      .sort((a, b) => a.line - b.line || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0))
      .map((c) => c.label);
    return [...decisions, ...constraints];
  }
}

/** `selected A` / `deselected A`, as decisions are named in answers. */
export function decisionText(names: string[], lit: number): string {
  return `${lit > 0 ? 'selected' : 'deselected'} ${names[Math.abs(lit) - 1]}`;
}
