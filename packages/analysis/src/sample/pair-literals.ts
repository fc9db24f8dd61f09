// The literals the pairwise sampler of large models works on (pairwise-large.ts). Pairs of core
// and dead features are decided without sampling (a core literal is in every configuration, a
// dead one in none), and features equivalent by unit propagation (x implies y and not-x implies
// not-y, or the same with y negated: an atomic set, a mandatory child) cover the same pairs: a
// class of equivalent variant features is one "compact feature" with two compact literals, 2c
// (its representative selected) and 2c + 1 (deselected). The exclusion rows (p implies not q
// by propagation) are kept over compact literals, as bits.

import type { Deadline } from '../deadline.ts';
import type { SatSolver } from '../sat/solver.ts';
import { PairRows } from './pair-rows.ts';

export interface PairSpace {
  /** Features (variables 1..n). */
  n: number;
  /** Compact features: classes of equivalent variant features. */
  m: number;
  /** Per compact feature: its representative variable. */
  rep: Int32Array;
  /** Per compact feature: how many features its class holds. */
  size: Int32Array;
  /** Per variable 1..n: the compact literal of its positive literal, -1 for a core or dead feature. */
  literalOf: Int32Array;
  /** Core and dead features. */
  fixed: number;
  /** Row p: the compact literals q with p => !q by propagation (symmetric; p's own negation included). */
  exclusions: PairRows;
}

/** DIMACS literal of a compact literal. */
export function compactDimacs(space: PairSpace, p: number): number {
  const r = space.rep[p >> 1]!;
  return p & 1 ? -r : r;
}

/** Compact literal of a DIMACS literal of a variant feature (-1 for core or dead). */
export function compactOf(space: PairSpace, dimacs: number): number {
  const p = space.literalOf[Math.abs(dimacs)]!;
  return p < 0 ? -1 : dimacs > 0 ? p : p ^ 1;
}

/**
 * `value`: the backbone (index v: 1 core, -1 dead, 0 variant). Null when the deadline passes.
 * Two propagations per variant feature, as the exclusion rows of the small path.
 */
export function pairSpace(solver: SatSolver, n: number, value: Int8Array, deadline: Deadline): PairSpace | null {
  const variant: number[] = [];
  for (let v = 1; v <= n; v++) if (value[v] === 0) variant.push(v);
  // What each literal of a variant feature implies (feature literals only, itself left out).
  const impliedPos: Int32Array[] = new Array(n + 1);
  const impliedNeg: Int32Array[] = new Array(n + 1);
  for (const v of variant) {
    if (deadline.expired()) return null;
    impliedPos[v] = featureLiterals(solver.impliedLiterals([v]), n, v);
    impliedNeg[v] = featureLiterals(solver.impliedLiterals([-v]), n, v);
  }
  solver.impliedLiterals([]);

  const uf = new ParityUnion(n);
  const mark = new Int8Array(n + 1);
  for (const v of variant) {
    for (const x of impliedNeg[v]!) mark[Math.abs(x)] = x > 0 ? 1 : -1;
    for (const x of impliedPos[v]!) {
      const y = Math.abs(x);
      if (value[y] !== 0) continue;
      // v => y and !v => !y: equal; v => !y and !v => y: opposite.
      if ((x > 0 && mark[y] === -1) || (x < 0 && mark[y] === 1)) uf.union(v, y, x < 0 ? 1 : 0);
    }
    for (const x of impliedNeg[v]!) mark[Math.abs(x)] = 0;
  }

  const literalOf = new Int32Array(n + 1).fill(-1);
  const compactOfRoot = new Int32Array(n + 1).fill(-1);
  const rep: number[] = [];
  const size: number[] = [];
  for (const v of variant) {
    const { root, parity } = uf.find(v);
    if (compactOfRoot[root] < 0) {
      compactOfRoot[root] = rep.length;
      rep.push(root);
      size.push(0);
    }
    const c = compactOfRoot[root]!;
    // The representative is its own root (parity 0).
    literalOf[v] = 2 * c + parity;
    size[c]!++;
  }
  const m = rep.length;
  const space: PairSpace = { n, m, rep: Int32Array.from(rep), size: Int32Array.from(size), literalOf, fixed: n - variant.length, exclusions: new PairRows(2 * m) };
  for (let p = 0; p < 2 * m; p++) {
    const r = space.rep[p >> 1]!;
    const implied = p & 1 ? impliedNeg[r]! : impliedPos[r]!;
    space.exclusions.set(p, p ^ 1);
    for (const x of implied) {
      const q = compactOf(space, x);
      if (q < 0 || q >> 1 === p >> 1) continue;
      space.exclusions.set(p, q ^ 1);
      space.exclusions.set(q ^ 1, p);
    }
  }
  return space;
}

function featureLiterals(implied: number[] | null, n: number, self: number): Int32Array {
  // A literal of a variant feature propagates without conflict: it is in some configuration.
  return Int32Array.from((implied ?? []).filter((x) => Math.abs(x) <= n && Math.abs(x) !== self));
}

/** Union-find where each element knows whether it equals or negates its root. */
class ParityUnion {
  private readonly parent: Int32Array;
  private readonly parity: Uint8Array;

  constructor(n: number) {
    this.parent = Int32Array.from({ length: n + 1 }, (_, i) => i);
    this.parity = new Uint8Array(n + 1);
  }

  find(x: number): { root: number; parity: number } {
    let p = 0;
    let r = x;
    while (this.parent[r] !== r) {
      p ^= this.parity[r]!;
      r = this.parent[r]!;
    }
    // Path compression: every element on the way points straight at the root.
    let y = x;
    let py = p;
    while (this.parent[y] !== r) {
      const next = this.parent[y]!;
      const pn = py ^ this.parity[y]!;
      this.parent[y] = r;
      this.parity[y] = py;
      y = next;
      py = pn;
    }
    return { root: r, parity: p };
  }

  /** Records x = y (parity 0) or x = !y (parity 1). */
  union(x: number, y: number, parity: number): void {
    const a = this.find(x);
    const b = this.find(y);
    if (a.root === b.root) return;
    // Smaller root id stays root, so representatives are stable.
    const [keep, move] = a.root < b.root ? [a, b] : [b, a];
    this.parent[move.root] = keep.root;
    this.parity[move.root] = a.parity ^ b.parity ^ parity;
  }
}
