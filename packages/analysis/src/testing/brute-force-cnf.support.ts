// Test support (the library never imports it): the CNF oracle, which enumerates every assignment
// of a small CNF (brute-force.support.ts has the model oracle, generators.support.ts the
// random CNFs).

import { TooManyFeatures } from './brute-force.support.ts';

export interface Cnf {
  numVars: number;
  clauses: number[][];
}

export interface BruteForceCnf {
  count: bigint;
  satisfiable: boolean;
  /** value[v] (1-based): 1 true in every model, -1 false in every model, 0 neither (all 0 when unsat). */
  backbone: Int8Array;
}

export function satisfies(clauses: number[][], assignment: (v: number) => boolean): boolean {
  return clauses.every((c) => c.some((l) => assignment(Math.abs(l)) === l > 0));
}

/** Enumerates all 2^numVars assignments (numVars at most 20), optionally under assumption literals. */
export function bruteForceCnf(cnf: Cnf, assumptions: number[] = []): BruteForceCnf {
  const { numVars, clauses } = cnf;
  if (numVars > 20) throw new TooManyFeatures(`${numVars} variables`);
  // A clause is satisfied by assignment m (bit v-1 = variable v) when m meets its positive
  // mask or leaves a variable of its negative mask unset.
  const pos = new Int32Array(clauses.length + assumptions.length);
  const neg = new Int32Array(clauses.length + assumptions.length);
  [...clauses, ...assumptions.map((a) => [a])].forEach((c, i) => {
    for (const l of c) {
      if (l > 0) pos[i]! |= 1 << (l - 1);
      else neg[i]! |= 1 << (-l - 1);
    }
  });
  let count = 0;
  const ones = new Float64Array(numVars + 1);
  const total = 2 ** numVars;
  next: for (let m = 0; m < total; m++) {
    for (let i = 0; i < pos.length; i++) if ((m & pos[i]!) === 0 && (~m & neg[i]!) === 0) continue next;
    count++;
    for (let v = 1; v <= numVars; v++) if ((m >>> (v - 1)) & 1) ones[v]!++;
  }
  const backbone = new Int8Array(numVars + 1);
  if (count > 0) for (let v = 1; v <= numVars; v++) backbone[v] = ones[v] === count ? 1 : ones[v] === 0 ? -1 : 0;
  return { count: BigInt(count), satisfiable: count > 0, backbone };
}
