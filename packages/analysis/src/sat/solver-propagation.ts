// The SAT solver's assignment (solver.ts): the variables and their growth, the clauses' watches and
// binary implication lists, the trail with its decision levels, and unit propagation of the
// clauses and of an extra propagator (XOR rows).

import { Clause, EMPTY, FALSE, TRUE } from './solver-clause.ts';
import { DecisionOrder } from './solver-order.ts';
import type { ExtraPropagator, PropagatorHost } from './propagator.ts';

export class PropagationState extends DecisionOrder {
  protected capacity = 0;
  protected ok = true;

  // Per literal.
  protected watches: Clause[][] = [];
  /** Beside each watch, a literal of the clause: when it is true the clause is skipped unread. */
  protected blockers: number[][] = [];
  protected binImplied: number[][] = [];
  protected binReason: Clause[][] = [];
  // Per variable.
  protected level = new Int32Array(0);
  protected reason: (Clause | null)[] = [];
  protected seen = new Uint8Array(0);

  protected trail = new Int32Array(0);
  protected trailSize = 0;
  // Where each decision level starts on the trail; typed and never shrunk, since a call of a
  // large model opens a level per feature and an array trimmed at each restart churns the GC.
  protected trailLim = new Int32Array(64);
  protected levels = 0;
  protected qhead = 0;
  /** Constraints that are not clauses (XOR rows), propagated after the clauses. */
  protected extra: ExtraPropagator | null = null;
  protected readonly host: PropagatorHost = ((s: PropagationState): PropagatorHost => ({
    get trailSize(): number { return s.trailSize; },
    trailLit: (i) => s.trail[i]!,
    value: (lit) => s.litVal[lit]!,
    imply: (lit, reason) => {
      if (typeof reason !== 'function') return s.assign(lit, new Clause(reason, false));
      const c = new Clause(EMPTY, false);
      c.lazy = reason;
      s.assign(lit, c);
    },
  }))(this);

  /** Makes variables 1..n exist. */
  ensureVars(n: number): void {
    if (n <= this.numVars) return;
    if (n + 1 > this.capacity) this.grow(Math.max(n + 1, this.capacity * 2, 16));
    for (let v = this.numVars + 1; v <= n; v++) {
      this.watches[2 * v] = [];
      this.watches[2 * v + 1] = [];
      this.blockers[2 * v] = [];
      this.blockers[2 * v + 1] = [];
      this.binImplied[2 * v] = [];
      this.binImplied[2 * v + 1] = [];
      this.binReason[2 * v] = [];
      this.binReason[2 * v + 1] = [];
      this.reason[v] = null;
      this.savedPhase[v] = 1;
      this.heapIndex[v] = -1;
      this.heapInsert(v);
    }
    this.numVars = n;
  }

  protected grow(cap: number): void {
    this.litVal = resized(this.litVal, 2 * cap);
    this.level = resized(this.level, cap);
    this.activity = resized(this.activity, cap);
    this.savedPhase = resized(this.savedPhase, cap);
    this.nonDecision = resized(this.nonDecision, cap);
    this.seen = resized(this.seen, cap);
    this.heap = resized(this.heap, cap);
    this.heapIndex = resized(this.heapIndex, cap);
    this.trail = resized(this.trail, cap);
    this.capacity = cap;
  }

  protected attach(c: Clause): void {
    const lits = c.lits;
    if (lits.length === 2) {
      const a = lits[0]!;
      const b = lits[1]!;
      this.binImplied[a ^ 1]!.push(b);
      this.binReason[a ^ 1]!.push(c);
      this.binImplied[b ^ 1]!.push(a);
      this.binReason[b ^ 1]!.push(c);
    } else {
      this.watches[lits[0]!]!.push(c);
      this.blockers[lits[0]!]!.push(lits[1]!);
      this.watches[lits[1]!]!.push(c);
      this.blockers[lits[1]!]!.push(lits[0]!);
    }
  }

  protected assign(lit: number, from: Clause | null): void {
    const v = lit >> 1;
    this.litVal[lit] = TRUE;
    this.litVal[lit ^ 1] = FALSE;
    this.level[v] = this.levels;
    this.reason[v] = from;
    this.trail[this.trailSize++] = lit;
  }

  protected newLevel(): void {
    if (this.levels === this.trailLim.length) {
      const grown = new Int32Array(this.levels * 2);
      grown.set(this.trailLim);
      this.trailLim = grown;
    }
    this.trailLim[this.levels++] = this.trailSize;
  }

  protected get decisionLevel(): number {
    return this.levels;
  }

  protected cancelUntil(lvl: number): void {
    if (this.levels <= lvl) return;
    const stop = this.trailLim[lvl]!;
    if (this.extra !== null) this.extra.backtrack(stop, this.host);
    this.deferredAt = 0, this.scanAt = 1;
    for (let i = this.trailSize - 1; i >= stop; i--) {
      const lit = this.trail[i]!;
      const v = lit >> 1;
      this.litVal[lit] = 0;
      this.litVal[lit ^ 1] = 0;
      this.reason[v] = null;
      this.savedPhase[v] = lit & 1;
      if (this.heapIndex[v]! < 0 && !this.nonDecision[v]) this.heapInsert(v);
    }
    this.trailSize = stop;
    this.qhead = stop;
    this.levels = lvl;
  }

  /** Unit propagation of the clauses and of the extra propagator until neither sets anything; returns the conflicting clause or null. */
  protected propagate(): Clause | null {
    if (this.extra === null) return this.propagateClauses();
    for (;;) {
      const confl = this.propagateClauses();
      if (confl !== null) return confl;
      const before = this.trailSize;
      const lits = this.extra.propagate(this.host);
      if (lits !== null) {
        this.qhead = this.trailSize;
        // A conflict found late (none of its literals set at this level): analysed where it arose.
        let top = 0;
        for (let i = 0; i < lits.length; i++) top = Math.max(top, this.level[lits[i]! >> 1]!);
        if (top < this.levels) this.cancelUntil(top);
        return new Clause(lits, false);
      }
      if (this.trailSize === before) return null;
    }
  }

  /** Unit propagation of the clauses; returns the conflicting clause or null. */
  protected propagateClauses(): Clause | null {
    const litVal = this.litVal;
    while (this.qhead < this.trailSize) {
      const p = this.trail[this.qhead++]!;
      // Binary clauses: p true makes each implied literal true.
      const implied = this.binImplied[p]!;
      for (let i = 0; i < implied.length; i++) {
        const q = implied[i]!;
        const val = litVal[q]!;
        if (val === TRUE) continue;
        if (val === FALSE) {
          this.qhead = this.trailSize;
          return this.binReason[p]![i]!;
        }
        this.assign(q, this.binReason[p]![i]!);
      }
      // Longer clauses watching the literal that just became false.
      const falseLit = p ^ 1;
      const ws = this.watches[falseLit]!;
      const bs = this.blockers[falseLit]!;
      let i = 0;
      let j = 0;
      const n = ws.length;
      while (i < n) {
        const blocker = bs[i]!;
        const c = ws[i++]!;
        if (litVal[blocker] === TRUE) {
          ws[j] = c;
          bs[j++] = blocker;
          continue;
        }
        if (c.removed) continue;
        const lits = c.lits;
        if (lits[0] === falseLit) {
          lits[0] = lits[1]!;
          lits[1] = falseLit;
        }
        const first = lits[0]!;
        if (first !== blocker && litVal[first] === TRUE) {
          ws[j] = c;
          bs[j++] = first;
          continue;
        }
        let moved = false;
        for (let k = 2; k < lits.length; k++) {
          const l = lits[k]!;
          if (litVal[l] !== FALSE) {
            lits[1] = l;
            lits[k] = falseLit;
            this.watches[l]!.push(c);
            this.blockers[l]!.push(first);
            moved = true;
            break;
          }
        }
        if (moved) continue;
        ws[j] = c;
        bs[j++] = first;
        if (litVal[first] === FALSE) {
          while (i < n) {
            ws[j] = ws[i]!;
            bs[j++] = bs[i++]!;
          }
          ws.length = j;
          bs.length = j;
          this.qhead = this.trailSize;
          return c;
        }
        this.assign(first, c);
      }
      if (j !== n) {
        // Only when a clause moved away: setting an array's length is not free.
        ws.length = j;
        bs.length = j;
      }
    }
    return null;
  }
}

/** A copy of `array` in a new array of `size` items of the same type (a solver's per-variable arrays, grown). */
function resized<A extends Int8Array | Uint8Array | Int32Array | Float64Array>(array: A, size: number): A {
  const bigger = new (array.constructor as new (length: number) => A)(size);
  bigger.set(array);
  return bigger;
}
