// The pairwise greedy for large models (automotive2_4: 18 616 features, 693 million literal
// pairs), over the compact literals of pair-literals.ts (core, dead and equivalent features
// taken out). Coverage is two chunked bit tables (pair-rows.ts), covered and invalid, symmetric
// (pair p, q is in row p and row q), with a count of open pairs per row kept up to date, so that
// no configuration scans the whole table: a row with no open pair is never read or written
// again, and at the end only a few hundred rows are open.
//
// A configuration, in the manner of AETG: the literal with the most open pairs and its first
// open partner, then the compact features in decreasing order of open pairs, each given the
// value that covers the most open pairs with the literals fixed so far (one AND of bit rows).
// Values are taken by unit propagation only (a conflict drops the value); one SAT call at the
// end gives the configuration, free features following random phases leaning to "off". When
// that call fails, the latest choice among the failed assumptions is dropped and the call made
// again; a first pair that fails alone is invalid.

import type { ModelPatcher } from '../configure/model-patch.ts';
import type { Deadline } from '../deadline.ts';
import type { SatSolver } from '../sat/solver.ts';
import { compactDimacs, compactOf, type PairSpace } from './pair-literals.ts';
import { PairRows } from './pair-rows.ts';
import { popcount } from './tuple-bits.ts';

/** Odds that a free feature is tried selected first. */
const PHASE_ON = 0.2;
/** Calls after which a configuration keeps only its first pair. */
const MAX_RETRIES = 8;
/**
 * Configurations patched from one SAT model before the next SAT call: a SAT call assigns every
 * variable (about 20 ms on automotive2_4), a patch moves the model to the new choices by
 * propagation and a check of the clauses it changed (configure/model-patch.ts).
 */
const PATCHES_PER_MODEL = 16;
/**
 * Patching only once fewer than this share of the literals have open pairs (from the middle of
 * the run on, where a configuration adds a few pairs of the large groups), and only on models of
 * PATCH_FROM features or more, where a SAT call costs: free features copied from the base model
 * cover fewer pairs than fresh random phases (automotive01 on this path: 1 030 configurations
 * patched throughout, 1 021 from 25 % on, 986 from 5 %, 966 without). On automotive2_4 the SAT
 * call per configuration made the middle of the run the slow part (10 configurations a second).
 */
const PATCH_BELOW = 0.25;
const PATCH_FROM = 8_000;

export interface LargeState {
  solver: SatSolver;
  space: PairSpace;
  covered: PairRows;
  invalid: PairRows;
  /** Open pairs per compact literal. */
  open: Int32Array;
  /** A seeded rank per compact literal: how ties are broken. */
  tieRank: Int32Array;
  random: () => number;
  deadline: Deadline;
  /** Compact literals that some configuration has. */
  seen: Uint8Array;
  patcher?: ModelPatcher;
  /** The last SAT model (the patcher's base), and how many configurations were patched from it. */
  base: Int8Array | null;
  patched: number;
  /** Literals with open pairs, as of the last first pair. */
  openLiterals: number;
  /**
   * Per row, the words [lo, hi) outside which no pair is open: they only shrink, and late in the
   * run a row's open partners (the children of one group) sit in a few words of the 1 001.
   */
  lo: Int32Array;
  hi: Int32Array;
}

export function largeState(solver: SatSolver, space: PairSpace, random: () => number, deadline: Deadline, patcher?: ModelPatcher): LargeState {
  const L = 2 * space.m;
  const tieRank = new Int32Array(L);
  const perm = Array.from({ length: L }, (_, i) => i);
  for (let i = L - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [perm[i], perm[j]] = [perm[j]!, perm[i]!];
  }
  perm.forEach((p, rank) => (tieRank[p] = rank));
  const state: LargeState = { solver, space, covered: new PairRows(L), invalid: new PairRows(L), open: new Int32Array(L), tieRank, random, deadline, seen: new Uint8Array(L), patcher, base: null, patched: 0, openLiterals: L,
    lo: new Int32Array(L), hi: new Int32Array(L).fill(Math.ceil(L / 32)) };
  // Invalid up front: a literal with itself, and what propagation excludes.
  for (let p = 0; p < L; p++) {
    const row = state.invalid.rowWords(p);
    row.set(space.exclusions.readRow(p));
    row[p >>> 5]! |= 1 << (p & 31);
    let closed = 0;
    for (let w = 0; w < row.length; w++) closed += popcount(row[w]!);
    state.open[p] = L - closed;
  }
  return state;
}

/** Marks pair (p, q) invalid in both rows. */
export function markInvalid(state: LargeState, p: number, q: number): void {
  for (const [a, b] of [[p, q], [q, p]] as const) {
    if (state.invalid.has(a, b) || state.covered.has(a, b)) continue;
    state.invalid.set(a, b);
    state.open[a]!--;
  }
}

/** Marks every pair of the configuration covered; returns how many were newly covered. */
export function markCovered(state: LargeState, model: Int8Array): number {
  const { space, open } = state;
  const W = state.covered.W;
  const on: number[] = [];
  const mask = new Uint32Array(W);
  for (let c = 0; c < space.m; c++) {
    const p = 2 * c + (model[space.rep[c]!] === 1 ? 0 : 1);
    on.push(p);
    state.seen[p] = 1;
    mask[p >>> 5]! |= 1 << (p & 31);
  }
  let newly = 0;
  const last = lastWordMask(2 * space.m);
  for (const p of on) {
    if (open[p] === 0) continue; // nothing open in the row: nothing to record
    const row = state.covered.rowWords(p);
    const inv = state.invalid.readRow(p);
    let added = 0;
    let lo = state.lo[p]!;
    let hi = state.hi[p]!;
    for (let w = lo; w < hi; w++) {
      const fresh = mask[w]! & ~(row[w]! | inv[w]!);
      if (fresh !== 0) {
        added += popcount(fresh);
        row[w]! |= fresh;
      }
    }
    open[p]! -= added;
    newly += added;
    const openAt = (w: number) => ~(row[w]! | inv[w]!) & (w === W - 1 ? last : ~0);
    while (lo < hi && openAt(lo) === 0) lo++;
    while (hi > lo && openAt(hi - 1) === 0) hi--;
    state.lo[p] = lo;
    state.hi[p] = hi;
  }
  return newly / 2;
}

/** The bits of the last word of a row that stand for literals. */
function lastWordMask(L: number): number {
  return L % 32 === 0 ? ~0 : (1 << (L % 32)) - 1;
}

export interface LargeBuilt {
  /** The configuration, or null when no pair is open. */
  model: Int8Array | null;
  timedOut: boolean;
}

/** One configuration (not yet marked covered). */
export function buildLargeConfiguration(state: LargeState): LargeBuilt {
  const { solver, space, deadline } = state;
  for (;;) {
    if (deadline.expired()) return { model: null, timedOut: true };
    const first = firstPair(state);
    if (first === null) return { model: null, timedOut: false };
    const [a, b] = first;
    const assumptions = [compactDimacs(space, a), compactDimacs(space, b)];
    const implied = solver.impliedLiterals(assumptions);
    if (implied === null) {
      markInvalid(state, a, b); // a propagation conflict: no configuration has both
      continue;
    }
    chooseValues(state, assumptions, implied);
    const patched = patchBase(state, assumptions);
    if (patched !== null) return { model: patched, timedOut: false };
    for (let v = 1; v <= space.n; v++) solver.setPhase(v, state.random() < PHASE_ON);
    const status = solveDropping(state, assumptions);
    if (status === 'timeout') return { model: null, timedOut: true };
    if (status === 'unsat') {
      markInvalid(state, a, b);
      continue;
    }
    const model = solver.model();
    if (state.patcher) {
      state.base = model.slice();
      state.patcher.setBase(state.base);
      state.patched = 0;
    }
    return { model, timedOut: false };
  }
}

/** The base model moved to the assumptions, or null when it is time for a SAT call or the patch fails. */
function patchBase(state: LargeState, assumptions: number[]): Int8Array | null {
  if (!state.patcher || state.base === null || state.patched >= PATCHES_PER_MODEL) return null;
  if (state.space.n < PATCH_FROM || state.openLiterals >= PATCH_BELOW * state.open.length) return null;
  const changed = state.patcher.patch(state.solver, assumptions);
  if (changed === null) return null;
  state.patched++;
  const model = state.base.slice();
  for (const v of changed) model[v] = -model[v]!;
  return model;
}

/** The literal with the most open pairs, and its first open partner; null when nothing is open. */
function firstPair(state: LargeState): [number, number] | null {
  const { open, tieRank } = state;
  let a = -1;
  countOpenLiterals(state);
  for (let p = 0; p < open.length; p++) {
    if (open[p]! > 0 && (a < 0 || open[p]! > open[a]! || (open[p] === open[a] && tieRank[p]! < tieRank[a]!))) a = p;
  }
  if (a < 0) return null;
  const cov = state.covered.readRow(a);
  const inv = state.invalid.readRow(a);
  for (let w = state.lo[a]!; w < state.hi[a]!; w++) {
    const free = ~(cov[w]! | inv[w]!);
    if (free === 0) continue;
    const b = w * 32 + (31 - Math.clz32(free & -free));
    if (b < open.length) return a < b ? [a, b] : [b, a];
  }
  throw new Error(`row ${a} counts open pairs but has none`);
}

function countOpenLiterals(state: LargeState): void {
  let count = 0;
  for (let p = 0; p < state.open.length; p++) if (state.open[p]! > 0) count++;
  state.openLiterals = count;
}

/** Greedy values for the compact features with open pairs, taken by propagation. */
function chooseValues(state: LargeState, assumptions: number[], implied: number[]): void {
  const { solver, space, open, covered, invalid } = state;
  const W = covered.W;
  const fixed = new Uint32Array(W);
  const fix = (literals: number[]) => {
    for (const x of literals) {
      const q = compactOf(space, x);
      if (q >= 0) fixed[q >>> 5]! |= 1 << (q & 31);
    }
  };
  fix(implied);
  const gain = (p: number): number => {
    if (open[p] === 0) return 0;
    const cov = covered.readRow(p);
    const inv = invalid.readRow(p);
    let total = 0;
    const hi = state.hi[p]!;
    for (let w = state.lo[p]!; w < hi; w++) {
      const f = fixed[w]!;
      if (f !== 0) total += popcount(f & ~(cov[w]! | inv[w]!));
    }
    return total;
  };
  const score = (c: number) => Math.max(open[2 * c]!, open[2 * c + 1]!);
  const order: number[] = [];
  for (let c = 0; c < space.m; c++) if (score(c) > 0) order.push(c);
  order.sort((x, y) => score(y) - score(x) || state.tieRank[2 * x]! - state.tieRank[2 * y]!);
  for (const c of order) {
    const r = space.rep[c]!;
    if (solver.currentValue(r) !== 0) continue;
    const gPos = gain(2 * c);
    const gNeg = gain(2 * c + 1);
    if (gPos === 0 && gNeg === 0) continue;
    const first = gPos > gNeg ? r : gNeg > gPos ? -r : state.random() < PHASE_ON ? r : -r;
    for (const choice of [first, -first]) {
      if (choice !== first && gain(compactOf(space, choice)) === 0) break;
      assumptions.push(choice);
      const added = solver.impliedLiterals(assumptions, assumptions.length - 1);
      if (added !== null) {
        fix(added);
        break;
      }
      assumptions.pop();
      solver.impliedLiterals(assumptions); // the conflict cleared the levels: propagate again
    }
  }
}

/** Solves under the assumptions, dropping the latest failed choice (never the first pair) until it holds. */
function solveDropping(state: LargeState, assumptions: number[]): 'sat' | 'unsat' | 'timeout' {
  const { solver, deadline } = state;
  for (let tries = 0; ; tries++) {
    const status = solver.solve(tries < MAX_RETRIES ? assumptions : assumptions.slice(0, 2), deadline);
    if (status !== 'unsat') return status;
    if (tries >= MAX_RETRIES) return 'unsat';
    const failed = new Set(solver.failedAssumptions());
    let latest = -1;
    for (let i = assumptions.length - 1; i >= 2; i--) {
      if (failed.has(assumptions[i]!)) {
        latest = i;
        break;
      }
    }
    if (latest < 0) return 'unsat'; // the first pair alone fails
    assumptions.splice(latest, 1);
  }
}
