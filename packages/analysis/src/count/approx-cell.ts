// One cell of ApproxMC: the solutions of the formula and the first m XOR rows of a hash, counted
// up to a threshold, distinct on the support. The solver propagates the rows natively by
// Gauss-Jordan elimination (sat/xor-gauss.ts).
//
// Free variables make the cells tractable. A support variable that occurs in one polarity only,
// in clauses with no other such variable (an optional leaf: only "v implies its parent"), takes
// any value once the clauses it occurs in are satisfied by other literals. Those are decided
// last and are the rows' first basic columns, so the rows set them at the end, where no clause
// objects (dense rows otherwise set constrained variables, which conflicts nearly always).
// And a model counts for a whole class: with everything but its open free variables O fixed, the
// completions are the solutions of the rows over O, an affine space of 2^(|O| - rank) points.
// One blocking clause over the rest of the support removes the class (classes are disjoint: the
// other variables fix which free variables are open).

import { Deadline } from '../deadline.ts';
import { SatSolver } from '../sat/solver.ts';
import { XorGauss, type XorRow } from '../sat/xor-gauss.ts';

/** Bit i of a hash row. */
export const bit = (row: Uint32Array, i: number): boolean => (row[i >>> 5]! & (1 << (i & 31))) !== 0;

/** Support variables that occur in one polarity only, in clauses with no other of them. */
export function freeVariables(numVars: number, clauses: readonly (readonly number[])[], support: readonly number[]): number[] {
  const pos = new Int32Array(numVars + 1);
  const neg = new Int32Array(numVars + 1);
  for (const c of clauses) for (const l of c) (l > 0 ? pos : neg)[Math.abs(l)]++;
  const candidate = new Uint8Array(numVars + 1);
  for (const v of support) if (pos[v] === 0 || neg[v] === 0) candidate[v] = 1;
  const shared = new Uint8Array(numVars + 1);
  for (const c of clauses) {
    let k = 0;
    for (const l of c) if (candidate[Math.abs(l)]) k++;
    if (k > 1) for (const l of c) shared[Math.abs(l)] = 1;
  }
  return support.filter((v) => candidate[v] && !shared[v]);
}

/**
 * The free variables, then (greedily, in the support's order) every other support variable that
 * shares no clause with one already taken. What counts for the classes is only that no two of
 * them share a clause: one whose clauses are all true without it takes either value, and which
 * of them are so depends on the other variables alone.
 */
export function independentVariables(numVars: number, clauses: readonly (readonly number[])[], support: readonly number[]): number[] {
  const taken = new Uint8Array(numVars + 1);
  const blocked = new Uint8Array(numVars + 1);
  const occurs: (readonly number[])[][] = Array.from({ length: numVars + 1 }, () => []);
  for (const c of clauses) for (const l of c) occurs[Math.abs(l)]!.push(c);
  const out: number[] = [];
  const take = (v: number) => {
    taken[v] = 1;
    out.push(v);
    for (const c of occurs[v]!) for (const l of c) blocked[Math.abs(l)] = 1;
  };
  for (const v of freeVariables(numVars, clauses, support)) take(v);
  for (const v of support) if (!taken[v] && !blocked[v]) take(v);
  return out;
}

/** A solver of the formula and the first m rows: the cell's solutions are its models. */
export class Cell {
  readonly solver: SatSolver;
  /** The rows contradict one another: the cell is empty. */
  readonly empty: boolean;
  private readonly gauss: XorGauss;
  private readonly free: number[];
  /** Per free variable, the clauses it occurs in. */
  private readonly occurs: (readonly number[])[][];
  private readonly isSupport: Uint8Array;
  private readonly open: Uint8Array;
  /** Models found, and log2 of the largest class one stood for. */
  models = 0;
  largestClass = 0;

  constructor(numVars: number, clauses: readonly (readonly number[])[], private readonly support: readonly number[], rows: readonly Uint32Array[], featureVars: number, deadline: Deadline = Deadline.none()) {
    this.solver = new SatSolver(numVars);
    for (const c of clauses) this.solver.addClause(c);
    for (let v = featureVars + 1; v <= numVars; v++) this.solver.setDecisionVar(v, false);
    const n = support.length;
    const xors: XorRow[] = rows.map((row) => {
      const vars: number[] = [];
      for (let i = 0; i < n; i++) if (bit(row, i)) vars.push(support[i]!);
      return { vars, parity: bit(row, n) };
    });
    this.free = independentVariables(numVars, clauses, support);
    const cost = new Int32Array(numVars + 1).fill(1);
    for (const v of this.free) cost[v] = 0;
    this.occurs = Array.from({ length: numVars + 1 }, () => []);
    for (const c of clauses) for (const l of c) if (cost[Math.abs(l)] === 0) this.occurs[Math.abs(l)]!.push(c);
    this.isSupport = new Uint8Array(numVars + 1);
    for (const v of support) this.isSupport[v] = 1;
    this.open = new Uint8Array(numVars + 1);
    this.gauss = new XorGauss(numVars, xors, { cost, deadline });
    this.empty = this.gauss.inconsistent;
    if (this.empty) return;
    this.solver.setPropagator(this.gauss);
    this.solver.deferDecisions(this.free);
    // Features on first: a free leaf is open only under a selected parent.
    for (let v = 1; v <= featureVars; v++) this.solver.setPhase(v, true);
  }

  /**
   * Solutions, distinct on the support, up to `limit` (or a little past it); null on timeout.
   * `seeds`: models of the formula already found (in other cells of the same hash), each
   * counted for its class here when it satisfies this cell's rows (`inCell`) and is not in the
   * class of one counted before it; the solver then looks only for the others. Every model the
   * solver finds is added to `found`.
   */
  count(limit: number, deadline: Deadline, seeds: readonly Int8Array[] = [], inCell: (model: Int8Array) => boolean = () => true): number | null {
    let found = 0;
    if (this.empty) return 0;
    const solver = this.solver;
    const taken: Int8Array[] = [];
    for (const seed of seeds) {
      if (found >= limit) break;
      if (!inCell(seed) || taken.some((_, i) => this.sameClass(seed, this.blocking[i]!))) continue;
      taken.push(seed);
      found += this.take((l) => (seed[Math.abs(l)]! > 0) === l > 0, limit);
      if (!solver.addClause(this.blocking[this.blocking.length - 1]!)) return Math.min(found, limit);
    }
    while (found < limit) {
      const status = solver.solve([], deadline);
      if (status === 'timeout') return null;
      if (status === 'unsat') break;
      this.models++;
      this.found.push(solver.model());
      found += this.take((l) => solver.modelValue(Math.abs(l)) === l > 0, limit);
      if (!solver.addClause(this.blocking[this.blocking.length - 1]!)) break;
    }
    return Math.min(found, limit);
  }

  /** Models the solver found (index v: 1 true, -1 false). */
  readonly found: Int8Array[] = [];
  /** The blocking clause of each class counted, in order. */
  private readonly blocking: number[][] = [];

  /** A model that falsifies the blocking clause of a class is in that class. */
  private sameClass(model: Int8Array, clause: readonly number[]): boolean {
    return clause.every((l) => (model[Math.abs(l)]! > 0) !== l > 0);
  }

  /** The class of the model `value` reads: its size in this cell (capped at `limit`), and its blocking clause kept. */
  private take(value: (l: number) => boolean, limit: number): number {
    // The open free variables: each clause holding one is true without it.
    const opened: number[] = [];
    for (const v of this.free) {
      if (this.occurs[v]!.every((c) => c.some((l) => Math.abs(l) !== v && value(l)))) {
        this.open[v] = 1;
        opened.push(v);
      }
    }
    const dimension = opened.length - this.gauss.rankOver(opened);
    this.largestClass = Math.max(this.largestClass, dimension);
    const clause: number[] = [];
    for (let v = 1; v < this.open.length; v++) if (this.isSupport[v] && !this.open[v]) clause.push(value(v) ? -v : v);
    for (const v of opened) this.open[v] = 0;
    this.blocking.push(clause);
    return dimension >= 30 ? limit : 2 ** dimension;
  }
}
