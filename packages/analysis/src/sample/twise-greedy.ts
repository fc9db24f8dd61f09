// One configuration of the t-wise greedy (see twise.ts): the open interactions, in the
// prefixes' seeded order, each added to the configuration when it still fits.

import type { Deadline } from '../deadline.ts';
import type { SatSolver } from '../sat/solver.ts';
import { litDimacs, type TupleBits } from './tuple-bits.ts';

export interface GreedyState {
  t: number;
  solver: SatSolver;
  n: number;
  covered: TupleBits;
  invalid: TupleBits;
  prefixes: Int32Array[];
  /** A seeded rank per literal: how ties are broken (twise-pairs.ts). */
  tieRank: Int32Array;
  /** Seeded random numbers in [0, 1). */
  random: () => number;
  /** Per row: 1 once no open interaction is left in it. */
  rowDone: Uint8Array;
  deadline: Deadline;
}

/**
 * SAT calls a configuration may spend on interactions its witness does not have, and failed
 * ones in a row after which it stops: the last interactions a configuration could take cost a
 * call each and add little, the next configuration takes them for free.
 */
const MAX_CALLS = 400;
const MAX_FAILS_IN_ROW = 40;

export interface Built {
  /** The configuration (a model of every variable), or null when no open interaction was left. */
  model: Int8Array | null;
  timedOut: boolean;
  /** The literals assumed to build it. */
  assumptions?: number[];
}

/** `take`: stop once that many interactions were taken (the pairwise builder starts from one). */
export function buildConfiguration(state: GreedyState, take = Infinity): Built {
  const { solver, covered, invalid, deadline } = state;
  const W = covered.W;
  const L = covered.L;
  const assumptions: number[] = [];
  let witness: Int8Array | null = null;
  let calls = 0;
  let failsInRow = 0;
  let timedOut = false;
  let taken = 0;
  solver.impliedLiterals(assumptions);
  const lits: number[] = [];

  // Adds the literals of the interaction when they fit; false when the search must stop.
  const offer = (r: number, c: number): boolean => {
    let allTrue = true;
    for (const l of lits) {
      const value = solver.currentValue(l);
      if (value < 0) return true; // contradicts what the assumptions imply
      if (value === 0) allTrue = false;
    }
    if (allTrue && witness !== null) return true; // the witness has it already
    if (witness !== null && lits.every((l) => witness![Math.abs(l)] === (l > 0 ? 1 : -1))) {
      for (const l of lits) if (solver.currentValue(l) === 0) assumptions.push(l);
      solver.impliedLiterals(assumptions);
      return ++taken < take;
    }
    if (assumptions.length > 0 && (calls >= MAX_CALLS || failsInRow >= MAX_FAILS_IN_ROW)) return true;
    const status = solver.solve([...assumptions, ...lits], deadline);
    if (status === 'timeout') {
      timedOut = true;
      return false;
    }
    if (assumptions.length > 0) calls++;
    if (status === 'unsat') {
      if (assumptions.length === 0) {
        // It fails alone: no configuration has it. Pairs are kept in both rows (twise-pairs.ts).
        invalid.set(r, c);
        if (state.t === 2) invalid.set(c, r);
      } else failsInRow++;
      return true;
    }
    witness = solver.model();
    failsInRow = 0;
    for (const l of lits) if (!assumptions.includes(l)) assumptions.push(l);
    solver.impliedLiterals(assumptions);
    return ++taken < take;
  };

  scan: for (const p of state.prefixes) {
    const r = covered.row(p);
    if (state.rowDone[r]) continue;
    if (deadline.expired()) {
      timedOut = true;
      break;
    }
    const after = p.length > 0 ? p[p.length - 1]! : -1;
    let openInRow = false;
    for (let w = (after + 1) >>> 5; w < W; w++) {
      let open = ~(covered.words[r * W + w]! | invalid.words[r * W + w]!);
      if (w === (after + 1) >>> 5) open &= ~0 << ((after + 1) & 31);
      while (open !== 0) {
        const bit = 31 - Math.clz32(open & -open);
        open &= open - 1;
        const c = w * 32 + bit;
        if (c >= L) break;
        openInRow = true;
        lits.length = 0;
        for (const a of p) lits.push(litDimacs(a));
        lits.push(litDimacs(c));
        if (!offer(r, c)) break scan;
        if (taken >= take) break scan;
      }
    }
    if (!openInRow) state.rowDone[r] = 1;
  }
  return { model: witness, timedOut, assumptions };
}
