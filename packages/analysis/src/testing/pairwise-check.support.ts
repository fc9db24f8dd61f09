// An independent check of a pairwise sample, written apart from the sampler (it shares only the
// encoding and the SAT solver): every configuration is a model of the formula, and every pair of
// literals of two distinct features that no configuration has is proven impossible, by unit
// propagation when it conflicts, else by a SAT call. Exhaustive over all pairs for models where
// that is feasible; otherwise over random pairs (linux, automotive2_4), until a given number of
// uncovered ones was proven impossible.

import type { EncodedModel } from '../encode.ts';
import { SatSolver } from '../sat/solver.ts';

export interface PairwiseCheck {
  configurations: number;
  /** Configurations whose validity was checked. */
  validityChecked: number;
  /** Configurations that are not models of the formula (their indices, the first few). */
  invalid: number[];
  /** Pairs looked at, those covered, those uncovered and proven impossible. */
  pairsChecked: number;
  covered: number;
  provenImpossible: number;
  /** Uncovered pairs a configuration could have (DIMACS literals; the first few): the sample misses them. */
  missed: [number, number][];
  exhaustive: boolean;
}

export interface CheckOptions {
  /** Every pair (true), or random pairs until this many uncovered ones were proven impossible. */
  exhaustive: boolean;
  uncoveredToProve?: number;
  /** Random pairs drawn at most (random mode). */
  maxDraws?: number;
  seed?: number;
  /** Configurations whose validity is checked: all (default), or this many drawn at random. */
  validity?: number;
  /** Stop drawing random pairs at this time (Date.now() milliseconds). */
  until?: number;
}

/** `selected(c, v)`: whether configuration c selects feature v (1..featureVars). */
export function checkPairwise(enc: EncodedModel, count: number, selected: (c: number, v: number) => boolean, options: CheckOptions): PairwiseCheck {
  const n = enc.featureVars;
  const solver = new SatSolver(enc.numVars);
  for (const c of [...enc.tree, ...enc.definitions]) solver.addClause(c);
  for (const k of enc.constraints) for (const c of k.clauses) solver.addClause(c);
  const result: PairwiseCheck = { configurations: count, validityChecked: 0, invalid: [], pairsChecked: 0, covered: 0, provenImpossible: 0, missed: [], exhaustive: options.exhaustive };

  // Per literal (2(v-1) selected, 2(v-1)+1 deselected): the configurations that have it, as bits.
  const words = Math.max(1, Math.ceil(count / 32));
  const has = new Uint32Array(2 * n * words);
  const assumptions = new Array<number>(n);
  const checked = new Uint8Array(count).fill(options.validity === undefined ? 1 : 0);
  let s = (options.seed ?? 1) >>> 0;
  const random = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  for (let k = 0; k < (options.validity ?? 0); k++) checked[Math.floor(random() * count)] = 1;
  result.validityChecked = checked.reduce((a, b) => a + b, 0);
  for (let c = 0; c < count; c++) {
    for (let v = 1; v <= n; v++) {
      const on = selected(c, v);
      assumptions[v - 1] = on ? v : -v;
      has[(2 * (v - 1) + (on ? 0 : 1)) * words + (c >>> 5)]! |= 1 << (c & 31);
    }
    if (checked[c] && !isModel(solver, assumptions, enc.numVars) && result.invalid.length < 10) result.invalid.push(c);
  }
  solver.impliedLiterals([]);

  const coveredPair = (a: number, b: number): boolean => {
    for (let w = 0; w < words; w++) if ((has[a * words + w]! & has[b * words + w]!) !== 0) return true;
    return false;
  };
  const dimacs = (a: number) => (a & 1 ? -((a >> 1) + 1) : (a >> 1) + 1);
  const check = (a: number, b: number): void => {
    result.pairsChecked++;
    if (coveredPair(a, b)) {
      result.covered++;
      return;
    }
    const pair = [dimacs(a), dimacs(b)];
    if (solver.impliedLiterals(pair) === null || solver.solve(pair) === 'unsat') result.provenImpossible++;
    else if (result.missed.length < 10) result.missed.push([pair[0]!, pair[1]!]);
  };

  if (options.exhaustive) {
    for (let a = 0; a < 2 * n; a++) for (let b = (a | 1) + 1; b < 2 * n; b++) check(a, b);
    return result;
  }
  const want = options.uncoveredToProve ?? 20_000;
  const maxDraws = options.maxDraws ?? 100 * want;
  for (let draws = 0; draws < maxDraws && result.pairsChecked - result.covered < want; draws++) {
    if (options.until !== undefined && (draws & 255) === 0 && Date.now() > options.until) break;
    const a = Math.floor(random() * 2 * n);
    const b = Math.floor(random() * 2 * n);
    if (a >> 1 === b >> 1) continue;
    check(Math.min(a, b), Math.max(a, b));
  }
  return result;
}

/** Whether the feature values extend to a model: propagation settles it when it assigns every variable. */
function isModel(solver: SatSolver, assumptions: number[], numVars: number): boolean {
  const implied = solver.impliedLiterals(assumptions);
  if (implied === null) return false;
  const assigned = new Set(implied.map(Math.abs));
  let all = true;
  for (let v = 1; v <= numVars && all; v++) if (!assigned.has(v) && solver.topValue(v) === 0) all = false;
  if (all) return true;
  return solver.solve(assumptions) === 'sat';
}
