// t-wise sampling (t = 1, 2, 3), extensions section 6: valid configurations such that every valid
// interaction of t literals over t distinct features is in one of them.
//
// A greedy in the manner of YASA, over the SAT solver. Each configuration is built by going
// through the interactions not yet covered (in a seeded order) and adding each one's literals to
// the configuration's assumptions when they still fit: free when the current model (the witness)
// already has them, else by a SAT call under the assumptions and the new literals; unit
// propagation of the assumptions rules out, without a call, what contradicts them. The witness
// at the end is the configuration, and every interaction it contains is covered. An interaction
// that fails alone is invalid. Coverage is kept as bits (tuple-bits.ts); literals excluded by
// propagation and dead literals are marked invalid up front, so they cost no call.
//
// Memory is (2 * features)^t bits per table (two tables and the exclusions): a model past
// `maxBits` is not sampled, and the answer says so.

import type { UvlModel } from '../../../uvl/src/index.ts';
import { satEncoding } from '../analyze.ts';
import type { EncodedModel } from '../encode.ts';
import { Deadline } from '../deadline.ts';
import { solverBackbone } from '../ops/backbone.ts';
import { SatSolver } from '../sat/solver.ts';
import { greedyIncompatibleBound } from './twise-bound.ts';
import { TupleBits, litDimacs, litIndex, literalMask } from './tuple-bits.ts';
import { buildConfiguration, type GreedyState } from './twise-greedy.ts';
import { buildPairwiseConfiguration } from './twise-pairs.ts';
import { MAX_LITERALS as IMPROVE_MAX_LITERALS } from './twise-improve.ts';
import { improveInPasses } from './twise-improve-run.ts';
import { keepNeeded } from './twise-reduce.ts';
import { BitRows } from './compact.ts';
import { largePairwise } from './pairwise-large-run.ts';

export interface TwiseOptions {
  t: 1 | 2 | 3;
  seed?: number;
  deadline?: Deadline;
  text?: string;
  /** Largest coverage table, in bits (default 2^31: 256 MB). */
  maxBits?: number;
  /** Pairwise: remove configurations whose pairs can move into others (twise-improve.ts; default true). */
  improve?: boolean;
  /**
   * Pairwise: models with at least this many features take the path for large models
   * (pairwise-large.ts: compact literals, chunked tables, no improvement; default LARGE_FROM).
   */
  largeFrom?: number;
  /** Stop once configurations x features would pass this many cells (the hub's limit on a sample). */
  maxCells?: number;
  /**
   * Large pairwise path: give the configurations as `packed` bit rows (over `features`) and leave
   * `configurations` empty (40 000 configurations of automotive2_4 as names would not fit memory).
   */
  packed?: boolean;
  /**
   * Called while the greedy builds configurations, at most every PROGRESS_MS: interactions
   * covered so far and the total known so far (covered plus those neither covered nor proven
   * invalid yet; it shrinks as invalid ones are found). For a page's progress bar.
   */
  onProgress?: (progress: { covered: number; total: number; configurations: number }) => void;
  /** Least milliseconds between two reports (default PROGRESS_MS; 0: after every configuration). */
  progressMs?: number;
}

/** Least time between two progress reports: counting the tuples is a pass over the table. */
const PROGRESS_MS = 500;

export interface TwiseResult {
  kind: 'twise';
  t: number;
  seed: number;
  size: number;
  /** Valid interactions; null when the sample is incomplete and some were never decided. */
  interactions: number | null;
  covered: number;
  complete: boolean;
  /** Interactions neither covered nor proven invalid (incomplete samples). */
  unresolved?: number;
  lower_bound: number;
  lower_bound_method: string;
  boolean_only: boolean;
  ignored_constraints: number;
  /** Configurations the greedy built, before those that covered nothing the others do not were dropped. */
  greedy_size?: number;
  /** Why the sample is incomplete, when it is. */
  note?: string;
  /** Which limit stopped it, when one did: the tables' memory (`maxBits`: not sampled) or `maxCells`. */
  limit?: 'memory' | 'cells';
  /** Each configuration: the sorted names of its selected features. */
  configurations: string[][];
  /** Every feature, sorted (the CSV header). */
  features: string[];
  /** With `packed` on the large pairwise path: the configurations as rows of bits over `features`. */
  packed?: BitRows;
  timings_ms: Record<string, number>;
}

const DEFAULT_MAX_BITS = 2 ** 31;
/** Pairwise from this many features on: the full tables (3 x (2n)^2 bits) and the improvement's counts stop fitting. */
export const LARGE_FROM = 11_586;
/** The large path's tables (two of (2m)^2 bits over m compact features, and the exclusions): 2 GB. */
const LARGE_MAX_BITS = 2 ** 34;

export function twiseSample(model: UvlModel, options: TwiseOptions): TwiseResult {
  const { t } = options;
  const seed = options.seed ?? 1;
  const deadline = options.deadline ?? Deadline.none();
  const timings: Record<string, number> = {};
  const lap = stopwatch(timings);
  const enc = satEncoding(model, options.text);
  const n = enc.featureVars;
  const L = 2 * n;
  const result = emptyResult(enc, t, seed, timings);
  // Stopped before any interaction was looked at: no bound is known (0 holds, and says nothing).
  const incomplete = (note: string): TwiseResult => ({ ...result, interactions: null, complete: false, lower_bound_method: 'none: not sampled', note });
  if (t === 2 && n >= (options.largeFrom ?? LARGE_FROM)) return largeSample(enc, result, options, lap, incomplete);
  const bits = TupleBits.bitsFor(t, L);
  if (2 * bits + TupleBits.bitsFor(2, L) > (options.maxBits ?? DEFAULT_MAX_BITS)) {
    return { ...incomplete(`not sampled: ${t}-wise coverage of ${n} features needs ${Math.round((2 * bits) / 8 / 2 ** 20)} MB of bits, more than allowed`), limit: 'memory' };
  }

  const solver = satSolver(enc);
  const vars = Array.from({ length: n }, (_, i) => i + 1);
  const backbone = solverBackbone(solver, vars, deadline);
  lap('backbone');
  if (backbone === null) return incomplete('the time ran out before the core and dead features were known');
  if (!backbone.satisfiable) return result; // no configuration, no valid interaction

  const { state, valid, exclusions } = greedySetup(solver, t, n, backbone.value, seed, deadline, lap);
  const { models: built, timedOut } = greedy(state, options.onProgress, options.progressMs ?? PROGRESS_MS);
  lap('greedy');
  result.greedy_size = built.length;
  let models = keepNeeded(built, n, t).map((i) => built[i]!);
  lap('reduce');
  if (t === 2 && !timedOut && (options.improve ?? true)) {
    const { covered } = countTuples(state);
    const onSize = options.onProgress && ((size: number) => options.onProgress!({ covered, total: covered, configurations: size }));
    models = improveInPasses({ solver, n, models, deadline, random: seededRandom(seed ^ 0x165667b1), onSize });
    lap('improve');
  }

  result.configurations = models.map((m) => vars.filter((v) => m[v] === 1).map((v) => enc.names[v - 1]!).sort(byName));
  result.size = models.length;
  recordCoverage(result, t, state, timedOut, exclusions, valid);
  lap('lower_bound');
  return result;
}

/** A function that records, under a name, the milliseconds since it was last called (or made). */
function stopwatch(timings: Record<string, number>): (name: string) => void {
  let mark = performance.now();
  return (name: string) => {
    const now = performance.now();
    timings[name] = Math.round(now - mark);
    mark = now;
  };
}

/** The result of a sample without configurations: what holds before any is built. */
function emptyResult(enc: EncodedModel, t: number, seed: number, timings: Record<string, number>): TwiseResult {
  return {
    kind: 'twise',
    t,
    seed,
    size: 0,
    interactions: 0,
    covered: 0,
    complete: true,
    lower_bound: 0,
    lower_bound_method: 'no valid interaction',
    boolean_only: enc.ignored === 0,
    ignored_constraints: enc.ignored,
    configurations: [],
    features: [...enc.names].sort(byName),
    timings_ms: timings,
  };
}

/**
 * The greedy's state for a satisfiable model whose core and dead features `backbone` gives: the
 * valid literals, the exclusions by propagation, the seeded orders, invalid tuples marked.
 */
function greedySetup(solver: SatSolver, t: 1 | 2 | 3, n: number, backbone: Int8Array, seed: number, deadline: Deadline, lap: (name: string) => void): { state: GreedyState; valid: Uint8Array; exclusions: TupleBits } {
  const L = 2 * n;
  // valid[a]: literal a is in some configuration (not the negation of a core or dead feature).
  const valid = new Uint8Array(L);
  for (let a = 0; a < L; a++) valid[a] = backbone[(a >> 1) + 1] !== (a & 1 ? 1 : -1) ? 1 : 0;
  const exclusions = exclusionRows(solver, n, valid);
  lap('exclusions');

  const state: GreedyState = {
    t,
    solver,
    n,
    covered: new TupleBits(t, L),
    invalid: new TupleBits(t, L),
    prefixes: seededShuffle(prefixesOf(t, L, valid, exclusions), seed),
    rowDone: new Uint8Array(0),
    tieRank: Int32Array.from(seededShuffle(Array.from({ length: L }, (_, a) => a), seed ^ 0x5bd1e995)),
    random: seededRandom(seed ^ 0x27d4eb2f),
    deadline,
  };
  state.rowDone = new Uint8Array(TupleBits.rows(t, L));
  markInvalidUpFront(state, exclusions, valid);
  lap('setup');
  return { state, valid, exclusions };
}

/** The interactions covered, whether the sample is complete, and the lower bound on its size. */
function recordCoverage(result: TwiseResult, t: 1 | 2 | 3, state: GreedyState, timedOut: boolean, exclusions: TupleBits, valid: Uint8Array): void {
  const { covered, open } = countTuples(state);
  result.covered = covered;
  if (timedOut || open > 0) {
    Object.assign(result, { complete: false, interactions: null, unresolved: open, note: 'the time ran out: the sample covers only part of the valid interactions' });
  } else result.interactions = covered;
  const bound = greedyIncompatibleBound(t, exclusions, state.covered, valid);
  if (covered > 0) Object.assign(result, { lower_bound: bound.size, lower_bound_method: bound.method });
}

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Pairwise over a large model (pairwise-large-run.ts), into the same result shape. */
function largeSample(enc: EncodedModel, result: TwiseResult, options: TwiseOptions, lap: (name: string) => void, incomplete: (note: string) => TwiseResult): TwiseResult {
  const deadline = options.deadline ?? Deadline.none();
  const n = enc.featureVars;
  const solver = satSolver(enc);
  const vars = Array.from({ length: n }, (_, i) => i + 1);
  const backbone = solverBackbone(solver, vars, deadline);
  lap('backbone');
  if (backbone === null) return incomplete('the time ran out before the core and dead features were known');
  if (!backbone.satisfiable) return result;
  const byPosition = vars.slice().sort((a, b) => byName(enc.names[a - 1]!, enc.names[b - 1]!));
  const position = new Int32Array(n + 1);
  byPosition.forEach((v, p) => (position[v] = p));
  const run = largePairwise({
    solver, clauses: [...enc.tree, ...enc.definitions, ...enc.constraints.flatMap((k) => k.clauses)], n, value: backbone.value, position, deadline, random: seededRandom(result.seed ^ 0x27d4eb2f), maxCells: options.maxCells,
    keepModels: (options.improve ?? true) && 2 * n <= IMPROVE_MAX_LITERALS,
    maxBits: options.maxBits ?? LARGE_MAX_BITS, onProgress: options.onProgress, progressMs: options.progressMs ?? PROGRESS_MS, lap,
  });
  if (run === null) return incomplete('the time ran out before the pairs to cover were known');
  if (run.refused) return { ...incomplete(run.refused), limit: 'memory' };
  let { rows } = run;
  result.greedy_size = rows.count;
  if (run.models && run.stopped === undefined && run.open === 0) {
    const onSize = options.onProgress && ((size: number) => options.onProgress!({ covered: run.covered, total: run.covered, configurations: size }));
    const improved = improveInPasses({ solver, n, models: run.models, deadline, random: seededRandom(result.seed ^ 0x165667b1), onSize });
    lap('improve');
    rows = new BitRows(n, improved.length);
    for (const m of improved) rows.addPositions(vars.filter((v) => m[v] === 1).map((v) => position[v]!));
  }
  result.size = rows.count;
  result.covered = run.covered;
  result.lower_bound_method = run.lowerBound.method;
  if (run.covered > 0) result.lower_bound = run.lowerBound.size;
  if (run.stopped !== undefined || run.open > 0) {
    const note = run.stopped === 'cells'
      ? `stopped at ${rows.count} configurations: ${rows.count + 1} configurations of ${n} features would pass the limit of ${options.maxCells} cells (configurations x features); the sample covers only part of the valid interactions`
      : 'the time ran out: the sample covers only part of the valid interactions';
    Object.assign(result, { complete: false, interactions: null, unresolved: run.open, note }, run.stopped === 'cells' ? { limit: 'cells' } : {});
  } else result.interactions = run.covered;
  if (options.packed) result.packed = rows;
  else {
    const data = rows.data;
    for (let r = 0; r < rows.count; r++) {
      const names: string[] = [];
      for (let p = 0; p < n; p++) if ((data[r * rows.rowBytes + (p >> 3)]! >> (p & 7)) & 1) names.push(result.features[p]!);
      result.configurations.push(names);
    }
  }
  return result;
}

export function satSolver(enc: EncodedModel): SatSolver {
  const solver = new SatSolver(enc.numVars);
  for (const c of [...enc.tree, ...enc.definitions]) solver.addClause(c);
  for (const k of enc.constraints) for (const c of k.clauses) solver.addClause(c);
  // Auxiliary variables follow from the features by propagation.
  for (let v = enc.featureVars + 1; v <= enc.numVars; v++) solver.setDecisionVar(v, false);
  return solver;
}

/** Configurations until nothing is open or the time runs out. */
function greedy(state: GreedyState, onProgress: TwiseOptions['onProgress'], progressMs: number): { models: Int8Array[]; timedOut: boolean } {
  const models: Int8Array[] = [];
  let reported = performance.now();
  for (;;) {
    const built = state.t === 2 ? buildPairwiseConfiguration(state) : buildConfiguration(state);
    if (built.model) {
      models.push(built.model);
      markCovered(state, built.model);
      if (onProgress && performance.now() - reported >= progressMs) {
        const { covered, open } = countTuples(state);
        onProgress({ covered, total: covered + open, configurations: models.length });
        reported = performance.now();
      }
    }
    if (built.timedOut) return { models, timedOut: true };
    if (!built.model) return { models, timedOut: false }; // nothing open was left
  }
}

/** Row a: the literals b with a => !b by unit propagation (made symmetric; a's own negation included). */
function exclusionRows(solver: SatSolver, n: number, valid: Uint8Array): TupleBits {
  const L = 2 * n;
  const rows = new TupleBits(2, L);
  for (let a = 0; a < L; a++) {
    if (!valid[a]) continue;
    const implied = solver.impliedLiterals([litDimacs(a)]) ?? [];
    for (const x of implied) {
      if (Math.abs(x) > n) continue;
      const b = litIndex(-x);
      rows.set(a, b);
      rows.set(b, a);
    }
  }
  solver.impliedLiterals([]);
  return rows;
}

/** Prefixes (t-1 increasing valid literals of distinct, compatible features), each a row of the tables. */
function prefixesOf(t: number, L: number, valid: Uint8Array, exclusions: TupleBits): Int32Array[] {
  const out: Int32Array[] = [];
  if (t === 1) return [new Int32Array(0)];
  for (let a = 0; a < L; a++) {
    if (!valid[a]) continue;
    if (t === 2) out.push(Int32Array.of(a));
    else for (let b = a + 1; b < L; b++) if (valid[b] && !exclusions.has(a, b)) out.push(Int32Array.of(a, b));
  }
  return out;
}

/** Invalid literals and, per row, what its prefix excludes: no call is ever made for them. */
function markInvalidUpFront(state: GreedyState, exclusions: TupleBits, valid: Uint8Array): void {
  const { invalid } = state;
  const W = invalid.W;
  const deadMask = new Uint32Array(W);
  for (let a = 0; a < invalid.L; a++) if (!valid[a]) deadMask[a >>> 5]! |= 1 << (a & 31);
  for (const p of state.prefixes) {
    const r = invalid.row(p);
    invalid.orRow(r, deadMask);
    for (const a of p) invalid.orRow(r, exclusions.words.subarray(a * W, (a + 1) * W));
  }
}

function markCovered(state: GreedyState, model: Int8Array): void {
  const on: number[] = [];
  for (let v = 1; v <= state.n; v++) on.push(litIndex(model[v] === 1 ? v : -v));
  const { covered, t } = state;
  const mask = literalMask(on, covered.W);
  if (t === 1) covered.orRow(0, mask);
  else if (t === 2) for (const a of on) covered.orRow(a, mask);
  else for (let i = 0; i < on.length; i++) for (let j = i + 1; j < on.length; j++) covered.orRow(on[i]! * covered.L + on[j]!, mask);
}

/** Covered interactions, and those neither covered nor known invalid. */
function countTuples(state: GreedyState): { covered: number; open: number } {
  let covered = 0;
  let open = 0;
  const L = state.covered.L;
  for (const p of state.prefixes) {
    const r = state.covered.row(p);
    const after = p.length > 0 ? p[p.length - 1]! : -1;
    const c = state.covered.countAbove(r, after);
    covered += c;
    const invalid = state.invalid.countAbove(r, after);
    // Bits past L in the last word are never set in either table.
    open += L - 1 - after - c - invalid;
  }
  return { covered, open };
}

/** Random numbers in [0, 1), reproducible from the seed (mulberry32). */
function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = Math.imul(s ^ (s >>> 15), 1 | s);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** A reproducible shuffle. */
function seededShuffle<T>(list: T[], seed: number): T[] {
  const random = seededRandom(seed);
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
}
