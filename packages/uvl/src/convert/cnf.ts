// DIMACS CNF as flamapy 2 writes it (FmToPysat + DimacsWriter): "p cnf V C", one
// "c <n> <name>" line per feature (variables numbered in flamapy's feature order, one per
// distinct name), then the clauses, each ending in 0. The set of configurations over the
// feature variables is exactly the model's:
// - the tree: the root is selected; a child implies its parent; a selected parent takes
//   its mandatory children, at least one of an or group, exactly one of an alternative
//   group, and between n and m of a group [n..m] (a sequential counter with auxiliary
//   variables keeps that linear where flamapy enumerates combinations);
// - Boolean constraints: a clause when the constraint is one, else a Tseitin encoding
//   (one polarity where one suffices), so the size stays linear;
// - arithmetic, aggregate and string constraints are left out (as flamapy does) and each
//   is listed in a "c" line; auxiliary variables (numbered after the features) have no
//   name line.

import type { UvlModel } from '../ast.ts';
import type { Relation } from '../semantics.ts';
import { isAlternative, isMandatory, isOptional, isOr, prepareExport } from './common.ts';
import { simplify } from './splot.ts';
import { constraintEncoder } from './tseitin.ts';

const PAIRWISE_LIMIT = 8;

export interface CnfResult {
  /** Number of variables: features first, then auxiliary ones. */
  variables: number;
  featureVariables: number;
  clauses: number[][];
  names: string[];
  leftOut: string[];
}

/** The clauses so far and the last variable number handed out (auxiliary variables follow the features). */
class ClauseSet {
  readonly clauses: number[][] = [];
  constructor(public variables: number) {}

  fresh(): number {
    return ++this.variables;
  }

  /** Adds the clause without repeated literals, unless it always holds (x or not x). */
  add(clause: number[]): void {
    const c = simplify(clause);
    if (c) this.clauses.push(c);
  }
}

/** The CNF as data (the test suite counts its solutions). */
export function buildCnf(model: UvlModel): CnfResult {
  const x = prepareExport(model);
  const nameVar = new Map<string, number>();
  x.names.forEach((n, i) => nameVar.set(n, i + 1));
  const v = x.flat.features.map((f) => nameVar.get(f.name)!);
  const cnf = new ClauseSet(x.names.length);

  // Root, then each relation in flamapy's order.
  cnf.add([v[0]!]);
  for (const r of x.flat.relations) addRelation(cnf, r, v);

  // Constraints: Tseitin literals defined for the polarities needed (flamapy's size, one direction where one suffices).
  const add = (clause: number[]): void => cnf.add(clause);
  const constraints = constraintEncoder(() => cnf.fresh(), add, add);
  for (const c of x.constraints) constraints.clausify(c.expression);

  return { variables: cnf.variables, featureVariables: x.names.length, clauses: cnf.clauses, names: x.names, leftOut: x.leftOut };
}

/** The clauses of one relation of the tree (v: the variable of each feature index). */
function addRelation(cnf: ClauseSet, r: Relation, v: number[]): void {
  const p = v[r.parent]!;
  const kids = r.children.map((c) => v[c]!);
  const n = kids.length;
  if (isMandatory(r)) {
    cnf.add([-p, kids[0]!]);
    cnf.add([-kids[0]!, p]);
  } else if (isOptional(r)) {
    cnf.add([-kids[0]!, p]);
  } else if (isOr(r)) {
    cnf.add([-p, ...kids]);
    for (const c of kids) cnf.add([-c, p]);
  } else if (isAlternative(r)) {
    cnf.add([-p, ...kids]);
    if (n <= PAIRWISE_LIMIT) {
      for (let i = 0; i < n; i++) {
        for (let j = i + 1; j < n; j++) cnf.add([-kids[i]!, -kids[j]!]);
        cnf.add([-kids[i]!, p]);
      }
    } else {
      atMost(cnf, kids, 1, p);
      for (const c of kids) cnf.add([-c, p]);
    }
  } else {
    // Any other [min, max]: children imply the parent; the count holds when the parent is selected.
    for (const c of kids) cnf.add([-c, p]);
    addGroupCount(cnf, kids, Math.max(0, r.min), Math.min(n, r.max), p);
  }
}

/** Between min and max of the literals when guard holds, by whichever encoding is smaller. */
function addGroupCount(cnf: ClauseSet, lits: number[], min: number, max: number, guard: number): void {
  const n = lits.length;
  if (min > max || min > n) cnf.add([-guard]);
  else if (min >= 2 && n * (n - min) > n * Math.max(min, max < n ? max + 1 : 0)) {
    between(cnf, lits, min, max, guard);
  } else {
    if (min === 1) cnf.add([-guard, ...lits]);
    else if (min > 1) atMost(cnf, lits.map((l) => -l), n - min, guard); // cheap when min is close to n
    atMost(cnf, lits, max, guard);
  }
}

/** At most k of the literals when guard holds (Sinz's sequential counter; pairwise when small). */
function atMost(cnf: ClauseSet, lits: number[], k: number, guard: number): void {
  const n = lits.length;
  if (k >= n) return;
  if (k <= 0) {
    for (const l of lits) cnf.add([-guard, -l]);
    return;
  }
  if (k === 1 && n <= PAIRWISE_LIMIT) {
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) cnf.add([-guard, -lits[i]!, -lits[j]!]);
    return;
  }
  // s[i][j] (1 <= j <= k): at least j of lits[0..i] are true.
  let prev: number[] = [];
  for (let i = 0; i < n - 1; i++) {
    const xi = lits[i]!;
    const cur: number[] = [];
    for (let j = 0; j < k; j++) cur.push(cnf.fresh());
    cnf.add([-xi, cur[0]!]);
    if (i === 0) {
      for (let j = 1; j < k; j++) cnf.add([-cur[j]!]);
    } else {
      for (let j = 0; j < k; j++) cnf.add([-prev[j]!, cur[j]!]);
      for (let j = 1; j < k; j++) cnf.add([-xi, -prev[j - 1]!, cur[j]!]);
      cnf.add([-guard, -xi, -prev[k - 1]!]);
    }
    prev = cur;
  }
  cnf.add([-guard, -lits[n - 1]!, -prev[k - 1]!]);
}

/**
 * Between min and max of the literals when guard holds, min >= 2: a counter whose variable
 * r[i][j] is true exactly when at least j+1 of the first i+1 literals are (both directions,
 * so it also bounds from below). Size O(n * K) with K = the largest count it must tell apart.
 */
function between(cnf: ClauseSet, lits: number[], min: number, max: number, guard: number): void {
  const n = lits.length;
  const K = Math.min(n, max < n ? Math.max(min, max + 1) : min);
  let prev: number[] = [];
  for (let i = 0; i < n; i++) {
    const xi = lits[i]!;
    const cur: number[] = [];
    const width = Math.min(K, i + 1);
    for (let j = 0; j < width; j++) {
      const r = cnf.fresh();
      cur.push(r);
      const before = j < prev.length ? prev[j] : undefined; // at least j+1 among the first i
      const lower = j === 0 ? undefined : prev[j - 1]; // at least j among the first i
      // r <= before | (xi & lower)
      if (before !== undefined) cnf.add([-before, r]);
      if (j === 0) cnf.add([-xi, r]);
      else if (lower !== undefined) cnf.add([-xi, -lower, r]);
      // r => before | xi ;  r => before | lower
      cnf.add(before !== undefined ? [-r, before, xi] : [-r, xi]);
      if (j > 0) cnf.add(before !== undefined ? [-r, before, lower!] : [-r, lower!]);
    }
    prev = cur;
  }
  cnf.add([-guard, prev[min - 1]!]);
  if (max < n) cnf.add([-guard, -prev[max]!]);
}

/** The model as DIMACS CNF. Throws UvlExportError for a constraint naming an unknown feature. */
export function toCnf(model: UvlModel): string {
  const cnf = buildCnf(model);
  const lines: string[] = [`p cnf ${cnf.variables} ${cnf.clauses.length}`];
  cnf.names.forEach((name, i) => lines.push(`c ${i + 1} ${name}`));
  for (const t of cnf.leftOut) lines.push(`c left out (not expressible in CNF): ${t.replace(/[\r\n]/g, ' ')}`);
  if (cnf.variables > cnf.featureVariables) {
    lines.push(`c variables ${cnf.featureVariables + 1} to ${cnf.variables} are auxiliary (no feature)`);
  }
  // Literal texts are made once per variable: the clauses repeat them many times.
  const positive: string[] = new Array(cnf.variables + 1);
  const negative: string[] = new Array(cnf.variables + 1);
  for (let v = 1; v <= cnf.variables; v++) {
    positive[v] = `${v} `;
    negative[v] = `-${v} `;
  }
  for (const c of cnf.clauses) {
    let line = '';
    for (const l of c) line += l > 0 ? positive[l]! : negative[-l]!;
    lines.push(`${line}0`);
  }
  return lines.join('\n');
}
