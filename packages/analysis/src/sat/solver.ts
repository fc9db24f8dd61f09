// A CDCL SAT solver in the MiniSat line: two watched literals (binary clauses in their own
// implication lists, since feature models are mostly binary), VSIDS branching over a binary heap,
// phase saving, Luby restarts, first-UIP learning with local minimisation, learned-clause
// reduction by LBD and activity, and incremental solving under assumptions that reports the
// failed assumptions as a core. A deadline is checked in the search loop so that no call hangs.
//
// The solver is one class in layers, each extending the one before: branching order
// (solver-order.ts), assignment and propagation (solver-propagation.ts), conflict analysis and
// the learned clauses (solver-learning.ts), and here the API, restarts and the search loop;
// clauses and literals are in solver-clause.ts.
//
// Literals in the API are DIMACS integers (v or -v, v from 1). Inside, a literal is 2v for v and
// 2v+1 for -v, so that `lit ^ 1` is its negation and arrays can be indexed by literal.

import { Deadline } from '../deadline.ts';
import { Clause, FALSE, TRUE, toDimacs, toInternal } from './solver-clause.ts';
import { ConflictLearning } from './solver-learning.ts';
export type SolveStatus = 'sat' | 'unsat' | 'timeout';

export type { ExtraPropagator, PropagatorHost } from './propagator.ts';
import type { ExtraPropagator } from './propagator.ts';

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

export class SatSolver extends ConflictLearning {
  private modelValues = new Int8Array(0);
  private clauseBuffer = new Int32Array(16);
  private conflictCore: number[] = [];
  /** Conflicts so far: the search looks at the clock every 256 of them. */
  private conflicts = 0;

  constructor(numVars = 0) {
    super();
    this.ensureVars(numVars);
  }

  get variables(): number {
    return this.numVars;
  }

  newVar(): number {
    this.ensureVars(this.numVars + 1);
    return this.numVars;
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
