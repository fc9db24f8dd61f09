// XOR constraints for the CDCL solver, propagated natively with Gauss-Jordan elimination over
// GF(2) (the scheme of CryptoMiniSat's Gauss-Jordan module: Soos, Nohl and Castelluccia, SAT
// 2009; Soos, Gocht and Meel, CAV 2020), so that random parity constraints (the hashes of the
// approximate counter) need no CNF encoding.
//
// The rows (xor-matrix.ts) are bit sets over the columns (the variables the XORs name), kept in
// reduced row echelon form: each row has a basic column that no other row holds. Each row
// watches two of its columns that are unassigned, like a clause's two watched literals. When the basic column of a
// row is assigned and the row still has an unassigned column, that column becomes the basic one
// and is eliminated from every other row (row additions preserve the solutions, so the matrix is
// never restored on backtracking); a row left with one unassigned column sets it, a row left
// with none is checked. Over the unassigned columns the rows then stay independent, so every
// value the XORs alone imply is propagated (no linear combination is needed later).
//
// Explanations are clauses: a propagated literal's reason, and a conflict, are the row's
// literals as assigned (each other variable's current literal, negated).
//
// "Unassigned" is the view of this propagator: the variables of the trail it has processed are
// assigned, the rest are not, so a literal the solver set but this has not reached yet can still
// be watched; it is handled when reached.

import type { Deadline } from '../deadline.ts';
import { lowBit, parity32 } from './gf2.ts';
import type { ExtraPropagator, PropagatorHost } from './propagator.ts';
import { XorMatrix } from './xor-matrix.ts';

export type { XorRow } from './gf2.ts';
import type { XorRow } from './gf2.ts';

export class XorGauss extends XorMatrix implements ExtraPropagator {
  /** Processed columns, and those of them that are true. */
  private readonly assigned: Uint32Array;
  private readonly value: Uint32Array;
  /** Trail position at which each column was processed. */
  private readonly pos: Int32Array;
  private readonly watch0: Int32Array;
  private readonly watch1: Int32Array;
  /** Per column, rows that watch it (stale entries dropped when met). */
  private readonly watchers: number[][];
  private readonly stamp: Uint32Array;
  private epoch = 0;
  private qhead = 0;
  /** Rows not yet looked at (the first call looks at each: a row of one column sets it). */
  private fresh = true;
  /** Rows to look at again before anything else (left when a conflict stopped a call). */
  private readonly pending: number[] = [];

  /** `rows`: as for XorMatrix; each row then watches its first two columns. */
  constructor(numVars: number, rows: readonly XorRow[], options: { cost?: ArrayLike<number>; deadline?: Deadline } = {}) {
    super(numVars, rows, options);
    const W = this.words;
    this.watch0 = new Int32Array(this.rowCount);
    this.watch1 = new Int32Array(this.rowCount);
    this.watchers = Array.from({ length: this.cols }, () => []);
    this.assigned = new Uint32Array(W);
    this.value = new Uint32Array(W);
    this.pos = new Int32Array(this.cols);
    this.stamp = new Uint32Array(this.rowCount);
    for (let r = 0; r < this.rowCount; r++) {
      const [a, b] = this.firstTwo(r);
      this.setWatches(r, a, b);
    }
  }

  /** Columns of row r with an unassigned (unprocessed) bit, up to two; -1 for none. */
  private firstTwo(r: number): [number, number] {
    const W = this.words;
    const base = r * W;
    let a = -1;
    for (let w = 0; w < W; w++) {
      let u = this.matrix[base + w]! & ~this.assigned[w]!;
      while (u !== 0) {
        const c = w * 32 + lowBit(u);
        if (a < 0) a = c;
        else return [a, c];
        u &= u - 1;
      }
    }
    return [a, -1];
  }

  private setWatches(r: number, a: number, b: number): void {
    if (a >= 0 && this.watch0[r] !== a && this.watch1[r] !== a) this.watchers[a]!.push(r);
    if (b >= 0 && this.watch0[r] !== b && this.watch1[r] !== b) this.watchers[b]!.push(r);
    this.watch0[r] = a;
    this.watch1[r] = b;
  }

  backtrack(size: number, host: PropagatorHost): void {
    if (this.qhead <= size) return;
    for (let i = this.qhead - 1; i >= size; i--) {
      const c = this.colOf[host.trailLit(i) >> 1]!;
      if (c < 0) continue;
      const mask = ~(1 << (c & 31));
      this.assigned[c >>> 5]! &= mask;
      this.value[c >>> 5]! &= mask;
    }
    this.qhead = size;
  }

  propagate(host: PropagatorHost): Int32Array | null {
    if (this.fresh) {
      this.fresh = false;
      for (let r = 0; r < this.rowCount; r++) this.pending.push(r);
    }
    while (this.pending.length > 0) {
      const conflict = this.update(this.pending.pop()!, host, true);
      if (conflict !== null) return conflict;
    }
    while (this.qhead < host.trailSize) {
      const i = this.qhead++;
      const lit = host.trailLit(i);
      const c = this.colOf[lit >> 1]!;
      if (c < 0) continue;
      const bit = 1 << (c & 31);
      this.assigned[c >>> 5]! |= bit;
      if ((lit & 1) === 0) this.value[c >>> 5]! |= bit;
      this.pos[c] = i;
      const conflict = this.processColumn(c, host);
      if (conflict !== null) return conflict;
    }
    return null;
  }

  /**
   * Column c was just assigned: a new basic column for its row, then every row watching it.
   * After a conflict the other rows still get their watches, and those that would set or check
   * something wait in `pending` for the next call (after the solver backtracked).
   */
  private processColumn(c: number, host: PropagatorHost): Int32Array | null {
    const epoch = ++this.epoch === 0xffffffff ? this.resetStamps() : this.epoch;
    let conflict: Int32Array | null = null;
    const r = this.basicRow[c]!;
    if (r >= 0) {
      const [k] = this.firstTwo(r);
      const touched = k >= 0 ? this.pivot(r, c, k) : [r];
      for (const t of touched) {
        this.stamp[t] = epoch;
        const found = this.update(t, host, conflict === null, c);
        if (found !== null) conflict = found;
      }
    }
    const list = this.watchers[c]!;
    let j = 0;
    for (let i = 0; i < list.length; i++) {
      const row = list[i]!;
      if (this.watch0[row] !== c && this.watch1[row] !== c) continue; // stale
      list[j++] = row;
      if (this.stamp[row] === epoch) continue;
      this.stamp[row] = epoch;
      const found = this.update(row, host, conflict === null, c);
      if (found !== null) conflict = found;
    }
    list.length = j;
    return conflict;
  }

  private resetStamps(): number {
    this.stamp.fill(0);
    this.epoch = 1;
    return 1;
  }

  /**
   * Row r after a change: two unassigned columns watched, or its last one set, or checked. When
   * not `act`, a row that would set or check something waits in `pending` instead.
   */
  private update(r: number, host: PropagatorHost, act: boolean, latest = -1): Int32Array | null {
    const W = this.words;
    const base = r * W;
    const m = this.matrix;
    // Keep a watch that is still unassigned, find the rest.
    let a = -1;
    let b = -1;
    const w0 = this.watch0[r]!;
    const w1 = this.watch1[r]!;
    if (w0 >= 0 && this.open(r, w0)) a = w0;
    if (w1 >= 0 && this.open(r, w1)) { if (a < 0) a = w1; else b = w1; }
    for (let w = 0; w < W && b < 0; w++) {
      let u = m[base + w]! & ~this.assigned[w]!;
      while (u !== 0 && b < 0) {
        const col = w * 32 + lowBit(u);
        u &= u - 1;
        if (col === a) continue;
        if (a < 0) a = col;
        else b = col;
      }
    }
    if (b >= 0) {
      this.setWatches(r, a, b);
      return null;
    }
    if (!act) {
      this.setWatches(r, a >= 0 ? a : this.latestTwo(r)[1], this.latestTwo(r)[0]);
      this.pending.push(r);
      return null;
    }
    let sum = this.rhs[r]!;
    for (let w = 0; w < W; w++) sum ^= parity32(m[base + w]! & this.value[w]!);
    // `latest`, the column being processed, is the last assigned one of the row when it holds it.
    const latestHere = latest >= 0 && this.has(r, latest) ? latest : -1;
    if (a < 0) {
      // Every column assigned: satisfied or a conflict. The watches are to be the two assigned
      // last (the first to be unassigned); after setting its last column they already are.
      // Satisfied: watching the column assigned last is enough (any backtracking that frees a
      // column of the row frees it), the other watch stays if it is in the row.
      if (sum === 0 && latestHere >= 0) {
        const other = w0 === latestHere ? w1 : w0;
        this.setWatches(r, latestHere, this.has(r, other) ? other : -1);
        return null;
      }
      const [x, y] = this.latestTwo(r);
      this.setWatches(r, x, y);
      return sum === 0 ? null : this.explain(r, -1);
    }
    // One left: it must make the row's parity right.
    const v = this.varOf[a]!;
    const lit = sum === 1 ? v << 1 : (v << 1) | 1;
    this.setWatches(r, a, latestHere >= 0 ? latestHere : this.latestTwo(r)[0]);
    const val = host.value(lit);
    if (val === 1) return null;
    if (val === -1) return this.explain(r, lit);
    // The reason is read from the row as it is now (later eliminations change the row).
    const row = this.matrix.slice(base, base + W);
    host.imply(lit, () => this.reasonOf(row, lit, host));
    return null;
  }

  /** `lit`, then the negation of the current literal of every other variable of `row` (a copy of a row). */
  private reasonOf(row: Uint32Array, lit: number, host: PropagatorHost): Int32Array {
    const out = [lit];
    for (let w = 0; w < row.length; w++) {
      let u = row[w]!;
      while (u !== 0) {
        const v = this.varOf[w * 32 + lowBit(u)]!;
        u &= u - 1;
        if (v === lit >> 1) continue;
        out.push(host.value(v << 1) === 1 ? (v << 1) | 1 : v << 1);
      }
    }
    return Int32Array.from(out);
  }

  private open(r: number, col: number): boolean {
    const w = col >>> 5;
    const bit = 1 << (col & 31);
    return (this.matrix[r * this.words + w]! & bit) !== 0 && (this.assigned[w]! & bit) === 0;
  }

  /** The two assigned columns of row r processed last (-1 when missing). */
  private latestTwo(r: number): [number, number] {
    const W = this.words;
    const base = r * W;
    let x = -1;
    let y = -1;
    for (let w = 0; w < W; w++) {
      let u = this.matrix[base + w]! & this.assigned[w]!;
      while (u !== 0) {
        const col = w * 32 + lowBit(u);
        u &= u - 1;
        if (x < 0 || this.pos[col]! > this.pos[x]!) { y = x; x = col; }
        else if (y < 0 || this.pos[col]! > this.pos[y]!) y = col;
      }
    }
    return [x, y];
  }

  /** `first` (when not -1) then the negation of every assigned column's literal in row r. */
  private explain(r: number, first: number): Int32Array {
    const W = this.words;
    const base = r * W;
    const out: number[] = first >= 0 ? [first] : [];
    for (let w = 0; w < W; w++) {
      let u = this.matrix[base + w]! & this.assigned[w]!;
      while (u !== 0) {
        const col = w * 32 + lowBit(u);
        u &= u - 1;
        const v = this.varOf[col]!;
        // True now: the clause holds -v; false: v.
        out.push((this.value[w]! & (1 << (col & 31))) !== 0 ? (v << 1) | 1 : v << 1);
      }
    }
    return Int32Array.from(out);
  }
}