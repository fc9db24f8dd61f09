// Helpers of the pairwise improvement's tests: every configuration of a small model, which of a
// sample's configurations are not models of the formula, and the pairs a sample lost.
import type { SatSolver } from '../sat/solver.ts';

/** Every configuration of a model of at most ~16 features, as models (index v: 1 or -1). */
export function everyConfiguration(solver: SatSolver, n: number): Int8Array[] {
  const all: Int8Array[] = [];
  for (let mask = 0; mask < 1 << n; mask++) {
    const assumptions = Array.from({ length: n }, (_, i) => ((mask >>> i) & 1 ? i + 1 : -(i + 1)));
    if (solver.solve(assumptions) === 'sat') all.push(solver.model());
  }
  return all;
}

/** Indices of the configurations that are not models of the formula. */
export function validity(solver: SatSolver, n: number, models: Int8Array[]): number[] {
  const bad: number[] = [];
  models.forEach((m, k) => {
    if (solver.solve(Array.from({ length: n }, (_, i) => (m[i + 1] === 1 ? i + 1 : -(i + 1)))) !== 'sat') bad.push(k);
  });
  return bad;
}

function pairsOf(models: Int8Array[], n: number): Set<string> {
  const pairs = new Set<string>();
  for (const m of models) for (let v = 1; v <= n; v++) for (let w = v + 1; w <= n; w++) pairs.add(`${v * m[v]!},${w * m[w]!}`);
  return pairs;
}

/** The pairs (as "v,w" of signed features) `before` covers and `after` does not. */
export function missingPairs(before: Int8Array[], after: Int8Array[], n: number): string[] {
  const kept = pairsOf(after, n);
  return [...pairsOf(before, n)].filter((p) => !kept.has(p));
}
