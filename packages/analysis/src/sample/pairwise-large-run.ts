// The pairwise sample of a large model (twise.ts hands over models whose full coverage tables
// would pass its limit): the compact literals (pair-literals.ts), the greedy (pairwise-large.ts)
// until no pair is open, every compact literal in some configuration, and the counts over the
// model's own literals. Configurations go straight into bit rows in the order of the sorted
// feature names (40 000 configurations of automotive2_4 are 93 MB so; as models, 745 MB).

import { ModelPatcher } from '../configure/model-patch.ts';
import type { Deadline } from '../deadline.ts';
import type { SatSolver } from '../sat/solver.ts';
import { BitRows } from './compact.ts';
import { compactDimacs, pairSpace, type PairSpace } from './pair-literals.ts';
import { buildLargeConfiguration, largeState, markCovered, type LargeState } from './pairwise-large.ts';
import { cliqueBound } from './pairwise-large-bound.ts';
import { popcount } from './tuple-bits.ts';

export interface LargeOptions {
  solver: SatSolver;
  /** The formula's clauses (for patching models, configure/model-patch.ts). */
  clauses: number[][];
  n: number;
  /** The backbone: index v 1 core, -1 dead, 0 variant. */
  value: Int8Array;
  /** Per variable 1..n: its position among the sorted feature names. */
  position: Int32Array;
  deadline: Deadline;
  random: () => number;
  /** Stop once configurations x features would pass this (the hub's limit on a sample). */
  maxCells?: number;
  /** Largest size of the three tables together, in bits: past it the model is not sampled. */
  maxBits: number;
  onProgress?: (progress: { covered: number; total: number; configurations: number }) => void;
  progressMs: number;
  lap: (name: string) => void;
  /** Keep the configurations as models too (for the improvement, on models small enough for it). */
  keepModels?: boolean;
}

export interface LargeResult {
  rows: BitRows;
  /** With keepModels: the configurations as models (index v: 1 or -1). */
  models?: Int8Array[];
  /** Why the model was not sampled at all, when it was not. */
  refused?: string;
  /** Why the sample stopped short, when it did. */
  stopped?: 'time' | 'cells';
  /** Valid pairs of the model's literals covered, and those neither covered nor proven invalid. */
  covered: number;
  open: number;
  lowerBound: { size: number; method: string };
  literals: { compactFeatures: number; fixed: number };
}

export function largePairwise(options: LargeOptions): LargeResult | null {
  const { solver, n, value, deadline, lap } = options;
  const space = pairSpace(solver, n, value, deadline);
  lap('pair_literals');
  if (space === null) return null;
  const bits = 3 * space.exclusions.bits;
  if (bits > options.maxBits) {
    const refused = `not sampled: pairwise coverage of ${space.m} classes of variant features needs ${Math.round(bits / 8 / 2 ** 20)} MB of bits, more than allowed`;
    return { rows: new BitRows(n, 1), refused, covered: 0, open: 0, lowerBound: { size: 0, method: 'none: not sampled' }, literals: { compactFeatures: space.m, fixed: space.fixed } };
  }
  const state = largeState(solver, space, options.random, deadline, new ModelPatcher(solver.variables, options.clauses));
  lap('setup');
  const rows = new BitRows(n, 1024);
  let stopped: LargeResult['stopped'];
  let reported = performance.now();
  const models: Int8Array[] | undefined = options.keepModels ? [] : undefined;
  const add = (model: Int8Array) => {
    markCovered(state, model);
    models?.push(model);
    const positions: number[] = [];
    for (let v = 1; v <= n; v++) if (model[v] === 1) positions.push(options.position[v]!);
    rows.addPositions(positions);
  };
  for (;;) {
    if (options.maxCells !== undefined && (rows.count + 1) * n > options.maxCells) {
      stopped = 'cells';
      break;
    }
    const built = buildLargeConfiguration(state);
    if (built.timedOut) {
      stopped = 'time';
      break;
    }
    if (built.model === null) break;
    add(built.model);
    if (options.onProgress && performance.now() - reported >= options.progressMs) {
      const { covered, open } = pairCounts(state, rows.count > 0);
      options.onProgress({ covered, total: covered + open, configurations: rows.count });
      reported = performance.now();
    }
  }
  lap('greedy');
  if (stopped === undefined) {
    // Every compact literal in some configuration (only a model with one variant class lacks pairs to
    // bring them in), and a configuration at all when core and dead features pair among themselves.
    for (let p = 0; p < 2 * space.m && stopped === undefined; p++) {
      if (state.seen[p]) continue;
      const status = solver.solve([compactDimacs(space, p)], deadline);
      if (status === 'timeout') stopped = 'time';
      else if (status === 'sat') add(solver.model());
    }
    if (stopped === undefined && rows.count === 0 && n >= 2) {
      const status = solver.solve([], deadline);
      if (status === 'timeout') stopped = 'time';
      else if (status === 'sat') add(solver.model());
    }
  }
  const { covered, open } = pairCounts(state, rows.count > 0);
  const lowerBound = cliqueBound(space.exclusions, state.covered, space.size);
  // Core and dead features pair among themselves and with every variant literal: one configuration at least.
  if (lowerBound.size === 0 && covered > 0) Object.assign(lowerBound, { size: 1, method: 'a valid interaction needs a configuration' });
  lap('lower_bound');
  return { rows, models, stopped, covered, open, lowerBound, literals: { compactFeatures: space.m, fixed: space.fixed } };
}

/**
 * Pairs of the model's own literals, over distinct features, covered and open. A compact pair
 * (p, q) stands for size(p) x size(q) of them; two features of one class pair validly in 2 ways
 * (both as the class, both against it); a core or dead feature has one valid literal, paired
 * with every valid literal of another feature. These are covered once the literals are in some
 * configuration.
 */
export function pairCounts(state: LargeState, anyConfiguration: boolean): { covered: number; open: number } {
  const { space, covered, invalid } = state;
  const L = 2 * space.m;
  const size = (p: number) => space.size[p >> 1]!;
  const big: number[] = [];
  for (let p = 0; p < L; p++) if (size(p) > 1) big.push(p);
  let cov = 0;
  let open = 0;
  for (let p = 0; p < L; p++) {
    const c = covered.readRow(p);
    const inv = invalid.readRow(p);
    let nc = countAbove(c, p, L);
    let no = L - 1 - p - nc - countAbove(inv, p, L);
    for (const q of big) {
      if (q <= p) continue;
      const bit = 1 << (q & 31);
      if (c[q >>> 5]! & bit) nc += size(q) - 1;
      else if (!(inv[q >>> 5]! & bit)) no += size(q) - 1;
    }
    cov += size(p) * nc;
    open += size(p) * no;
  }
  const F = space.fixed;
  let variantLiteralsSeen = 0;
  for (let p = 0; p < L; p++) {
    if (!state.seen[p]) continue;
    variantLiteralsSeen += size(p);
    // Two features of one class, both with this literal of it.
    cov += (size(p) * (size(p) - 1)) / 2;
  }
  cov += F * variantLiteralsSeen + (anyConfiguration ? (F * (F - 1)) / 2 : 0);
  if (!anyConfiguration) open += (F * (F - 1)) / 2;
  for (let p = 0; p < L; p++) if (!state.seen[p]) open += F * size(p) + (size(p) * (size(p) - 1)) / 2;
  return { covered: cov, open };
}

/** Bits of the row above `after` and below L. */
function countAbove(row: Uint32Array, after: number, L: number): number {
  let total = 0;
  for (let w = (after + 1) >>> 5; w < row.length; w++) {
    let x = row[w]!;
    if (w === (after + 1) >>> 5) x &= ~0 << ((after + 1) & 31);
    if (w === row.length - 1 && L % 32 !== 0) x &= (1 << (L % 32)) - 1;
    total += popcount(x);
  }
  return total;
}

export type { PairSpace };
