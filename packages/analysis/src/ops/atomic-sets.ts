// Atomic sets (extensions section 1): maximal sets of at least two features selected together
// in every configuration. Dead features are left out: they are reported as dead, and "together"
// says nothing of features that are never selected. The known models split the features into
// classes by their values; a class is then checked member by member against its first one, and
// each model found on the way splits every class again.

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
  let classes: number[][] = [live];
  const split = (model: Int8Array) => {
    const next: number[][] = [];
    for (const c of classes) {
      if (c.length < 2) continue;
      const on: number[] = [];
      const off: number[] = [];
      for (const v of c) (model[v]! > 0 ? on : off).push(v);
      if (on.length > 1) next.push(on);
      if (off.length > 1) next.push(off);
    }
    classes = next;
  };
  for (const m of models) split(m);
  // Check each class: its members must equal its first member in every model.
  const done: number[][] = [];
  while (classes.length > 0) {
    const c = classes.pop()!;
    if (c.length < 2) continue;
    const head = c[0]!;
    let broken: Int8Array | undefined;
    for (let k = 1; k < c.length && !broken; k++) {
      const v = c[k]!;
      for (const assumption of [[head, -v], [-head, v]]) {
        const status = solver.solve(assumption, deadline);
        if (status === 'timeout') return null;
        if (status === 'sat') {
          broken = solver.model();
          break;
        }
      }
    }
    if (!broken) {
      done.push(c);
      continue;
    }
    classes.push(c);
    split(broken);
  }
  return done;
}
