// Counting a narrow formula by dynamic programming over a tree decomposition (bucket
// elimination): variables are eliminated in min-degree order; eliminating x multiplies every
// clause and table that mentions x into one table over x and its neighbours then (its bag),
// sums x out, and hands the table over its neighbours on to the first of them eliminated after
// it. The work is the sum of 2^(bag size) over the bags, independent of how many branches a
// search would take through the same formula. The counter (counter.ts) uses it on the narrow
// components that its search meets below the wide top of a formula (fm3.uvl: about 200
// variables, bags of 8 to 11), where a search would find its components again after every
// decision.
//
// Tables hold exact integers: in doubles, which are exact while every value stays below 2^53,
// and beside them residues modulo a few primes below 2^26 (a product of two residues is below
// 2^52, exact in a double). When the doubles' result says the count needs more primes than
// were guessed, the tables are computed again with enough; the count is put together from its
// residues (Chinese remainders, in BigInt).

import { fromResidues, mulMod, nextPrimeBelow, PRIME_BITS, residuesFor } from './residues.ts';
import { BalancedSeparator } from './separator.ts';
import type { BucketTables, EliminationPlan, NarrowFormula } from './narrow-formula.ts';

export type { BucketTables, EliminationPlan, NarrowFormula } from './narrow-formula.ts';

const EXACT_LIMIT = 2 ** 53;
/** Residues computed along with the doubles (the count of a fm3.uvl component needs 3.3 on average). */
const RESIDUES_GUESS = 4;

export class TreeDecompositionCounter {
  private readonly graph = new BalancedSeparator();
  private primes: number[] = [];
  private reciprocals: number[] = [];
  // Per elimination step: the clauses and incoming tables of its bucket (its bag is the graph's).
  private bucketHead = new Int32Array(64);
  private clauseNext = new Int32Array(64);
  private tableHead = new Int32Array(64);
  private tableNext = new Int32Array(64);
  /** The table that step s sends on, over its bag without its variable: tableAt[s] in the pool. */
  private tableAt = new Int32Array(64);
  private pool = new Float64Array(1 << 12);
  private product = new Float64Array(1 << 12);
  private indexOf = new Int32Array(1 << 12);
  private bitOf = new Int32Array(64);
  // The elimination that run() follows: the graph's (plan()) or a stored one (usePlan()).
  private scopeStart: Int32Array = new Int32Array(1);
  private scopeVars: Int32Array = new Int32Array(0);
  private stepIndex = new Int32Array(64);
  private readonly contribution = new Int32Array(32);
  private satisfied = new Uint8Array(1 << 12);

  /**
   * The number of assignments of the formula's variables that satisfy every clause (and agree
   * with `fixed`, local variable -> 1 true, -1 false, 0 open, when given), or null when the
   * min-degree elimination has a bag of more than maxWidth + 1 variables, or more than maxCost
   * table entries in all (the caller then searches instead).
   */
  count(f: NarrowFormula, maxWidth: number, maxCost: number, fixed: Int8Array | null = null, stored?: EliminationPlan): bigint | null {
    const planned = stored ? this.usePlan(f, stored) : this.plan(f, maxWidth, maxCost);
    if (planned !== 'narrow') return planned === 'empty' ? 0n : null;
    const n = f.vars;
    // Most counts fit in a few residues: they are computed along with the doubles, and again
    // with more only when the doubles show that the count needs more.
    const guess = n <= 52 ? 0 : Math.min(RESIDUES_GUESS, Math.ceil((n + 2) / PRIME_BITS));
    let run = this.run(f, guess, fixed);
    if (run === null) return null;
    // A double is 0 only through a clause no assignment satisfies: exact.
    if (run.max < EXACT_LIMIT || run.value === 0) return BigInt(run.value);
    // The doubles are off by far less than one part in 2^40 here: two more bits are ample.
    const k = Math.max(guess, residuesFor(run.value));
    if (k > guess) run = this.run(f, k, fixed);
    return run === null ? null : fromResidues(run.residues, this.primes.slice(0, k));
  }

  /**
   * Every table of the elimination, kept for the queries of a compiled narrow component
   * (compile/narrow-leaf.ts), with the variables `fixed` gives (local variable -> 1, -1, 0)
   * fixed. `exact`: 'doubles' holds the doubles alone (channel 0, each off by less than one part
   * in 2^40); 'total' adds residues (at least one prime) enough for any number up to the total,
   * 'max' enough for every number in the tables. `shared`: the tables are this counter's own
   * arrays, not copied, and good only until its next call. `stored` is the formula's elimination
   * (planWithin).
   */
  tables(f: NarrowFormula, fixed: Int8Array | null, exact: 'doubles' | 'total' | 'max', stored: EliminationPlan, shared = false): BucketTables {
    const planned = this.usePlan(f, stored);
    if (planned === 'empty') return this.snapshot(f, 0, null, false);
    let k = exact === 'doubles' ? 0 : Math.max(1, Math.min(RESIDUES_GUESS, Math.ceil((f.vars + 2) / PRIME_BITS)));
    let run = this.run(f, k, fixed);
    if (run === null) throw new Error('a narrow table overflowed');
    const bound = exact === 'max' ? run.max : run.value;
    if (exact !== 'doubles' && bound >= EXACT_LIMIT && residuesFor(bound) > k) {
      k = residuesFor(bound);
      run = this.run(f, k, fixed)!;
    }
    return this.snapshot(f, k, run, shared);
  }

  /**
   * The min-degree elimination of the formula within the limits ('wide' when past them), with
   * each clause put in the bucket of its variable eliminated first ('empty': a clause without
   * literals, no model).
   */
  private plan(f: NarrowFormula, maxWidth: number, maxCost: number): 'narrow' | 'wide' | 'empty' {
    // A bag's table has 2^(width + 1) entries, indexed by a 32-bit integer.
    if (!(maxWidth >= 0 && maxWidth <= Infinity)) throw new RangeError(`width limit out of range: ${maxWidth}`);
    const n = f.vars;
    const graph = this.graph;
    graph.reset(n);
    graph.linkClauses(f.clauseStart, f.lits, f.clauses);
    if (!graph.eliminate(Math.min(maxWidth, 24))) return 'wide';
    this.reserveSteps(n, f.clauses);
    const bagStarts = graph.bagStarts();
    this.scopeStart = bagStarts;
    this.scopeVars = graph.bagItems();
    for (let v = 0; v < n; v++) this.stepIndex[v] = graph.stepOf(v);
    let cost = 0;
    for (let s = 0; s < n; s++) cost += 2 ** (bagStarts[s + 1]! - bagStarts[s]!);
    if (cost > maxCost) return 'wide';
    // Each clause goes to the bucket of its variable eliminated first: its other variables are
    // that variable's neighbours then, so they are all in the bag.
    this.bucketHead.fill(-1, 0, n);
    for (let c = 0; c < f.clauses; c++) {
      let first = n;
      for (let i = f.clauseStart[c]!, end = f.clauseStart[c + 1]!; i < end; i++) first = Math.min(first, this.stepIndex[f.lits[i]! >> 1]!);
      if (first === n) return 'empty';
      this.clauseNext[c] = this.bucketHead[first]!;
      this.bucketHead[first] = c;
    }
    return 'narrow';
  }

  /**
   * The elimination of a formula within the limits (null when past them), copied out, to be
   * given back to count() and tables() (compile/narrow-leaf.ts keeps it with the formula).
   */
  planWithin(f: NarrowFormula, maxWidth: number, maxCost: number): EliminationPlan | null {
    const planned = this.plan(f, maxWidth, maxCost);
    if (planned === 'wide') return null;
    const n = f.vars;
    return {
      empty: planned === 'empty',
      scopeStart: this.scopeStart.slice(0, n + 1),
      scopeVars: this.scopeVars.slice(0, this.scopeStart[n]!),
      stepIndex: this.stepIndex.slice(0, n),
      bucketHead: this.bucketHead.slice(0, n),
      clauseNext: this.clauseNext.slice(0, f.clauses),
    };
  }

  private usePlan(f: NarrowFormula, stored: EliminationPlan): 'narrow' | 'empty' {
    if (stored.empty) return 'empty';
    this.reserveSteps(f.vars, f.clauses);
    this.scopeStart = stored.scopeStart;
    this.scopeVars = stored.scopeVars;
    this.stepIndex.set(stored.stepIndex);
    this.bucketHead.set(stored.bucketHead);
    this.clauseNext.set(stored.clauseNext);
    return 'narrow';
  }

  /** The last run's tables, copied out of the reused arrays (no run: the formula has no model). */
  private snapshot(f: NarrowFormula, k: number, run: RunResult | null, shared: boolean): BucketTables {
    const n = f.vars;
    const scopeStart = this.scopeStart.slice(0, n + 1);
    const scopeVars = this.scopeVars.slice(0, scopeStart[n]!);
    const inStart = new Int32Array(n + 1);
    const clauseAt = new Int32Array(n + 1);
    for (let s = 0; s < n; s++) {
      let incoming = 0;
      for (let t = this.tableHead[s]!; run !== null && t !== -1; t = this.tableNext[t]!) incoming++;
      inStart[s + 1] = inStart[s]! + incoming;
      let clauses = 0;
      for (let c = this.bucketHead[s]!; run !== null && c !== -1; c = this.clauseNext[c]!) clauses++;
      clauseAt[s + 1] = clauseAt[s]! + clauses;
    }
    const inList = new Int32Array(inStart[n]!);
    const bucketClauses = new Int32Array(clauseAt[n]!);
    for (let s = 0; s < n && run !== null; s++) {
      let i = inStart[s]!;
      for (let t = this.tableHead[s]!; t !== -1; t = this.tableNext[t]!) inList[i++] = t;
      let j = clauseAt[s]!;
      for (let c = this.bucketHead[s]!; c !== -1; c = this.clauseNext[c]!) bucketClauses[j++] = c;
    }
    return {
      vars: n,
      formula: f,
      channels: k + 1,
      primes: this.primes.slice(0, k),
      scopeStart,
      scopeVars,
      tableAt: this.tableAt.slice(0, n),
      inStart,
      inList,
      clauseAt,
      bucketClauses,
      pool: run === null ? new Float64Array(0) : shared ? this.pool.subarray(0, run.poolTop) : this.pool.slice(0, run.poolTop),
      total: run === null ? 0n : k === 0 || run.max < EXACT_LIMIT ? BigInt(run.value) : fromResidues(run.residues, this.primes.slice(0, k)),
      empty: run === null,
    };
  }

  private reserveSteps(n: number, clauses: number): void {
    if (this.bucketHead.length < n + 1) {
      const size = 2 * (n + 1);
      this.bucketHead = new Int32Array(size);
      this.tableHead = new Int32Array(size);
      this.tableNext = new Int32Array(size);
      this.tableAt = new Int32Array(size);
      this.bitOf = new Int32Array(size);
      this.stepIndex = new Int32Array(size);
    }
    if (this.clauseNext.length < clauses) this.clauseNext = new Int32Array(2 * clauses);
  }

  /**
   * Eliminates every variable, with each table entry held in doubles (channel 0: the value and
   * the largest number met, null if one overflows) and modulo the first k primes (channels 1..k).
   */
  private run(f: NarrowFormula, k: number, fixed: Int8Array | null): RunResult | null {
    const n = f.vars;
    const channels = k + 1;
    this.ensurePrimes(k);
    // Channel j's prime and reciprocal at j (channel 0 unused).
    const primes = [0, ...this.primes.slice(0, k)];
    const reciprocals = [0, ...this.reciprocals.slice(0, k)];
    // The tables' scopes are the bags: the eliminated variable (bit 0), then its neighbours.
    const scopeStart = this.scopeStart;
    const scopeVars = this.scopeVars;
    const stepIndex = this.stepIndex;
    const bitOf = this.bitOf;
    this.tableHead.fill(-1, 0, n);
    let poolTop = 0;
    let max = 0;
    const result = new Array<number>(channels).fill(1);
    for (let s = 0; s < n; s++) {
      const scope = scopeStart[s]!;
      const width = scopeStart[s + 1]! - scope;
      for (let b = 0; b < width; b++) bitOf[scopeVars[scope + b]!] = b;
      const entries = 1 << width;
      this.markSatisfied(f, s, entries, fixed === null ? 0 : fixed[scopeVars[scope]!]!);
      const incoming = this.indexIncoming(s, width, entries, channels);
      this.multiplyBucket(entries, channels, incoming, primes, reciprocals);
      const out = poolTop;
      poolTop += (entries >> 1) * channels;
      this.reservePool(out, poolTop);
      const stepMax = this.sumOut(out, entries, channels, primes);
      if (stepMax > max) max = stepMax;
      this.tableAt[s] = out;
      if (width === 1) {
        // Nothing left to pass on: the table is one number, a factor of the count.
        const target = this.pool;
        result[0] = result[0]! * target[out]!;
        if (result[0]! > max) max = result[0]!;
        for (let j = 1; j < channels; j++) result[j] = mulMod(result[j]!, target[out + j]!, primes[j]!, reciprocals[j]!);
        continue;
      }
      // On to the bag's variable eliminated first.
      let next = n;
      for (let b = 1; b < width; b++) next = Math.min(next, stepIndex[scopeVars[scope + b]!]!);
      this.tableNext[s] = this.tableHead[next]!;
      this.tableHead[next] = s;
    }
    if (!Number.isFinite(max)) return null;
    return { value: result[0]!, max, residues: result.slice(1), poolTop };
  }

  /** Primes (and their reciprocals) for k residue channels, found once and kept. */
  private ensurePrimes(k: number): void {
    while (this.primes.length < k) {
      const p = nextPrimeBelow(this.primes.length === 0 ? 1 << 26 : this.primes[this.primes.length - 1]!);
      this.primes.push(p);
      this.reciprocals.push(1 / p);
    }
  }

  /**
   * satisfied[e] for the `entries` entries of step s's bag: 0 where a clause of the bucket, or
   * the step's variable fixed to `own` (1 true, -1 false, 0 open), is falsified.
   */
  private markSatisfied(f: NarrowFormula, s: number, entries: number, own: number): void {
    const bitOf = this.bitOf;
    // The entries each clause of the bucket falsifies: its negative literals' bits set, its
    // positive ones' clear, any other bits (2^(width - clause size) entries, not all of them).
    if (this.satisfied.length < entries) this.satisfied = new Uint8Array(2 * entries);
    const satisfied = this.satisfied;
    satisfied.fill(1, 0, entries);
    // A fixed variable is a unit clause of its own bucket: bit 0 must have its value.
    if (own !== 0) for (let e = own > 0 ? 0 : 1; e < entries; e += 2) satisfied[e] = 0;
    for (let c = this.bucketHead[s]!; c !== -1; c = this.clauseNext[c]!) {
      let named = 0;
      let neg = 0;
      for (let i = f.clauseStart[c]!, end = f.clauseStart[c + 1]!; i < end; i++) {
        const l = f.lits[i]!;
        const bit = 1 << bitOf[l >> 1]!;
        named |= bit;
        if (l & 1) neg |= bit;
      }
      const free = (entries - 1) & ~named;
      for (let sub = free; ; sub = (sub - 1) & free) {
        satisfied[neg | sub] = 0;
        if (sub === 0) break;
      }
    }
  }

  /**
   * indexOf[m * entries + e]: where entry e of step s's bag is in the pool in the m-th table
   * coming in to step s. Returns the number of incoming tables.
   */
  private indexIncoming(s: number, width: number, entries: number, channels: number): number {
    const scopeStart = this.scopeStart;
    const scopeVars = this.scopeVars;
    const bitOf = this.bitOf;
    let incoming = 0;
    for (let t = this.tableHead[s]!; t !== -1; t = this.tableNext[t]!) incoming++;
    if (this.indexOf.length < incoming * entries) this.indexOf = new Int32Array(2 * incoming * entries);
    const indexOf = this.indexOf;
    const contribution = this.contribution;
    let m = 0;
    for (let t = this.tableHead[s]!; t !== -1; t = this.tableNext[t]!, m++) {
      // Table t is over bag(t) without its first variable, in bag order: bit b of an entry
      // here adds contribution[b] to its place there.
      contribution.fill(0, 0, width);
      const from = scopeStart[t]! + 1;
      const size = scopeStart[t + 1]! - from;
      for (let j = 0; j < size; j++) contribution[bitOf[scopeVars[from + j]!]!] = (1 << j) * channels;
      const base = m * entries;
      indexOf[base] = this.tableAt[t]!;
      for (let e = 1; e < entries; e++) {
        const low = e & -e;
        indexOf[base + e] = indexOf[base + (e ^ low)]! + contribution[31 - Math.clz32(low)]!;
      }
    }
    return incoming;
  }

  /** product: each entry of the bag, 0 where falsified, else the product of the incoming tables' entries (1 for none). */
  private multiplyBucket(entries: number, channels: number, incoming: number, primes: number[], reciprocals: number[]): void {
    if (this.product.length < entries * channels) this.product = new Float64Array(2 * entries * channels);
    const product = this.product;
    const satisfied = this.satisfied;
    const indexOf = this.indexOf;
    const pool = this.pool;
    for (let e = 0; e < entries; e++) {
      const at = e * channels;
      if (satisfied[e] === 0 || incoming === 0) {
        const value = satisfied[e];
        for (let j = 0; j < channels; j++) product[at + j] = value;
        continue;
      }
      const from = indexOf[e]!;
      for (let j = 0; j < channels; j++) product[at + j] = pool[from + j]!;
      for (let i = 1; i < incoming; i++) {
        const other = indexOf[i * entries + e]!;
        product[at] *= pool[other]!;
        for (let j = 1; j < channels; j++) product[at + j] = mulMod(product[at + j]!, pool[other + j]!, primes[j]!, reciprocals[j]!);
      }
    }
  }

  /** Room in the pool up to `top`, keeping what is below `used`. */
  private reservePool(used: number, top: number): void {
    if (top <= this.pool.length) return;
    const bigger = new Float64Array(2 * top);
    bigger.set(this.pool.subarray(0, used));
    this.pool = bigger;
  }

  /**
   * Sums the variable out of the product (it is bit 0): the table over the rest of the bag,
   * written at pool[out]. Returns the largest double written (0 for none).
   */
  private sumOut(out: number, entries: number, channels: number, primes: number[]): number {
    const product = this.product;
    const target = this.pool;
    const half = entries >> 1;
    let max = 0;
    for (let e = 0; e < half; e++) {
      const low = 2 * e * channels;
      const high = low + channels;
      const at = out + e * channels;
      const sum = product[low]! + product[high]!;
      if (sum > max) max = sum;
      target[at] = sum;
      for (let j = 1; j < channels; j++) {
        const residue = product[low + j]! + product[high + j]!;
        target[at + j] = residue >= primes[j]! ? residue - primes[j]! : residue;
      }
    }
    return max;
  }
}

interface RunResult {
  value: number;
  max: number;
  residues: number[];
  poolTop: number;
}
