// A CDCL SAT solver in the MiniSat line: two watched literals (binary clauses in their own
// implication lists, since feature models are mostly binary), VSIDS branching over a binary heap,
// phase saving, Luby restarts, first-UIP learning with local minimisation, learned-clause
// reduction by LBD and activity, and incremental solving under assumptions that reports the
// failed assumptions as a core. A deadline is checked in the search loop so that no call hangs.
//
// Literals in the API are DIMACS integers (v or -v, v from 1). Inside, a literal is 2v for v and
// 2v+1 for -v, so that `lit ^ 1` is its negation and arrays can be indexed by literal.

import { Deadline } from '../deadline.ts';
export type SolveStatus = 'sat' | 'unsat' | 'timeout';

export type { ExtraPropagator, PropagatorHost } from './propagator.ts';
import type { ExtraPropagator, PropagatorHost } from './propagator.ts';

class Clause {
  lits: Int32Array;
  learnt: boolean;
  activity = 0;
  lbd = 0;
  removed = false;
  /** A reason made when first read (extra propagator): `lits` is empty until then. */
  lazy: (() => Int32Array) | null = null;
  constructor(lits: Int32Array, learnt: boolean) {
    this.lits = lits;
    this.learnt = learnt;
  }
}

const TRUE = 1, FALSE = -1;
const EMPTY = new Int32Array(0);

/** A clause's literals, made first if it is a lazy reason. */
function litsOf(c: Clause): Int32Array {
  if (c.lazy !== null) {
    c.lits = c.lazy();
    c.lazy = null;
  }
  return c.lits;
}

const toInternal = (dimacs: number): number => (dimacs > 0 ? dimacs << 1 : ((-dimacs) << 1) | 1);
const toDimacs = (lit: number): number => (lit & 1 ? -(lit >> 1) : lit >> 1);

/** The i-th element of the Luby sequence 1 1 2 1 1 2 4 1 1 2 ... (i from 0). */
function luby(i: number): number {
  let size = 1;
  let seq = 0;
  while (size < i + 1) {
    seq++;
    size = 2 * size + 1;
  }
  let x = i;
  while (size - 1 !== x) {
    size = (size - 1) >> 1;
    seq--;
    x = x % size;
  }
  return 2 ** seq;
}

export class SatSolver {
  private numVars = 0;
  private capacity = 0;
  private ok = true;

  // Per literal.
  private litVal = new Int8Array(0);
  private watches: Clause[][] = [];
  /** Beside each watch, a literal of the clause: when it is true the clause is skipped unread. */
  private blockers: number[][] = [];
  private binImplied: number[][] = [];
  private binReason: Clause[][] = [];
  // Per variable.
  private level = new Int32Array(0);
  private reason: (Clause | null)[] = [];
  private activity = new Float64Array(0);
  private savedPhase = new Uint8Array(0); // 1: negative
  private nonDecision = new Uint8Array(0); // 1: never branched on (set by propagation)
  private seen = new Uint8Array(0);
  private heap = new Int32Array(0);
  private heapIndex = new Int32Array(0); // -1: not in the heap
  private heapSize = 0;

  private trail = new Int32Array(0);
  private trailSize = 0;
  // Where each decision level starts on the trail; typed and never shrunk, since a call of a
  // large model opens a level per feature and an array trimmed at each restart churns the GC.
  private trailLim = new Int32Array(64);
  private levels = 0;
  private qhead = 0;

  private learnts: Clause[] = [];
  private clauseCount = 0;
  private varInc = 1;
  private clauseInc = 1;
  private maxLearnts = 0;

  private modelValues = new Int8Array(0);
  private clauseBuffer = new Int32Array(16);
  private conflictCore: number[] = [];
  /** Conflicts so far: the search looks at the clock every 256 of them. */
  private conflicts = 0;
  /** Variables decided after the others (deferDecisions), and the first of them that may be unassigned. */
  private deferred = new Int32Array(0);
  private deferredAt = 0;
  /** Every variable below this one is assigned (pickBranch's last scan, from 1 after a backtrack: it was quadratic in Padoa's checks). */
  private scanAt = 1;
  /** Constraints that are not clauses (XOR rows), propagated after the clauses. */
  private extra: ExtraPropagator | null = null;
  private readonly host: PropagatorHost = ((s: SatSolver): PropagatorHost => ({
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

  constructor(numVars = 0) {
    this.ensureVars(numVars);
  }

  get variables(): number {
    return this.numVars;
  }

  newVar(): number {
    this.ensureVars(this.numVars + 1);
    return this.numVars;
  }

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

  private grow(cap: number): void {
    const resize8 = (a: Int8Array, size: number) => {
      const b = new Int8Array(size);
      b.set(a);
      return b;
    };
    const resizeU8 = (a: Uint8Array, size: number) => {
      const b = new Uint8Array(size);
      b.set(a);
      return b;
    };
    const resize32 = (a: Int32Array, size: number) => {
      const b = new Int32Array(size);
      b.set(a);
      return b;
    };
    const resizeF = (a: Float64Array, size: number) => {
      const b = new Float64Array(size);
      b.set(a);
      return b;
    };
    this.litVal = resize8(this.litVal, 2 * cap);
    this.level = resize32(this.level, cap);
    this.activity = resizeF(this.activity, cap);
    this.savedPhase = resizeU8(this.savedPhase, cap);
    this.nonDecision = resizeU8(this.nonDecision, cap);
    this.seen = resizeU8(this.seen, cap);
    this.heap = resize32(this.heap, cap);
    this.heapIndex = resize32(this.heapIndex, cap);
    this.trail = resize32(this.trail, cap);
    this.capacity = cap;
  }

  /**
   * Marks variables the search need not branch on because propagation fixes them once the
   * others are set (the analysis encoding's auxiliary variables). Any left unassigned at the
   * end are still decided, so the answer stays right if that promise does not hold.
   */
  setDecisionVar(v: number, decide: boolean): void {
    this.nonDecision[v] = decide ? 0 : 1;
    if (decide && this.heapIndex[v]! < 0 && this.litVal[v << 1] === 0) this.heapInsert(v);
  }

  /** Propagates constraints that are not clauses beside the clauses (one propagator; null removes it). */
  setPropagator(p: ExtraPropagator | null): void {
    this.cancelUntil(0);
    this.extra = p;
  }

  /**
   * Variables decided only once every other decision variable is set, in this order (the free
   * variables XOR rows set last: sat/xor-gauss.ts).
   */
  deferDecisions(vars: readonly number[]): void {
    for (const v of vars) this.ensureVars(v);
    for (const v of vars) this.nonDecision[v] = 1;
    this.deferred = Int32Array.from(vars);
    this.deferredAt = 0;
  }

  /** Sets the phase tried first for a variable (true: positive). */
  setPhase(v: number, positive: boolean): void {
    this.savedPhase[v] = positive ? 0 : 1;
  }

  /** Adds a clause of DIMACS literals at the top level; false when the formula is now unsatisfiable. */
  addClause(dimacs: ArrayLike<number>): boolean {
    if (!this.ok) return false;
    this.cancelUntil(0);
    // The literals sorted by insertion into a reused buffer: a model's CNF has hundreds of
    // thousands of clauses, nearly all binary, and an array and a sort per clause cost more
    // than the rest of adding it.
    if (dimacs.length > this.clauseBuffer.length) this.clauseBuffer = new Int32Array(2 * dimacs.length);
    const lits = this.clauseBuffer;
    let size = 0;
    for (let i = 0; i < dimacs.length; i++) {
      const d = dimacs[i]!;
      if (!Number.isInteger(d) || d === 0) throw new RangeError(`not a literal: ${d}`);
      const v = Math.abs(d);
      if (v > this.numVars) this.ensureVars(v);
      const l = toInternal(d);
      const val = this.litVal[l]!;
      if (val === TRUE && this.level[v] === 0) return true; // satisfied at the top
      if (val === FALSE && this.level[v] === 0) continue; // false at the top: drop
      let j = size++;
      for (; j > 0 && lits[j - 1]! > l; j--) lits[j] = lits[j - 1]!;
      lits[j] = l;
    }
    let n = 0;
    for (let i = 0; i < size; i++) {
      const l = lits[i]!;
      if (n > 0 && lits[n - 1] === l) continue;
      if (n > 0 && lits[n - 1] === (l ^ 1)) return true; // tautology
      lits[n++] = l;
    }
    if (n === 0) {
      this.ok = false;
      return false;
    }
    if (n === 1) {
      this.assign(lits[0]!, null);
      if (this.propagate() !== null) this.ok = false;
      return this.ok;
    }
    this.attach(new Clause(lits.slice(0, n), false));
    this.clauseCount++;
    return true;
  }

  private attach(c: Clause): void {
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

  private assign(lit: number, from: Clause | null): void {
    const v = lit >> 1;
    this.litVal[lit] = TRUE;
    this.litVal[lit ^ 1] = FALSE;
    this.level[v] = this.levels;
    this.reason[v] = from;
    this.trail[this.trailSize++] = lit;
  }

  private newLevel(): void {
    if (this.levels === this.trailLim.length) {
      const grown = new Int32Array(this.levels * 2);
      grown.set(this.trailLim);
      this.trailLim = grown;
    }
    this.trailLim[this.levels++] = this.trailSize;
  }

  private get decisionLevel(): number {
    return this.levels;
  }

  private cancelUntil(lvl: number): void {
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
  private propagate(): Clause | null {
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
  private propagateClauses(): Clause | null {
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

  /** First-UIP conflict analysis: the learned clause (asserting literal first) and the level to go back to. */
  private analyze(confl: Clause): { learnt: number[]; backtrack: number } {
    const seen = this.seen;
    const out: number[] = [0];
    let pathCount = 0;
    let p = -1;
    let index = this.trailSize - 1;
    let c: Clause | null = confl;
    const current = this.decisionLevel;
    do {
      if (c!.learnt) this.bumpClause(c!);
      const lits = litsOf(c!);
      for (let k = 0; k < lits.length; k++) {
        const q = lits[k]!;
        if (p !== -1 && q === p) continue;
        const v = q >> 1;
        if (seen[v] || this.level[v] === 0) continue;
        seen[v] = 1;
        this.bumpVar(v);
        if (this.level[v]! >= current) pathCount++;
        else out.push(q);
      }
      while (!seen[this.trail[index]! >> 1]) index--;
      p = this.trail[index]!;
      index--;
      c = this.reason[p >> 1]!;
      seen[p >> 1] = 0;
      pathCount--;
    } while (pathCount > 0);
    out[0] = p ^ 1;

    // Local minimisation: a literal whose reason's other literals are all in the clause is redundant.
    // Every literal marked above is unmarked afterwards, the dropped ones included.
    const marked = out.slice(1);
    let n = 1;
    for (let k = 1; k < out.length; k++) {
      const q = out[k]!;
      const r = this.reason[q >> 1];
      let redundant = r !== null;
      if (r) {
        const rl = litsOf(r);
        for (let m = 0; m < rl.length; m++) {
          const x = rl[m]!;
          const xv = x >> 1;
          if (xv === q >> 1) continue;
          if (!seen[xv] && this.level[xv]! > 0) {
            redundant = false;
            break;
          }
        }
      }
      if (!redundant) out[n++] = q;
    }
    out.length = n;
    for (const q of marked) seen[q >> 1] = 0;

    let backtrack = 0;
    if (n > 1) {
      let maxI = 1;
      for (let k = 2; k < n; k++) if (this.level[out[k]! >> 1]! > this.level[out[maxI]! >> 1]!) maxI = k;
      const t = out[1]!;
      out[1] = out[maxI]!;
      out[maxI] = t;
      backtrack = this.level[out[1]! >> 1]!;
    }
    return { learnt: out, backtrack };
  }

  /** The assumptions (as given, DIMACS) responsible for the assumption `p` being false. */
  private analyzeFinal(p: number): number[] {
    const core: number[] = [toDimacs(p ^ 1)];
    if (this.decisionLevel === 0) return core;
    const seen = this.seen;
    seen[p >> 1] = 1;
    for (let i = this.trailSize - 1; i >= this.trailLim[0]!; i--) {
      const x = this.trail[i]!;
      const v = x >> 1;
      if (!seen[v]) continue;
      const r = this.reason[v];
      if (r === null) {
        if (this.level[v]! > 0) core.push(toDimacs(x));
      } else {
        const rl = litsOf(r);
        for (let k = 0; k < rl.length; k++) {
          const w = rl[k]! >> 1;
          if (w !== v && this.level[w]! > 0) seen[w] = 1;
        }
      }
      seen[v] = 0;
    }
    seen[p >> 1] = 0;
    return core;
  }

  private lbd(lits: number[]): number {
    const levels = new Set<number>();
    for (const l of lits) levels.add(this.level[l >> 1]!);
    return levels.size;
  }

  private bumpVar(v: number): void {
    this.activity[v] += this.varInc;
    if (this.activity[v]! > 1e100) {
      for (let u = 1; u <= this.numVars; u++) this.activity[u] *= 1e-100;
      this.varInc *= 1e-100;
    }
    const i = this.heapIndex[v]!;
    if (i >= 0) this.heapUp(i);
  }

  private bumpClause(c: Clause): void {
    c.activity += this.clauseInc;
    if (c.activity > 1e20) {
      for (const l of this.learnts) l.activity *= 1e-20;
      this.clauseInc *= 1e-20;
    }
  }

  private reduceLearnts(): void {
    const locked = (c: Clause) => {
      const l0 = c.lits[0]!;
      return this.reason[l0 >> 1] === c && this.litVal[l0] === TRUE;
    };
    const sorted = this.learnts.slice().sort((a, b) => (a.lbd !== b.lbd ? b.lbd - a.lbd : a.activity - b.activity));
    const limit = sorted.length >> 1;
    let removed = 0;
    for (const c of sorted) {
      if (removed >= limit) break;
      if (c.lbd <= 2 || locked(c)) continue;
      c.removed = true;
      removed++;
    }
    this.learnts = this.learnts.filter((c) => !c.removed);
  }

  // Binary max-heap of variables by activity.
  private heapLess(a: number, b: number): boolean {
    return this.activity[a]! > this.activity[b]!;
  }
  private heapUp(i: number): void {
    const heap = this.heap;
    const v = heap[i]!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pv = heap[parent]!;
      if (!this.heapLess(v, pv)) break;
      heap[i] = pv;
      this.heapIndex[pv] = i;
      i = parent;
    }
    heap[i] = v;
    this.heapIndex[v] = i;
  }
  private heapDown(i: number): void {
    const heap = this.heap;
    const v = heap[i]!;
    const size = this.heapSize;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      if (child + 1 < size && this.heapLess(heap[child + 1]!, heap[child]!)) child++;
      if (!this.heapLess(heap[child]!, v)) break;
      heap[i] = heap[child]!;
      this.heapIndex[heap[i]!] = i;
      i = child;
    }
    heap[i] = v;
    this.heapIndex[v] = i;
  }
  private heapInsert(v: number): void {
    const i = this.heapSize++;
    this.heap[i] = v;
    this.heapIndex[v] = i;
    this.heapUp(i);
  }
  private heapPop(): number {
    const top = this.heap[0]!;
    this.heapIndex[top] = -1;
    this.heapSize--;
    if (this.heapSize > 0) {
      const last = this.heap[this.heapSize]!;
      this.heap[0] = last;
      this.heapIndex[last] = 0;
      this.heapDown(0);
    }
    return top;
  }

  private pickBranch(): number {
    while (this.heapSize > 0) {
      const v = this.heapPop();
      if (this.nonDecision[v]) continue;
      if (this.litVal[v << 1] === 0) return (v << 1) | this.savedPhase[v]!;
    }
    for (; this.deferredAt < this.deferred.length; this.deferredAt++) {
      const v = this.deferred[this.deferredAt]!;
      if (this.litVal[v << 1] === 0) return (v << 1) | this.savedPhase[v]!;
    }
    for (; this.scanAt <= this.numVars; this.scanAt++) {
      if (this.litVal[this.scanAt << 1] === 0) return (this.scanAt << 1) | this.savedPhase[this.scanAt]!;
    }
    return -1;
  }

  /**
   * Solves under the given assumptions (DIMACS literals). 'timeout' when the deadline passed
   * first. After 'unsat', failedAssumptions() gives a subset of the assumptions that is
   * unsatisfiable with the clauses (empty when the clauses alone are).
   */
  solve(assumptions: ArrayLike<number> = [], deadline: Deadline = Deadline.none()): SolveStatus {
    this.conflictCore = [];
    if (!this.ok) return 'unsat';
    // Operations make thousands of short calls: each one checks the clock before it starts.
    if (deadline.expired()) return 'timeout';
    const assume: number[] = [];
    for (let i = 0; i < assumptions.length; i++) {
      const d = assumptions[i]!;
      if (Math.abs(d) > this.numVars) this.ensureVars(Math.abs(d));
      assume.push(toInternal(d));
    }
    this.cancelUntil(0);
    if (this.propagate() !== null) {
      this.ok = false;
      return 'unsat';
    }
    if (this.maxLearnts === 0) this.maxLearnts = Math.max(2000, this.clauseCount / 3);
    let restart = 0;
    for (;;) {
      const budget = luby(restart++) * 100;
      const status = this.search(budget, assume, deadline);
      if (status !== undefined) {
        this.cancelUntil(0);
        return status;
      }
      if (deadline.expired()) {
        this.cancelUntil(0);
        return 'timeout';
      }
    }
  }

  private search(budget: number, assume: number[], deadline: Deadline): SolveStatus | undefined {
    let sinceRestart = 0;
    let steps = 0;
    for (;;) {
      const confl = this.propagate();
      if (confl !== null) {
        this.conflicts++;
        sinceRestart++;
        if (this.decisionLevel === 0) {
          this.ok = false;
          return 'unsat';
        }
        const { learnt, backtrack } = this.analyze(confl);
        this.cancelUntil(backtrack);
        if (learnt.length === 1) {
          this.assign(learnt[0]!, null);
        } else {
          const c = new Clause(Int32Array.from(learnt), true);
          c.lbd = this.lbd(learnt);
          this.attach(c);
          if (learnt.length > 2) this.learnts.push(c);
          this.bumpClause(c);
          this.assign(learnt[0]!, c);
        }
        this.varInc /= 0.95;
        this.clauseInc /= 0.999;
        if ((this.conflicts & (this.extra ? 15 : 255)) === 0 && deadline.expired()) return 'timeout';
        continue;
      }
      if (sinceRestart >= budget) return undefined; // restart
      if ((++steps & (this.extra ? 63 : 4095)) === 0 && deadline.expired()) return 'timeout'; // a step with XOR rows can take ms
      if (this.learnts.length >= this.maxLearnts + this.trailSize) {
        this.reduceLearnts();
        this.maxLearnts *= 1.1;
      }
      let next = -1;
      while (this.decisionLevel < assume.length) {
        const a = assume[this.decisionLevel]!;
        const val = this.litVal[a];
        if (val === TRUE) {
          this.newLevel(); // a level of its own keeps levels aligned with assumptions
        } else if (val === FALSE) {
          this.conflictCore = this.analyzeFinal(a ^ 1);
          return 'unsat';
        } else {
          next = a;
          break;
        }
      }
      if (next === -1) {
        next = this.pickBranch();
        if (next === -1) {
          this.saveModel();
          return 'sat';
        }
      }
      this.newLevel();
      this.assign(next, null);
    }
  }

  private saveModel(): void {
    if (this.modelValues.length < this.numVars + 1) this.modelValues = new Int8Array(this.numVars + 1);
    for (let v = 1; v <= this.numVars; v++) this.modelValues[v] = this.litVal[v << 1]!;
  }

  /** The value of a variable in the last model found. */
  modelValue(v: number): boolean {
    return this.modelValues[v] === TRUE;
  }

  /** The last model: index v holds 1 (true) or -1 (false). */
  model(): Int8Array {
    return this.modelValues.slice(0, this.numVars + 1);
  }

  failedAssumptions(): number[] {
    return this.conflictCore.slice();
  }

  /** The assumption of each level that impliedLiterals left on the trail (reused by its next call). */
  private probeLevels: number[] = [];

  /**
   * The literals unit propagation derives from the assumptions above the top level (DIMACS: the
   * assumptions and what they imply, not the top-level units), or null when propagation meets a
   * conflict. No search: cheap, and a sound under-approximation of what the assumptions imply
   * (configurator, t-wise sampling). The levels stay on the trail until the next call, which
   * keeps the longest prefix of assumptions the two calls share: probing many extensions of the
   * same assumptions propagates those once. Every other entry point starts from level 0.
   * With `from`, only what the assumptions from index `from` on added.
   */
  impliedLiterals(assumptions: ArrayLike<number>, from = 0): number[] | null {
    if (!this.ok) return null;
    let keep = 0;
    const levels = this.levels === this.probeLevels.length ? this.probeLevels.length : 0;
    while (keep < levels && keep < assumptions.length && this.probeLevels[keep] === assumptions[keep]) keep++;
    this.cancelUntil(keep);
    while (this.probeLevels.length > keep) this.probeLevels.pop();
    if (keep === 0 && this.propagate() !== null) {
      this.ok = false;
      return null;
    }
    for (let i = keep; i < assumptions.length; i++) {
      const d = assumptions[i]!;
      if (Math.abs(d) > this.numVars) this.ensureVars(Math.abs(d));
      const l = toInternal(d);
      let conflict = this.litVal[l] === FALSE;
      if (!conflict) {
        // One level per assumption, even one already true, so that levels match assumptions.
        this.newLevel();
        this.probeLevels.push(d);
        if (this.litVal[l] === 0) {
          this.assign(l, null);
          conflict = this.propagate() !== null;
        }
      }
      if (conflict) {
        this.cancelUntil(0);
        this.probeLevels.length = 0;
        return null;
      }
    }
    const out: number[] = [];
    for (let i = from < this.levels ? this.trailLim[from]! : this.trailSize; i < this.trailSize; i++) out.push(toDimacs(this.trail[i]!));
    return out;
  }

  /** The value a literal has now, on the levels impliedLiterals left: 1, -1 or 0 (unassigned). */
  currentValue(dimacs: number): number {
    const v = Math.abs(dimacs);
    return v > this.numVars ? 0 : this.litVal[toInternal(dimacs)]!;
  }

  /** The value a literal has at the top level (after the unit clauses): 1, -1 or 0 (unknown). */
  topValue(dimacs: number): number {
    const v = Math.abs(dimacs);
    if (v > this.numVars) return 0;
    const l = toInternal(dimacs);
    if (this.level[v] !== 0 || this.litVal[l] === 0) return 0;
    return this.litVal[l]!;
  }
}
