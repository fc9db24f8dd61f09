// A narrow component's value in any count algebra (count-algebra.ts), by a search that follows a
// tree decomposition instead of finding components: the compiler's counterpart of the dynamic
// programming in tree-decomposition.ts, which gives numbers only.
//
// Variables are eliminated in min-degree order (separator.ts); the bag of x is x and its
// neighbours when it is eliminated, all of them eliminated after x, so they are x's ancestors
// in the elimination tree (x's parent is the first of them eliminated). Once x's ancestors are
// assigned, the subtree of x is a formula of its own: its clauses are those whose variable
// eliminated first lies in it, and they mention only the subtree and x's bag. So the search goes
// down the tree: it decides x both ways, checks the clauses whose first eliminated variable is x
// (all their variables are assigned then), and takes the product of x's children's values; the
// value of x's subtree depends only on the values of the rest of x's bag, and is remembered under
// them. The form is smooth (every branch of x's decision covers x's subtree) and decomposable
// (sibling subtrees share no variable).
//
// Unlike the bottom-up tables, only the assignments of a bag that the search reaches are
// visited: the clauses above a subtree rule out most of them in a feature model, and the
// compiler makes nodes for those alone (fm3.uvl: the tables' 6.7 million entries gave a DAG
// twice the search's).

import type { CountAlgebra } from './count-algebra.ts';
import { BalancedSeparator } from './separator.ts';
import type { NarrowFormula } from './tree-decomposition.ts';
import { withRoom } from './int32-arrays.ts';

/** A boundary pattern has at most this many bits (its step above them, within 2^53). */
const PATTERN_BITS = 30;

export class TreeSearch<T> {
  private readonly graph = new BalancedSeparator();
  private readonly algebra: CountAlgebra<T>;
  private f!: NarrowFormula;
  /** The counter's variable of each local variable. */
  private varOf!: Int32Array;
  private varAt = 0;
  /** Local variable values while searching: 1 true, 0 false, -1 open. */
  private value = new Int8Array(64);
  private readonly literal = new Int32Array(1);
  private readonly none = new Int32Array(0);
  /** Per step: its children in the elimination tree (CSR) and its memo's offset; per literal, its clauses (CSR). */
  private childStart = new Int32Array(65);
  private childList = new Int32Array(64);
  private occStart = new Int32Array(129);
  private occList = new Int32Array(64);
  /** The literals assigned, local (2v true, 2v + 1 false) and as the counter's literals. */
  private trail = new Int32Array(64);
  private globalTrail = new Int32Array(64);
  private trailSize = 0;
  private head = 0;
  private memoStart = new Int32Array(65);
  private parent = new Int32Array(64);
  private memo: (T | undefined)[] = [];
  /** Values by step and boundary pattern (see boundaries). */
  private readonly patterns = new Map<number, T>();
  private boundaryStart = new Int32Array(65);
  private boundaryList = new Int32Array(64);
  private boundaryFill = new Int32Array(64);
  private stepOfVar = new Int32Array(64);
  private seenStamp = new Int32Array(128);
  private stamp = 0;
  /** The factors of the branches being searched, on a stack. */
  private readonly factors: T[] = [];
  private factorTop = 0;

  constructor(algebra: CountAlgebra<T>) {
    this.algebra = algebra;
  }

  /**
   * The value of the formula's models, its local variable v being the counter's variable
   * varOf[at + v]; null when the min-degree elimination has a bag of more than maxWidth + 1
   * variables or the memos would hold more than maxCost entries (the caller then searches).
   */
  run(f: NarrowFormula, varOf: Int32Array, at: number, maxWidth: number, maxCost: number): T | null {
    const n = f.vars;
    const graph = this.graph;
    graph.reset(n);
    graph.linkClauses(f.clauseStart, f.lits, f.clauses);
    if (!graph.eliminate(maxWidth)) return null;
    const bagStarts = graph.bagStarts();
    const bags = graph.bagItems();
    this.reserve(n, f.clauseStart[f.clauses]!);
    let cost = 0;
    for (let s = 0; s < n; s++) {
      this.memoStart[s] = cost;
      cost += 1 << (bagStarts[s + 1]! - bagStarts[s]! - 1);
    }
    if (cost > maxCost) return null;
    this.memoStart[n] = cost;
    if (this.memo.length < cost) this.memo = new Array<T | undefined>(cost);
    this.memo.fill(undefined, 0, cost);
    // The elimination tree: a step's parent is the first step of the rest of its bag.
    const childCount = this.childStart;
    childCount.fill(0, 0, n + 1);
    for (let s = 0; s < n; s++) {
      let p = n;
      for (let k = bagStarts[s]! + 1; k < bagStarts[s + 1]!; k++) p = Math.min(p, graph.stepOf(bags[k]!));
      this.parent[s] = p;
      childCount[p]++;
    }
    toStarts(childCount, n + 1);
    const fill = this.childStart.slice(0, n + 1);
    for (let s = 0; s < n; s++) this.childList[fill[this.parent[s]!]!++] = s;
    // The clauses of each literal, for the propagation. A clause of fewer than two literals would
    // have been propagated by the caller: such a formula is left to the search.
    const occCount = this.occStart;
    occCount.fill(0, 0, 2 * n + 1);
    for (let c = 0; c < f.clauses; c++) {
      if (f.clauseStart[c + 1]! - f.clauseStart[c]! < 2) return null;
      for (let i = f.clauseStart[c]!; i < f.clauseStart[c + 1]!; i++) occCount[f.lits[i]!]++;
    }
    toStarts(occCount, 2 * n);
    const occFill = this.occStart.slice(0, 2 * n);
    for (let c = 0; c < f.clauses; c++) for (let i = f.clauseStart[c]!; i < f.clauseStart[c + 1]!; i++) this.occList[occFill[f.lits[i]!]!++] = c;
    this.f = f;
    this.boundaries(n);
    this.patterns.clear();
    this.varOf = varOf;
    this.varAt = at;
    this.value.fill(-1, 0, n);
    this.trailSize = 0;
    this.head = 0;
    // The roots (one for a connected formula) are the children of the step past the last.
    const algebra = this.algebra;
    this.factorTop = 0;
    if (!this.children(n)) return algebra.zero;
    if (this.factorTop === 1) return this.factors[0]!;
    let product = algebra.branch(this.none, 0, 0, this.none, 0);
    for (let k = 0; k < this.factorTop; k++) product = algebra.times(product, this.factors[k]!);
    return product;
  }

  /** The value of step s's subtree (its variable open) under the current values of the rest of its bag. */
  private subtree(s: number): T {
    const graph = this.graph;
    const bags = graph.bagItems();
    const from = graph.bagStarts()[s]!;
    const to = graph.bagStarts()[s + 1]!;
    const value = this.value;
    let key = 0;
    for (let k = from + 1; k < to; k++) key |= value[bags[k]!]! << (k - from - 1);
    const slot = this.memoStart[s]! + key;
    const known = this.memo[slot];
    if (known !== undefined) return known;
    const pattern = this.pattern(s);
    if (pattern >= 0) {
      const same = this.patterns.get(pattern);
      if (same !== undefined) {
        this.memo[slot] = same;
        return same;
      }
    }
    const algebra = this.algebra;
    const x = bags[from]!;
    let total = algebra.zero;
    // Deselecting first, as the search does.
    for (let b = 0; b < 2; b++) {
      const mark = this.trailSize;
      this.assign((x << 1) | (b ^ 1));
      if (this.propagate()) {
        const base = this.factorTop;
        if (this.children(s)) {
          let product = algebra.branch(this.globalTrail, mark, this.trailSize, this.none, 0);
          for (let k = base; k < this.factorTop; k++) product = algebra.times(product, this.factors[k]!);
          total = algebra.plus(total, product);
        }
        this.factorTop = base;
      }
      this.undo(mark);
    }
    this.memo[slot] = total;
    if (pattern >= 0) this.patterns.set(pattern, total);
    return total;
  }

  /**
   * Pushes the values of step s's children's subtrees on the factors; false when one is zero. A
   * child whose variable is assigned already (propagated above it) adds no node of its own: its
   * children are taken in.
   */
  private children(s: number): boolean {
    for (let k = this.childStart[s]!, end = this.childStart[s + 1]!; k < end; k++) {
      const c = this.childList[k]!;
      const x = this.graph.bagItems()[this.graph.bagStarts()[c]!]!;
      if (this.value[x] !== -1) {
        if (!this.children(c)) return false;
        continue;
      }
      const value = this.subtree(c);
      if (this.algebra.isZero(value)) return false;
      this.factors[this.factorTop++] = value;
    }
    return true;
  }

  /**
   * The boundary clauses of each step's subtree: those with variables in it and outside it. The
   * rest of the bag acts on the subtree only through whether each of them is satisfied outside
   * the subtree; many assignments of the bag agree on that (a bag variable that no clause links
   * to the subtree, which min-degree elimination often adds, does not count at all), and they
   * share one value. A clause is a boundary clause of the steps from its variable eliminated
   * first up to below its variable eliminated last (all its variables lie on that path).
   */
  private boundaries(n: number): void {
    const { clauseStart, lits, clauses } = this.f;
    const graph = this.graph;
    const stepOf = this.stepOfVar;
    for (let v = 0; v < n; v++) stepOf[v] = graph.stepOf(v);
    const count = this.boundaryStart;
    count.fill(0, 0, n + 1);
    for (let pass = 0; pass < 2; pass++) {
      for (let c = 0; c < clauses; c++) {
        let first = n;
        let last = -1;
        for (let i = clauseStart[c]!; i < clauseStart[c + 1]!; i++) {
          first = Math.min(first, stepOf[lits[i]! >> 1]!);
          last = Math.max(last, stepOf[lits[i]! >> 1]!);
        }
        for (let s = first; s !== last; s = this.parent[s]!) {
          if (pass === 0) count[s]++;
          else this.boundaryList[this.boundaryFill[s]!++] = c;
        }
      }
      if (pass === 0) {
        toStarts(count, n);
        this.boundaryList = withRoom(this.boundaryList, 0, count[n]! + 1);
        this.boundaryFill = withRoom(this.boundaryFill, 0, n + 1);
        this.boundaryFill.set(count.subarray(0, n));
      }
    }
  }

  /**
   * Which of step s's boundary clauses are satisfied outside its subtree, as bits (one clause's
   * part outside the subtree that is a single literal once), or -1 when they take more than
   * PATTERN_BITS bits. Step s in the bits above them.
   */
  private pattern(s: number): number {
    const { clauseStart, lits } = this.f;
    const stepOf = this.stepOfVar;
    const value = this.value;
    const seen = this.seenStamp;
    const stamp = ++this.stamp;
    let bits = 0;
    let bit = 0;
    for (let k = this.boundaryStart[s]!, end = this.boundaryStart[s + 1]!; k < end; k++) {
      const c = this.boundaryList[k]!;
      let outside = 0;
      let only = -1;
      let satisfied = 0;
      for (let i = clauseStart[c]!; i < clauseStart[c + 1]!; i++) {
        const l = lits[i]!;
        if (stepOf[l >> 1]! <= s) continue;
        outside++;
        only = l;
        if (value[l >> 1] === ((l & 1) ^ 1)) satisfied = 1;
      }
      if (outside === 1) {
        if (seen[only] === stamp) continue;
        seen[only] = stamp;
      }
      if (bit === PATTERN_BITS) return -1;
      bits |= satisfied << bit++;
    }
    return s * 2 ** PATTERN_BITS + bits;
  }

  private assign(lit: number): void {
    this.value[lit >> 1] = (lit & 1) ^ 1;
    this.trail[this.trailSize] = lit;
    this.globalTrail[this.trailSize++] = (this.varOf[this.varAt + (lit >> 1)]! << 1) | (lit & 1);
  }

  private undo(to: number): void {
    for (let i = to; i < this.trailSize; i++) this.value[this.trail[i]! >> 1] = -1;
    this.trailSize = to;
    this.head = to;
  }

  /** Unit propagation over the clauses (each looked at in full: they are short); false on a conflict. */
  private propagate(): boolean {
    const { clauseStart, lits } = this.f;
    const value = this.value;
    while (this.head < this.trailSize) {
      const falseLit = this.trail[this.head++]! ^ 1;
      for (let k = this.occStart[falseLit]!, end = this.occStart[falseLit + 1]!; k < end; k++) {
        const c = this.occList[k]!;
        let open = -1;
        let opens = 0;
        let satisfied = false;
        for (let i = clauseStart[c]!, e = clauseStart[c + 1]!; i < e; i++) {
          const l = lits[i]!;
          const v = value[l >> 1]!;
          if (v === -1) {
            open = l;
            opens++;
          } else if (v === ((l & 1) ^ 1)) {
            satisfied = true;
            break;
          }
        }
        if (satisfied || opens > 1) continue;
        if (opens === 0) return false;
        this.assign(open);
      }
    }
    return true;
  }

  private reserve(n: number, lits: number): void {
    if (this.value.length < n) this.value = new Int8Array(2 * n);
    this.childStart = withRoom(this.childStart, 0, n + 2);
    this.childList = withRoom(this.childList, 0, n + 1);
    this.memoStart = withRoom(this.memoStart, 0, n + 2);
    this.boundaryStart = withRoom(this.boundaryStart, 0, n + 2);
    this.stepOfVar = withRoom(this.stepOfVar, 0, n + 1);
    if (this.seenStamp.length < 2 * n + 2) {
      this.seenStamp = new Int32Array(4 * n + 4);
      this.stamp = 0;
    }
    this.parent = withRoom(this.parent, 0, n + 1);
    this.occStart = withRoom(this.occStart, 0, 2 * n + 2);
    this.occList = withRoom(this.occList, 0, lits + 1);
    this.trail = withRoom(this.trail, 0, n + 1);
    this.globalTrail = withRoom(this.globalTrail, 0, n + 1);
  }
}

/** Counts per key into start offsets in place: a[k] becomes the sum of the counts before k (a[size] the total). */
function toStarts(a: Int32Array, size: number): void {
  let sum = 0;
  for (let k = 0; k < size; k++) {
    const c = a[k]!;
    a[k] = sum;
    sum += c;
  }
  a[size] = sum;
}

