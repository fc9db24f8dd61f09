// The rows of the XOR propagator (xor-gauss.ts): bit sets over the columns (the variables the
// XORs name), kept in reduced row echelon form, where each row has a basic column that no other
// row holds. Here they are built, a basic column is changed by elimination, and ranks are read
// off them; which columns are assigned, and what that implies, is the propagator's.

import type { Deadline } from '../deadline.ts';
import { reduce, type XorRow } from './gf2.ts';

export class XorMatrix {
  protected readonly cols: number;
  protected readonly words: number;
  protected readonly rowCount: number;
  /** Row r is words r*W .. r*W+W-1. */
  protected readonly matrix: Uint32Array;
  protected readonly rhs: Uint8Array;
  protected readonly varOf: Int32Array;
  protected readonly colOf: Int32Array;
  /** Per column: the row whose basic column it is, or -1. Per row: its basic column. */
  protected readonly basicRow: Int32Array;
  protected readonly basicOf: Int32Array;
  /** Row additions made by eliminations (a measure of the work). */
  eliminations = 0;
  /** The rows contradict one another: no assignment satisfies them. */
  readonly inconsistent: boolean;

  /**
   * `rows`: the XORs, at least 2 variables each (units and empty rows belong in clauses).
   * They are put in reduced row echelon form here; rows that are sums of others are dropped, and
   * `inconsistent` tells when the rows themselves contradict (0 = 1).
   */
  constructor(numVars: number, rows: readonly XorRow[], options: { cost?: ArrayLike<number>; deadline?: Deadline }) {
    const colOf = new Int32Array(numVars + 1).fill(-1);
    const varOf = columnOrder(rows, colOf, options.cost);
    this.cols = varOf.length;
    this.words = Math.max(1, Math.ceil(this.cols / 32));
    this.colOf = colOf;
    this.varOf = Int32Array.from(varOf);
    const reduced = reduce(rows, colOf, this.cols, this.words, options.deadline);
    this.inconsistent = reduced === null;
    const kept = reduced ?? [];
    this.rowCount = kept.length;
    const W = this.words;
    this.matrix = new Uint32Array(Math.max(1, this.rowCount * W));
    this.rhs = new Uint8Array(this.rowCount);
    this.basicRow = new Int32Array(this.cols).fill(-1);
    this.basicOf = new Int32Array(this.rowCount);
    for (let r = 0; r < this.rowCount; r++) {
      const { bits, rhs, pivot } = kept[r]!;
      this.matrix.set(bits, r * W);
      this.rhs[r] = rhs;
      this.basicOf[r] = pivot;
      this.basicRow[pivot] = r;
    }
  }

  /** The variables that are basic now (one per row): each follows from the others through its row. */
  basicVars(): number[] {
    return Array.from(this.basicOf, (c) => this.varOf[c]!);
  }

  /**
   * The rank of the rows restricted to the columns of `vars`: the rows whose basic column is one
   * of them are independent there (no other row holds it), plus the rank of the others there.
   */
  rankOver(vars: readonly number[]): number {
    const W = this.words;
    const mask = new Uint32Array(W);
    for (const v of vars) {
      const c = this.colOf[v]!;
      if (c >= 0) mask[c >>> 5]! |= 1 << (c & 31);
    }
    let rank = 0;
    const rest: Uint32Array[] = [];
    for (let r = 0; r < this.rowCount; r++) {
      const b = this.basicOf[r]!;
      if (mask[b >>> 5]! & (1 << (b & 31))) { rank++; continue; }
      const row = new Uint32Array(W);
      let any = 0;
      for (let w = 0; w < W; w++) any |= row[w] = this.matrix[r * W + w]! & mask[w]!;
      if (any !== 0) rest.push(row);
    }
    // Gaussian elimination of the others.
    for (let i = 0; i < rest.length; i++) {
      const row = rest[i]!;
      let w = 0;
      while (w < W && row[w] === 0) w++;
      if (w === W) continue;
      rank++;
      const pivotBit = row[w]! & -row[w]!;
      for (let j = i + 1; j < rest.length; j++) {
        const other = rest[j]!;
        if (other[w]! & pivotBit) for (let x = w; x < W; x++) other[x]! ^= row[x]!;
      }
    }
    return rank;
  }

  /** Independent rows kept (the rank). */
  get rank(): number {
    return this.rowCount;
  }

  /** Makes column k the basic one of row r instead of c and eliminates it from every other row; returns the rows changed (r first). */
  protected pivot(r: number, c: number, k: number): number[] {
    this.basicRow[c] = -1;
    this.basicRow[k] = r;
    this.basicOf[r] = k;
    const W = this.words;
    const m = this.matrix;
    const base = r * W;
    const word = k >>> 5;
    const bit = 1 << (k & 31);
    const touched = [r];
    let lo = 0;
    while (m[base + lo] === 0) lo++;
    for (let t = 0; t < this.rowCount; t++) {
      if (t === r || (m[t * W + word]! & bit) === 0) continue;
      const tb = t * W;
      for (let w = lo; w < W; w++) m[tb + w]! ^= m[base + w]!;
      this.rhs[t]! ^= this.rhs[r]!;
      touched.push(t);
    }
    this.eliminations += touched.length - 1;
    return touched;
  }

  protected has(r: number, col: number): boolean {
    return col >= 0 && (this.matrix[r * this.words + (col >>> 5)]! & (1 << (col & 31))) !== 0;
  }
}

/**
 * The variables the rows name, one column each, written into `colOf`; in increasing cost when
 * costs are given, since the first free column of a row becomes its basic one.
 */
function columnOrder(rows: readonly XorRow[], colOf: Int32Array, cost: ArrayLike<number> | undefined): number[] {
  let varOf: number[] = [];
  for (const row of rows) for (const v of row.vars) if (colOf[v]! < 0) { colOf[v] = varOf.length; varOf.push(v); }
  if (cost) {
    varOf = varOf.map((v, i) => [v, i] as const).sort((a, b) => cost[a[0]]! - cost[b[0]]! || a[1] - b[1]).map(([v]) => v);
    varOf.forEach((v, c) => { colOf[v] = c; });
  }
  return varOf;
}
