// The true counts of a narrow component (a TABLE node, narrow-leaf.ts): for each variable, the
// number of the component's models in which it is true, from its tables passed up (the count's)
// and tables passed down from the root of the elimination tree (what the rest of the component
// contributes to each bag entry). Exact: in residues enough for the component's count, put
// together by Chinese remainders.

import { fromResidues, mulMod, residuesFor } from '../count/residues.ts';
import type { BucketTables } from '../count/tree-decomposition.ts';

/** The entries of step s's bag that its bucket's clauses (and its variable's fixed value) allow. */
function allowedEntries(t: BucketTables, s: number, fixed: Int8Array | null, out: Uint8Array): void {
  const scope = t.scopeStart[s]!;
  const width = t.scopeStart[s + 1]! - scope;
  const entries = 1 << width;
  out.fill(1, 0, entries);
  const own = fixed === null ? 0 : fixed[t.scopeVars[scope]!]!;
  if (own !== 0) for (let e = own > 0 ? 0 : 1; e < entries; e += 2) out[e] = 0;
  const f = t.formula;
  for (let k = t.clauseAt[s]!; k < t.clauseAt[s + 1]!; k++) {
    const c = t.bucketClauses[k]!;
    let fixedBits = 0;
    let neg = 0;
    for (let i = f.clauseStart[c]!; i < f.clauseStart[c + 1]!; i++) {
      const l = f.lits[i]!;
      let b = 0;
      while (t.scopeVars[scope + b] !== l >> 1) b++;
      fixedBits |= 1 << b;
      if (l & 1) neg |= 1 << b;
    }
    const free = (entries - 1) & ~fixedBits;
    for (let sub = free; ; sub = (sub - 1) & free) {
      out[neg | sub] = 0;
      if (sub === 0) break;
    }
  }
}

/** Reused arrays of the downward pass: where each bag entry's incoming values and each child's down entry are. */
class IncomingPlaces {
  upAt = new Int32Array(64);
  childAt = new Int32Array(64);
  private contribution = new Int32Array(32);
  private index = new Int32Array(64);
  private readonly bitOf: Int32Array;

  constructor(vars: number) {
    this.bitOf = new Int32Array(vars);
  }

  /**
   * For step s: upAt[e * incoming + m] is where the m-th incoming table's value at bag entry e
   * starts in the pool (its channel 1), childAt[...] where that child's down value starts.
   */
  locate(t: BucketTables, s: number, downAt: Int32Array, k: number): void {
    const scope = t.scopeStart[s]!;
    const width = t.scopeStart[s + 1]! - scope;
    const entries = 1 << width;
    const incoming = t.inStart[s + 1]! - t.inStart[s]!;
    if (this.upAt.length < incoming * entries) {
      this.upAt = new Int32Array(2 * incoming * entries);
      this.childAt = new Int32Array(2 * incoming * entries);
    }
    if (this.contribution.length < width) this.contribution = new Int32Array(2 * width);
    if (this.index.length < entries) this.index = new Int32Array(2 * entries);
    const { upAt, childAt, contribution, bitOf, index } = this;
    for (let b = 0; b < width; b++) bitOf[t.scopeVars[scope + b]!] = b;
    for (let m = 0; m < incoming; m++) {
      const child = t.inList[t.inStart[s]! + m]!;
      const from = t.scopeStart[child]! + 1;
      const to = t.scopeStart[child + 1]!;
      contribution.fill(0, 0, width);
      for (let j = 0; j < to - from; j++) contribution[bitOf[t.scopeVars[from + j]!]!] = 1 << j;
      // Entry e's index in the child's table, from e without its lowest bit.
      index[0] = 0;
      for (let e = 1; e < entries; e++) {
        const low = e & -e;
        index[e] = index[e ^ low]! + contribution[31 - Math.clz32(low)]!;
      }
      const upBase = t.tableAt[child]! + 1;
      const downBase = downAt[child]!;
      for (let e = 0; e < entries; e++) {
        upAt[e * incoming + m] = upBase + index[e]! * t.channels;
        childAt[e * incoming + m] = downBase + index[e]! * k;
      }
    }
  }
}

/**
 * Per local variable, the number of the leaf's models (agreeing with the tables' fixed values) in
 * which it is true. `t` must be exact (leafTables(..., 'total' or 'max')); the fixed values are the tables'.
 */
export function leafTrueCounts(t: BucketTables, fixed: Int8Array | null): bigint[] {
  const n = t.vars;
  const result = new Array<bigint>(n).fill(0n);
  if (t.empty || t.total === 0n) return result;
  const { channels, primes, scopeStart, scopeVars, tableAt, inStart, inList, pool } = t;
  // Residues enough for the total, which bounds every true count (the tables may hold more).
  const k = Math.min(channels - 1, residuesFor(Number(t.total)));
  // The table passed down to step s: over its bag without its variable, like its table passed up.
  const downAt = new Int32Array(n);
  let size = 0;
  for (let s = 0; s < n; s++) {
    downAt[s] = size;
    size += (1 << (scopeStart[s + 1]! - scopeStart[s]! - 1)) * k;
  }
  const down = new Float64Array(size);
  // The roots of the elimination forest: each gets the product of the others' totals.
  const roots: number[] = [];
  for (let s = 0; s < n; s++) if (scopeStart[s + 1]! - scopeStart[s]! === 1) roots.push(s);
  for (const r of roots) {
    for (let j = 0; j < k; j++) {
      let product = 1;
      for (const other of roots) if (other !== r) product = mulMod(product, pool[tableAt[other]! + 1 + j]!, primes[j]!);
      down[downAt[r]! + j] = product;
    }
  }
  let allowed = new Uint8Array(64);
  const places = new IncomingPlaces(n);
  const marginal = new Float64Array(k);
  const reciprocals = primes.map((p) => 1 / p);
  let prefix = new Float64Array(8);
  let suffix = new Float64Array(8);
  for (let s = n - 1; s >= 0; s--) {
    const width = scopeStart[s + 1]! - scopeStart[s]!;
    const entries = 1 << width;
    if (allowed.length < entries) allowed = new Uint8Array(2 * entries);
    allowedEntries(t, s, fixed, allowed);
    const incoming = inStart[s + 1]! - inStart[s]!;
    places.locate(t, s, downAt, k);
    const { upAt, childAt } = places;
    if (prefix.length < incoming + 1) {
      prefix = new Float64Array(2 * incoming + 2);
      suffix = new Float64Array(2 * incoming + 2);
    }
    marginal.fill(0);
    const pass: DownPass = { entries, incoming, allowed, upAt, childAt, down, downBase: downAt[s]!, pool, k, primes, reciprocals, marginal, prefix, suffix };
    if (incoming === 0) passDownAtLeaf(pass);
    else if (incoming === 1) passDownOneChild(pass);
    else passDown(pass);
    result[scopeVars[scopeStart[s]!]!] = fromResidues(Array.from(marginal), primes.slice(0, k));
  }
  return result;
}

interface DownPass {
  entries: number;
  incoming: number;
  allowed: Uint8Array;
  upAt: Int32Array;
  childAt: Int32Array;
  down: Float64Array;
  downBase: number;
  pool: Float64Array;
  k: number;
  primes: number[];
  reciprocals: number[];
  marginal: Float64Array;
  prefix: Float64Array;
  suffix: Float64Array;
}

/** A step without incoming tables (most are, or have one): its variable's share is its down value. */
function passDownAtLeaf(q: DownPass): void {
  const { entries, allowed, down, downBase, k, primes, marginal } = q;
  for (let e = 1; e < entries; e += 2) {
    if (allowed[e] === 0) continue;
    const at = downBase + (e >> 1) * k;
    for (let j = 0; j < k; j++) {
      const sum = marginal[j]! + down[at + j]!;
      marginal[j] = sum >= primes[j]! ? sum - primes[j]! : sum;
    }
  }
}

/** A step with one incoming table: the child gets the down value, the variable the product. */
function passDownOneChild(q: DownPass): void {
  const { entries, allowed, upAt, childAt, down, downBase, pool, k, primes, reciprocals, marginal } = q;
  for (let e = 0; e < entries; e++) {
    if (allowed[e] === 0) continue;
    const from = downBase + (e >> 1) * k;
    const up = upAt[e]!;
    const to = childAt[e]!;
    for (let j = 0; j < k; j++) {
      const d = down[from + j]!;
      if (d === 0) continue;
      const p = primes[j]!;
      const sum = down[to + j]! + d;
      down[to + j] = sum >= p ? sum - p : sum;
      if (e & 1) {
        const m = marginal[j]! + mulMod(d, pool[up + j]!, p, reciprocals[j]!);
        marginal[j] = m >= p ? m - p : m;
      }
    }
  }
}

/** The general step: each child gets the down value times the other children's values (prefix and suffix products). */
function passDown(q: DownPass): void {
  const { entries, incoming, allowed, upAt, childAt, down, downBase, pool, k, primes, reciprocals, marginal, prefix, suffix } = q;
  for (let e = 0; e < entries; e++) {
    if (allowed[e] === 0) continue;
    const from = downBase + (e >> 1) * k;
    const row = e * incoming;
    for (let j = 0; j < k; j++) {
      const d = down[from + j]!;
      if (d === 0) continue;
      const p = primes[j]!;
      const r = reciprocals[j]!;
      prefix[0] = d;
      for (let m = 0; m < incoming; m++) prefix[m + 1] = mulMod(prefix[m]!, pool[upAt[row + m]! + j]!, p, r);
      if (e & 1) {
        const sum = marginal[j]! + prefix[incoming]!;
        marginal[j] = sum >= p ? sum - p : sum;
      }
      suffix[incoming] = 1;
      for (let m = incoming - 1; m > 0; m--) suffix[m] = mulMod(suffix[m + 1]!, pool[upAt[row + m]! + j]!, p, r);
      for (let m = 0; m < incoming; m++) {
        const at = childAt[row + m]! + j;
        const sum = down[at]! + (m === incoming - 1 ? prefix[m]! : mulMod(prefix[m]!, suffix[m + 1]!, p, r));
        down[at] = sum >= p ? sum - p : sum;
      }
    }
  }
}
