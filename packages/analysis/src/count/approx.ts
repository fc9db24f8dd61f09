// Approximate counting with a guarantee (extensions section 6a): ApproxMC (Chakraborty, Meel and
// Vardi, CP 2013 and IJCAI 2016). Random XOR constraints over the counted variables cut the
// solutions into 2^m cells; the solutions of one cell are enumerated up to a threshold, and the
// smallest m whose cell holds fewer than the threshold gives the estimate (cell size) * 2^m.
// The median of t such estimates, each with its own hash, is within a factor (1 + ε) of the
// true count with probability at least 1 - δ.
//
// The XORs are not clauses: the CDCL solver propagates them natively by Gauss-Jordan elimination
// over GF(2) (sat/xor-gauss.ts), a fresh solver per cell with the first m rows. Solutions are told
// apart on the counted variables only (the blocking clauses name nothing else), so auxiliary
// variables never multiply the count: it is the number of distinct assignments of `support` that
// extend to a solution.

import { Deadline, DeadlineExceeded } from '../deadline.ts';
import { parity32 } from '../sat/gf2.ts';
import { bit, Cell } from './approx-cell.ts';

export interface ApproxOptions {
  epsilon?: number;
  delta?: number;
  seed?: number;
  deadline?: Deadline;
  /** Variables above this one are auxiliary, set by propagation from the ones below (never branched on). */
  featureVars?: number;
  /** False: each cell searched afresh, without the models of the hash's other cells (tests: the sizes are the same). */
  shareModels?: boolean;
  /** Told each cell counted: iteration (0 the unhashed check), rows m, solutions found (up to the threshold), milliseconds. */
  onCell?: (iteration: number, m: number, size: number | null, ms: number) => void;
}

export interface ApproxCount {
  /** The estimate (the median of the iterations' estimates). */
  value: bigint;
  log10: number;
  epsilon: number;
  delta: number;
  /** True when fewer solutions than the threshold exist: `value` is then the exact count. */
  exact: boolean;
  iterations: number;
  threshold: number;
  method: string;
}

export const DEFAULT_EPSILON = 0.8;
export const DEFAULT_DELTA = 0.2;

/**
 * Cell threshold of ApproxMC2: 1 + 9.84 (1 + ε/(1+ε)) (1 + 1/ε)^2. With it one iteration's
 * estimate is outside the (1 + ε) factor with probability at most 0.36 (ApproxMC2, Lemma 2).
 */
export function cellThreshold(epsilon: number): number {
  return 1 + Math.ceil(9.84 * (1 + epsilon / (1 + epsilon)) * (1 + 1 / epsilon) ** 2);
}

/**
 * The fewest (odd) iterations whose median fails with probability at most δ, each failing
 * independently with probability at most 0.36: the binomial tail P[Bin(t, 0.36) >= (t+1)/2],
 * computed exactly instead of the Chernoff bound 17 log2(3/δ) (67 iterations for δ = 0.2; 9 here).
 */
export function iterationCount(delta: number): number {
  const p = 0.36;
  for (let t = 1; ; t += 2) {
    let tail = 0;
    let term = (1 - p) ** t; // P[Bin = 0]
    for (let k = 0; k <= t; k++) {
      if (k >= (t + 1) / 2) tail += term;
      term = (term * (t - k) * p) / ((k + 1) * (1 - p));
    }
    if (tail <= delta) return t;
  }
}

/**
 * 32 random bits per call, a function of the seed alone: a counter mixed by multiplications
 * (splitmix32). Not xorshift: every bit a linear generator gives is a linear function of its 32
 * bits of state, so XOR rows drawn from one had rank 33 at most, and every cell past m = 33 was
 * the same as at 33 (BusyBox found 73 solutions with 580 rows over 580 variables).
 */
export function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** One iteration's hash: random rows (a bit per counted variable, and a parity bit), made as needed. */
export class Hash {
  readonly rows: Uint32Array[] = [];
  readonly words: number;

  /** `bits`: 32 random bits a call. */
  constructor(private readonly n: number, private readonly bits: () => number) {
    this.words = Math.ceil((n + 1) / 32);
  }

  /** Rows 1..m; bit n of a row is its parity, the bits above it are 0. */
  first(m: number): Uint32Array[] {
    const used = (this.n + 1) & 31;
    while (this.rows.length < m) {
      const row = new Uint32Array(this.words);
      for (let w = 0; w < this.words; w++) row[w] = this.bits();
      if (used !== 0) row[this.words - 1]! &= (1 << used) - 1;
      this.rows.push(row);
    }
    return this.rows.slice(0, m);
  }
}


/**
 * The rows in reduced row echelon form (Gauss-Jordan over GF(2)), pivots taken in column order:
 * each pivot is in one row only, so once the other variables of its row are set the row sets it,
 * and the rows never contradict one another. Null when the rows are inconsistent (0 = 1: the
 * cell is empty); rows that are sums of others are dropped. Returns each row with its pivot.
 */
export function echelon(rows: Uint32Array[], n: number): { row: Uint32Array; pivot: number }[] | null {
  const work = rows.map((r) => r.slice());
  const out: { row: Uint32Array; pivot: number }[] = [];
  let next = 0;
  for (let col = 0; col < n && next < work.length; col++) {
    let found = -1;
    for (let r = next; r < work.length; r++) if (bit(work[r]!, col)) { found = r; break; }
    if (found < 0) continue;
    [work[next], work[found]] = [work[found]!, work[next]!];
    const pivotRow = work[next]!;
    for (let r = 0; r < work.length; r++) {
      if (r === next || !bit(work[r]!, col)) continue;
      const target = work[r]!;
      for (let w = 0; w < target.length; w++) target[w]! ^= pivotRow[w]!;
    }
    out.push({ row: pivotRow, pivot: col });
    next++;
  }
  for (let r = next; r < work.length; r++) if (bit(work[r]!, n)) return null; // 0 = 1
  return out;
}

/** The formula every cell shares. */
interface Formula {
  numVars: number;
  clauses: readonly (readonly number[])[];
  support: readonly number[];
  featureVars: number;
  iteration: number;
  onCell?: ApproxOptions['onCell'];
  shareModels: boolean;
  /** log2 of the largest class of solutions a model stood for (count/approx-cell.ts): the count is at least 2^this. */
  largestClass: number;
}

/**
 * Models found in the cells of one hash, each with the rows it was checked against: per row, 0
 * not yet, 1 satisfied, 2 not. A model of cell m needs no check of its first m rows.
 */
class Seen {
  readonly models: Int8Array[] = [];
  private readonly checked = new Map<Int8Array, Uint8Array>();

  constructor(private readonly support: readonly number[], private readonly hash: Hash) {}

  add(models: readonly Int8Array[], m: number): void {
    for (const model of models) {
      this.models.push(model);
      this.checked.set(model, new Uint8Array(Math.max(m, 64)).fill(1, 0, m));
    }
  }

  /** Whether a model satisfies the first m rows (each row's bits over the support have its parity), the last ones tried first. */
  satisfies(model: Int8Array, m: number): boolean {
    let checked = this.checked.get(model)!;
    if (checked.length < m) {
      const grown = new Uint8Array(2 * m);
      grown.set(checked);
      this.checked.set(model, (checked = grown));
    }
    const n = this.support.length;
    let bits: Uint32Array | null = null;
    const rows = this.hash.rows; // made up to m already: the cell was built from them
    for (let r = m - 1; r >= 0; r--) {
      if (checked[r] === 0) {
        if (bits === null) {
          bits = new Uint32Array(Math.ceil((n + 1) / 32));
          for (let i = 0; i < n; i++) if (model[this.support[i]!]! > 0) bits[i >>> 5]! |= 1 << (i & 31);
          bits[n >>> 5]! |= 1 << (n & 31); // the parity bit: row · (x, 1) = 0 for a solution
        }
        const row = rows[r]!;
        let p = 0;
        for (let w = 0; w < row.length; w++) p ^= row[w]! & bits[w]!;
        checked[r] = parity32(p) === 0 ? 1 : 2;
      }
      if (checked[r] === 2) return false;
    }
    return true;
  }
}

/**
 * The size of cell m up to `limit`. Cells of one hash are nested (cell m holds cell m + 1), so
 * the models found in the hash's other cells (`seen`) are counted here first when they satisfy
 * its rows, and the solver only looks for the rest.
 */
function cellSize(f: Formula, hash: Hash, m: number, limit: number, deadline: Deadline, seen = new Seen(f.support, hash)): number | null {
  const started = Date.now();
  let cell: Cell;
  try {
    cell = new Cell(f.numVars, f.clauses, f.support, hash.first(m), f.featureVars, deadline);
  } catch (error) {
    // The rows' reduction ran past the deadline: this cell is out of time like a search would be.
    if (error instanceof DeadlineExceeded) return null;
    throw error;
  }
  const size = f.shareModels ? cell.count(limit, deadline, seen.models, (model) => seen.satisfies(model, m)) : cell.count(limit, deadline);
  seen.add(cell.found, m);
  f.largestClass = Math.max(f.largestClass, cell.largestClass);
  f.onCell?.(f.iteration, m, size, Date.now() - started);
  return size;
}

/**
 * The smallest m in 1..n whose cell holds fewer than `threshold` solutions (cells shrink as m
 * grows: row m+1 only cuts cell m), searched from the previous iteration's m outwards, then by
 * halving (ApproxMC2's logarithmic search). Null on timeout; undefined when even n rows leave
 * `threshold` solutions (the iteration gives no estimate).
 */
function searchCell(f: Formula, hash: Hash, start: number, threshold: number, deadline: Deadline): { m: number; size: number } | null | undefined {
  const sizes = new Map<number, number>([[0, threshold]]);
  const seen = new Seen(f.support, hash);
  const size = (m: number): number | null => {
    if (!sizes.has(m)) {
      const s = cellSize(f, hash, m, threshold, deadline, seen);
      if (s === null) return null;
      sizes.set(m, s);
    }
    return sizes.get(m)!;
  };
  const n = f.support.length;
  let lo = 0; // size(lo) >= threshold
  let hi = -1; // size(hi) < threshold
  let m = Math.min(Math.max(start, 1), n);
  const first = size(m);
  if (first === null) return null;
  let step = 1;
  if (first < threshold) {
    hi = m;
    for (;;) {
      const probe = Math.max(0, hi - step);
      const s = size(probe);
      if (s === null) return null;
      if (s >= threshold) { lo = probe; break; }
      hi = probe;
      step *= 2;
    }
  } else {
    lo = m;
    for (;;) {
      if (lo === n) return undefined;
      const probe = Math.min(n, lo + step);
      const s = size(probe);
      if (s === null) return null;
      if (s < threshold) { hi = probe; break; }
      lo = probe;
      // Upwards the step stops doubling at 64: a cell far above the threshold holds almost
      // nothing and the solver may not prove it (linux: 3 567 rows held 73, 3 823 ran 456 s).
      step = Math.min(2 * step, 64);
    }
  }
  while (hi - lo > 1) {
    m = (lo + hi) >> 1;
    const s = size(m);
    if (s === null) return null;
    if (s >= threshold) lo = m;
    else hi = m;
  }
  return { m: hi, size: sizes.get(hi)! };
}

/** log10 of a non-negative big integer, to about 15 digits. */
export function bigLog10(n: bigint): number {
  if (n <= 0n) return n === 0n ? -Infinity : NaN;
  const digits = n.toString();
  const head = Number(digits.slice(0, 17));
  return Math.log10(head) + (digits.length - Math.min(17, digits.length));
}

/**
 * The number of assignments of `support` that extend to a model of the clauses, estimated within
 * a factor (1 + ε) with probability at least 1 - δ; null when the deadline passes first.
 * `support` must determine every other variable the count should see (the features): hashing
 * and blocking look at it alone.
 */
export function approxCount(numVars: number, clauses: readonly (readonly number[])[], support: readonly number[], options: ApproxOptions = {}): ApproxCount | null {
  const epsilon = options.epsilon ?? DEFAULT_EPSILON;
  const delta = options.delta ?? DEFAULT_DELTA;
  const deadline = options.deadline ?? Deadline.none();
  const threshold = cellThreshold(epsilon);
  const iterations = iterationCount(delta);
  const random = generator(options.seed ?? 1);
  const method = `ApproxMC (random XOR constraints by Gauss-Jordan elimination, ${iterations} iterations, cell threshold ${threshold})`;
  const result = (value: bigint, exact: boolean): ApproxCount => ({ value, log10: bigLog10(value), epsilon, delta, exact, iterations, threshold, method: exact ? 'exact (fewer solutions than the cell threshold)' : method });

  const formula: Formula = { numVars, clauses, support, featureVars: options.featureVars ?? numVars, iteration: 0, onCell: options.onCell, largestClass: 0, shareModels: options.shareModels !== false };
  const whole = cellSize(formula, new Hash(support.length, random), 0, threshold, deadline);
  if (whole === null) return null;
  if (whole < threshold) return result(BigInt(whole), true);

  const estimates: bigint[] = [];
  // Where the first search starts: any m gives the same cell (they only shrink as m grows), so
  // this only saves probes. The count is at least the first model's class.
  let start = Math.max(1, formula.largestClass);
  for (let i = 0; i < iterations; i++) {
    formula.iteration = i + 1;
    const found = searchCell(formula, new Hash(support.length, random), start, threshold, deadline);
    if (found === null) return null;
    if (found === undefined) continue;
    start = found.m;
    estimates.push(BigInt(found.size) << BigInt(found.m));
  }
  if (estimates.length === 0) return null;
  estimates.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return result(estimates[(estimates.length - 1) >> 1]!, false);
}
