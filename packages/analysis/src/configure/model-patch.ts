// A cheap way to a new model near a known one. A full SAT call assigns every variable (about
// 20 ms on automotive2_4's 18 600 features), yet flipping one feature of a model usually changes
// a few others: its parent, a sibling of its group, a constraint's auxiliary variable. So the
// model is patched instead: unit propagation of the assumptions and the flipped literal gives
// what must change; the patched model is checked on the clauses of the changed variables only;
// an unsatisfied clause gets one of its free literals as an extra assumption, a few rounds at
// most. When that fails the caller makes the full SAT call: nothing is ever guessed.

import type { SatSolver } from '../sat/solver.ts';

const ROUNDS = 50;

export class ModelPatcher {
  private readonly clauseStart: Int32Array;
  private readonly clauseLits: Int32Array;
  /** Clauses of each internal literal (2v, 2v+1 for -v), as offsets into occurrences. */
  private readonly occStart: Int32Array;
  private readonly occurrences: Int32Array;
  /** The model patches start from; a patch is tried on it in place and undone unless committed. */
  private base: Int8Array = new Int8Array(0);

  constructor(numVars: number, clauses: number[][]) {
    let total = 0;
    for (const c of clauses) total += c.length;
    this.clauseStart = new Int32Array(clauses.length + 1);
    this.clauseLits = new Int32Array(total);
    const occCount = new Int32Array(2 * numVars + 3);
    let k = 0;
    clauses.forEach((c, i) => {
      this.clauseStart[i] = k;
      for (const l of c) {
        this.clauseLits[k++] = l;
        occCount[internal(l) + 1]!++;
      }
    });
    this.clauseStart[clauses.length] = k;
    for (let i = 1; i < occCount.length; i++) occCount[i]! += occCount[i - 1]!;
    this.occStart = occCount.slice();
    this.occurrences = new Int32Array(total);
    const fill = occCount;
    clauses.forEach((c, i) => {
      for (const l of c) this.occurrences[fill[internal(l)]!++] = i;
    });
  }

  /** The model (model[v] is 1 or -1 for every variable) the next patches start from; commit() changes it in place. */
  setBase(model: Int8Array): void {
    this.base = model;
  }

  /** Makes a patch's changes (from patch()) part of the base model, in place. */
  commit(changed: number[]): void {
    for (const v of changed) this.base[v] = -this.base[v]!;
  }

  /**
   * A model that has every assumption literal and otherwise the base model's values where it
   * can, as the list of variables whose value differs from the base; null when the patch did
   * not succeed within a few rounds (the assumptions may still be satisfiable). The first
   * `shared` assumptions hold in the base model (with all they imply): they are not looked at.
   * The base is as it was on return.
   */
  patch(solver: SatSolver, assumptions: number[], shared = 0): number[] | null {
    const extra: number[] = [];
    const value = this.base;
    for (let round = 0; round < ROUNDS; round++) {
      const implied = solver.impliedLiterals(extra.length === 0 ? assumptions : [...assumptions, ...extra], shared);
      if (implied === null) return null;
      const changed: number[] = [];
      for (const l of implied) {
        const v = l > 0 ? l : -l;
        const s = l > 0 ? 1 : -1;
        if (value[v] !== s) {
          value[v] = s;
          changed.push(v);
        }
      }
      const broken = this.unsatisfiedClause(changed);
      for (const v of changed) value[v] = -value[v]!;
      if (broken < 0) return changed;
      const free = this.freeLiteral(solver, broken);
      if (free === 0) return null;
      extra.push(free);
    }
    return null;
  }

  /** A clause false under the patched values among those of the literals the changes made false; -1 when none. */
  private unsatisfiedClause(changed: number[]): number {
    const value = this.base;
    for (const v of changed) {
      const li = internal(value[v]! > 0 ? -v : v);
      for (let o = this.occStart[li]!; o < this.occStart[li + 1]!; o++) {
        const c = this.occurrences[o]!;
        let satisfied = false;
        for (let k = this.clauseStart[c]!; k < this.clauseStart[c + 1]! && !satisfied; k++) {
          const l = this.clauseLits[k]!;
          satisfied = value[Math.abs(l)] === (l > 0 ? 1 : -1);
        }
        if (!satisfied) return c;
      }
    }
    return -1;
  }

  /** A literal of the clause whose variable propagation left free (it can be made true); 0 when none. */
  private freeLiteral(solver: SatSolver, clause: number): number {
    for (let k = this.clauseStart[clause]!; k < this.clauseStart[clause + 1]!; k++) {
      const l = this.clauseLits[k]!;
      if (solver.currentValue(l) === 0) return l;
    }
    return 0;
  }
}

const internal = (l: number): number => (l > 0 ? 2 * l : -2 * l + 1);
