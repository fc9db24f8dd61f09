// Atomic sets (extensions section 1): maximal sets of at least two features selected together
// in every configuration. Dead features are left out: they are reported as dead, and "together"
// says nothing of features that are never selected. The known models split the features into
// classes by their values; a class is then checked in one call, asking for a model in which
// its members differ (one member on, one off), and every model found splits all classes again.

import type { Deadline } from '../deadline.ts';
import type { SatSolver } from '../sat/solver.ts';

export function atomicSets(
  solver: SatSolver,
  vars: number[],
  backbone: Int8Array,
  models: Int8Array[],
  deadline: Deadline,
): number[][] | null {
  const live = vars.filter((v) => backbone[v]! >= 0);
  let seed = 0x2545f491;
  const random = () => {
    // xorshift32: a fixed seed keeps the analysis deterministic.
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 4294967296;
  };
  // Random phases for every feature: members of a class only vary where their ancestors are
  // selected, so models that select widely at random split classes widely.
  const randomPhases = () => {
    for (const v of live) solver.setPhase(v, random() < 0.5);
  };
  let classes: number[][] = [live];
  const split = (model: Int8Array): boolean => {
    const next: number[][] = [];
    let changed = false;
    for (const c of classes) {
      const on: number[] = [];
      const off: number[] = [];
      for (const v of c) (model[v]! > 0 ? on : off).push(v);
      if (on.length > 0 && off.length > 0) changed = true;
      if (on.length > 1) next.push(on);
      if (off.length > 1) next.push(off);
    }
    classes = next;
    return changed;
  };
  for (const m of models) split(m);
  // Cheap splits first: a few random models, until they stop splitting anything.
  for (let idle = 0, tries = 0; idle < 4 && tries < 64 && classes.length > 0; tries++) {
    randomPhases();
    const status = solver.solve([], deadline);
    if (status === 'timeout') return null;
    if (status === 'unsat') return [];
    idle = split(solver.model()) ? 0 : idle + 1;
  }
  const done: number[][] = [];
  while (classes.length > 0) {
    const c = classes.pop()!;
    if (c.length < 2) continue;
    // An activation literal guards "some member on" and "some member off"; it is switched off
    // for good afterwards, so the solver keeps only implied clauses.
    const a = solver.newVar();
    solver.setDecisionVar(a, false);
    solver.addClause([-a, ...c]);
    solver.addClause([-a, ...c.map((v) => -v)]);
    randomPhases();
    const status = solver.solve([a], deadline);
    const model = status === 'sat' ? solver.model() : undefined;
    solver.addClause([-a]);
    if (status === 'timeout') return null;
    if (!model) {
      done.push(c);
      continue;
    }
    classes.push(c);
    split(model);
  }
  return done;
}
