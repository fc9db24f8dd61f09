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
  /** Models found, and log2 of the largest class one stood for. */
  models = 0;
  largestClass = 0;

  constructor(numVars: number, clauses: readonly (readonly number[])[], private readonly support: readonly number[], rows: readonly Uint32Array[], featureVars: number) {
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
    this.gauss = new XorGauss(numVars, xors, { cost });
    this.empty = this.gauss.inconsistent;
    if (this.empty) return;
    this.solver.setPropagator(this.gauss);
    this.solver.deferDecisions(this.free);
    // Features on first: a free leaf is open only under a selected parent.
    for (let v = 1; v <= featureVars; v++) this.solver.setPhase(v, true);
  }

  /** Solutions, distinct on the support, up to `limit` (or a little past it); null on timeout. */
  count(limit: number, deadline: Deadline): number | null {
    let found = 0;
    if (this.empty) return 0;
    const solver = this.solver;
    const value = (l: number) => solver.modelValue(Math.abs(l)) === l > 0;
    const open = new Uint8Array(this.isSupport.length);
    while (found < limit) {
      const status = solver.solve([], deadline);
      if (status === 'timeout') return null;
      if (status === 'unsat') break;
      this.models++;
      // The open free variables: each clause holding one is true without it.
      const opened: number[] = [];
      for (const v of this.free) {
        if (this.occurs[v]!.every((c) => c.some((l) => Math.abs(l) !== v && value(l)))) {
          open[v] = 1;
          opened.push(v);
        }
      }
      const dimension = opened.length - this.gauss.rankOver(opened);
      this.largestClass = Math.max(this.largestClass, dimension);
      found += dimension >= 30 ? limit : 2 ** dimension;
      const clause: number[] = [];
      for (let v = 1; v < open.length; v++) if (this.isSupport[v] && !open[v]) clause.push(value(v) ? -v : v);
      for (const v of opened) open[v] = 0;
      if (!solver.addClause(clause)) break;
    }
    return Math.min(found, limit);
  }
}
