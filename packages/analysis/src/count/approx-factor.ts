// The approximate count split into what can be counted exactly and what must be estimated
// (extensions 6a). Once the backbone and top-level propagation have fixed what they fix, a
// model's formula falls into connected components over disjoint variables, and its count is the
// product of theirs. Components the exact counter (count/counter.ts) finishes within a small
// budget are counted exactly; the others are put together into one formula that ApproxMC
// estimates. An exact factor E times an estimate X of the rest R keeps the guarantee unchanged:
// X within a factor (1 + ε) of R with probability at least 1 - δ is the same event as E·X within
// (1 + ε) of E·R. The rest is one formula, not one estimate per component, so ε and δ need no
// splitting.
//
// automotive2_4 after its backbone: 1 143 components of at most 1 097 variables (and 809
// features in no clause); linux-2.6.33.3: one of 8 226 variables (5 399 features) and 103 small.
//
// Counting a component over all its variables gives its configurations only when each variable
// outside the support is a function of the support variables: true of the analysis encoding
// (every auxiliary variable is defined both ways by the features, encode.ts) and of features
// outside an independent support. That is the precondition of `factorFormula`.

import { Deadline } from '../deadline.ts';
import { SatSolver } from '../sat/solver.ts';
import { bigLog10, type ApproxCount } from './approx.ts';
import { countCnf } from './counter.ts';

export interface FactorOptions {
  deadline?: Deadline;
  /** Budget of one component's exact count, in ms (default 2 000, at most a tenth of what is left). */
  componentMs?: number;
  /** Components with more variables than this are not tried exactly but estimated (tests, benches). */
  exactMaxVars?: number;
}

export interface Factored {
  /** The product of the exact counts (the features in no clause included). */
  exact: bigint;
  /** The clauses of the components left to estimate (simplified by the top-level assignment). */
  rest: number[][];
  /** The support variables of those components. */
  restSupport: number[];
  components: number;
  exactComponents: number;
  /** Support variables that occur in no clause once the top level is set: a factor 2 each. */
  isolated: number;
}

/** Connected components of the clauses' variables: the clauses of each, and its variables. */
function components(numVars: number, clauses: readonly number[][]): { clauses: number[][]; vars: number[] }[] {
  const parent = Int32Array.from({ length: numVars + 1 }, (_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]!]!;
      x = parent[x]!;
    }
    return x;
  };
  for (const c of clauses) {
    for (let i = 1; i < c.length; i++) {
      const a = find(Math.abs(c[0]!));
      const b = find(Math.abs(c[i]!));
      if (a !== b) parent[a] = b;
    }
  }
  const index = new Map<number, number>();
  const out: { clauses: number[][]; vars: number[] }[] = [];
  const of = (v: number) => {
    const r = find(v);
    let i = index.get(r);
    if (i === undefined) {
      i = out.length;
      index.set(r, i);
      out.push({ clauses: [], vars: [] });
    }
    return out[i]!;
  };
  const seen = new Uint8Array(numVars + 1);
  for (const c of clauses) {
    const comp = of(Math.abs(c[0]!));
    comp.clauses.push(c);
    for (const l of c) {
      const v = Math.abs(l);
      if (!seen[v]) {
        seen[v] = 1;
        comp.vars.push(v);
      }
    }
  }
  return out;
}

/** The exact count of one component's clauses over its own variables (renumbered 1..k), or null. */
function countComponent(comp: { clauses: number[][]; vars: number[] }, numVars: number, deadline: Deadline): bigint | null {
  const renumber = new Int32Array(numVars + 1);
  comp.vars.forEach((v, i) => { renumber[v] = i + 1; });
  const clauses = comp.clauses.map((c) => c.map((l) => (l > 0 ? renumber[l]! : -renumber[-l]!)));
  return countCnf(comp.vars.length, clauses, deadline);
}

/**
 * The formula's count as an exact factor and a rest to estimate. Precondition: every variable
 * outside `support` is a function of the support variables (see the head of this file). Null
 * when the deadline passed first.
 */
export function factorFormula(numVars: number, clauses: readonly (readonly number[])[], support: readonly number[], options: FactorOptions = {}): Factored | null {
  const deadline = options.deadline ?? Deadline.none();
  const top = new SatSolver(numVars);
  let consistent = true;
  for (const c of clauses) if (!top.addClause(c)) { consistent = false; break; }
  if (!consistent) return { exact: 0n, rest: [], restSupport: [], components: 0, exactComponents: 0, isolated: 0 };
  const simplified: number[][] = [];
  for (const c of clauses) if (!c.some((l) => top.topValue(l) === 1)) simplified.push(c.filter((l) => top.topValue(l) === 0));
  const inSupport = new Uint8Array(numVars + 1);
  for (const v of support) inSupport[v] = 1;
  const occurs = new Uint8Array(numVars + 1);
  for (const c of simplified) for (const l of c) occurs[Math.abs(l)] = 1;
  let isolated = 0;
  for (const v of support) if (!occurs[v] && top.topValue(v) === 0) isolated++;
  let exact = 1n << BigInt(isolated);
  const rest: number[][] = [];
  const restSupport: number[] = [];
  const comps = components(numVars, simplified).sort((a, b) => a.vars.length - b.vars.length);
  let exactComponents = 0;
  for (const comp of comps) {
    if (deadline.expired()) return null;
    const tried = comp.vars.length <= (options.exactMaxVars ?? Infinity);
    const budget = Deadline.after(Math.min(options.componentMs ?? 2_000, deadline.remainingMs() / 10));
    const n = tried ? countComponent(comp, numVars, budget) : null;
    if (n !== null) {
      exactComponents++;
      exact *= n;
      if (n === 0n) return { exact: 0n, rest: [], restSupport: [], components: comps.length, exactComponents, isolated };
      continue;
    }
    rest.push(...comp.clauses);
    for (const v of comp.vars) if (inSupport[v]) restSupport.push(v);
  }
  return { exact, rest, restSupport, components: comps.length, exactComponents, isolated };
}

/** The exact factor times the rest's estimate (null: the rest was not estimated in time). */
export function combine(f: Factored, rest: ApproxCount | null, epsilon: number, delta: number): ApproxCount | null {
  const parts = `${f.exactComponents} of ${f.components} components after the backbone counted exactly, ${f.isolated} features in no clause`;
  if (f.rest.length === 0 || f.exact === 0n) {
    return { value: f.exact, log10: bigLog10(f.exact), epsilon, delta, exact: true, iterations: 0, threshold: 0, method: `exact (${parts})` };
  }
  if (rest === null) return null;
  if (f.exactComponents === 0 && f.isolated === 0) return rest;
  const value = f.exact * rest.value;
  return { ...rest, value, log10: bigLog10(value), method: rest.exact ? `exact (${parts}; the rest by enumeration)` : `${parts}; the other ${f.components - f.exactComponents} estimated together by ${rest.method}` };
}
