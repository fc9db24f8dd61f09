// One configuration of the pairwise greedy, by choosing values (in the manner of AETG): after a
// first open pair, the features are taken in decreasing order of open pairs, and each gets the
// value that covers the most open pairs with the literals already fixed in the configuration.
// A value the current model (the witness) has costs nothing; another costs a SAT call under the
// assumptions so far, and a refusal fixes the other value. The coverage rows are symmetric for
// pairs (row a holds partner b and row b holds a), so a literal's open pairs with the fixed
// literals are one AND of bit rows.

import { litDimacs, litIndex, popcount } from './tuple-bits.ts';
import type { Built, GreedyState } from './twise-greedy.ts';

/** SAT calls a configuration may spend to take a value its witness does not have. */
const MAX_CALLS = 300;
/** Odds that a free feature is tried selected first. */
const PHASE_ON = 0.2;

export function buildPairwiseConfiguration(state: GreedyState): Built {
  const { solver, covered, invalid, deadline, n } = state;
  const W = covered.W;
  const openPairs = new Int32Array(2 * n);
  // Dead literals have no row to speak of; core ones do (their pairs need a first configuration too).
  for (let a = 0; a < 2 * n; a++) openPairs[a] = solver.topValue(litDimacs(a)) >= 0 ? openCount(state, a) : 0;
  // Features the choices leave free follow the solver's phases: fresh random ones leaning to off
  // for each configuration, rather than the last configuration's values, spread the pairs of
  // free features over the configurations (automotive01: 1 002 configurations instead of 1 042;
  // odds of 0.1: 1 003, even odds 1 013, 0.8: 1 031).
  for (let v = 1; v <= n; v++) solver.setPhase(v, state.random() < PHASE_ON);
  const start = firstPair(state, openPairs);
  if (start.model === null || start.timedOut) return start;
  let witness = start.model;
  const assumptions = start.assumptions!;

  const fixed = new Uint32Array(W);
  const fix = (implied: number[] | null) => {
    for (const l of implied ?? []) if (Math.abs(l) <= n) fixed[litIndex(l) >>> 5]! |= 1 << (litIndex(l) & 31);
  };
  fix(solver.impliedLiterals(assumptions));
  for (let v = 1; v <= n; v++) if (solver.topValue(v) !== 0) fix([solver.topValue(v) * v]);

  const gain = (lit: number): number => {
    const base = lit * W;
    let total = 0;
    for (let w = 0; w < W; w++) total += popcount(fixed[w]! & ~(covered.words[base + w]! | invalid.words[base + w]!));
    return total;
  };
  const score = (v: number) => Math.max(openPairs[litIndex(v)]!, openPairs[litIndex(-v)]!);
  const order = Array.from({ length: n }, (_, i) => i + 1).filter((v) => score(v) > 0);
  order.sort((x, y) => score(y) - score(x) || state.tieRank[2 * x - 2]! - state.tieRank[2 * y - 2]!);

  let calls = 0;
  for (const v of order) {
    if (solver.currentValue(v) !== 0) continue;
    if (deadline.expired()) return { model: witness, timedOut: true };
    const gPos = gain(litIndex(v));
    const gNeg = gain(litIndex(-v));
    if (gPos === 0 && gNeg === 0) continue;
    const free = witness[v] === 1 ? v : -v;
    let choice = gPos > gNeg ? v : gNeg > gPos ? -v : free;
    if (choice !== free) {
      if (calls >= MAX_CALLS) choice = free;
      else {
        calls++;
        const status = solver.solve([...assumptions, choice], deadline);
        if (status === 'timeout') return { model: witness, timedOut: true };
        if (status === 'sat') witness = solver.model();
        else choice = free;
      }
    }
    assumptions.push(choice);
    fix(solver.impliedLiterals(assumptions, assumptions.length - 1));
  }
  return { model: witness, timedOut: false };
}

/**
 * The configuration's first pair: the literal with the most open pairs and its first partner
 * that fits (a pair that fails alone is marked invalid in both rows); no model when none is open.
 */
function firstPair(state: GreedyState, openPairs: Int32Array): Built {
  const { solver, covered, invalid, deadline } = state;
  const W = covered.W;
  const literals = Array.from(openPairs.keys()).filter((a) => openPairs[a]! > 0);
  literals.sort((x, y) => openPairs[y]! - openPairs[x]! || state.tieRank[x]! - state.tieRank[y]!);
  for (const a of literals) {
    for (let w = 0; w < W; w++) {
      let open = ~(covered.words[a * W + w]! | invalid.words[a * W + w]!);
      while (open !== 0) {
        const bit = 31 - Math.clz32(open & -open);
        open &= open - 1;
        const b = w * 32 + bit;
        if (b >= covered.L) break;
        if (b === a) continue;
        const pair = [litDimacs(a), litDimacs(b)];
        const status = solver.solve(pair, deadline);
        if (status === 'timeout') return { model: null, timedOut: true };
        if (status === 'sat') return { model: solver.model(), timedOut: false, assumptions: pair };
        invalid.set(a, b);
        invalid.set(b, a);
      }
    }
  }
  return { model: null, timedOut: false };
}

/** Open pairs of a literal (its row: neither covered nor invalid, valid partners only). */
function openCount(state: GreedyState, a: number): number {
  const { covered, invalid } = state;
  const W = covered.W;
  let total = 0;
  for (let w = 0; w < W; w++) total += popcount(~(covered.words[a * W + w]! | invalid.words[a * W + w]!));
  // Bits past the last literal are not pairs.
  return total - (W * 32 - covered.L);
}
