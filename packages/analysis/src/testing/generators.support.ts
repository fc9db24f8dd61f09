// Test support (the library never imports it): seeded generators of small UVL models and small
// CNFs, for the tests that check the engine against the oracles of brute-force.support.ts and
// brute-force-cnf.support.ts.

import { prng } from '../../../uvl/src/corpus.support.ts';
import type { Cnf } from './brute-force-cnf.support.ts';

/** A small deterministic PRNG: the same seed gives the same sequence (packages/uvl's test PRNG). */
export const seededRandom = prng;

const int = (rand: () => number, lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
const pick = <T>(rand: () => number, list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;

/** Every group form the generator writes. */
export const GROUP_FORMS = ['mandatory', 'optional', 'or', 'alternative', '[n]', '[a..b]', '[a..*]'] as const;

export interface GeneratedModel {
  text: string;
  /** Feature names in tree order (F0 the root). */
  features: string[];
  /** Line numbers of the Boolean constraints. */
  constraintLines: number[];
  /** The group forms written, for coverage checks. */
  groupForms: Set<string>;
  /** The constraint operators written. */
  operators: Set<string>;
}

/**
 * A random small model: F0 the root, a tree of `features` nodes (default 3..12) with nested
 * groups of every form, occasionally a typed feature, a feature cardinality or an attribute;
 * 0..`maxConstraints` Boolean constraints with !, &, |, =>, <=> and parentheses (printed with and
 * without the parentheses precedence makes optional), and sometimes an arithmetic constraint
 * the analysis leaves out.
 */
export function randomModelText(rand: () => number, options: { features?: number; maxConstraints?: number } = {}): GeneratedModel {
  const total = options.features ?? int(rand, 3, 12);
  const maxConstraints = options.maxConstraints ?? 4;
  const groupForms = new Set<string>();
  const operators = new Set<string>();
  const names = ['F0'];
  const root = randomTree(rand, total, names, groupForms);
  const lines = ['features'];
  const hasAttribute = writeTree(rand, root, lines);
  const constraints = randomConstraints(rand, names, maxConstraints, hasAttribute, operators);
  const constraintLines: number[] = [];
  if (constraints.length > 0) {
    lines.push('constraints');
    for (const c of constraints) {
      lines.push(`    ${c}`);
      if (!c.includes('.price')) constraintLines.push(lines.length);
    }
  }
  return { text: `${lines.join('\n')}\n`, features: names, constraintLines, groupForms, operators };
}

interface Node {
  name: string;
  groups: { head: string; kids: Node[] }[];
}

/** The tree of `total` features below F0, their names appended to `names` in tree order. */
function randomTree(rand: () => number, total: number, names: string[], groupForms: Set<string>): Node {
  const root: Node = { name: 'F0', groups: [] };
  const open: Node[] = [root];
  while (names.length < total) {
    const parent = pick(rand, open);
    const k = Math.min(int(rand, 1, 4), total - names.length);
    const form = pick(rand, GROUP_FORMS);
    groupForms.add(form);
    let head: string = form;
    // Bounds within 0..k, and now and then one the group cannot meet (k + 1).
    const bound = (lo: number) => (rand() < 0.08 ? k + 1 : int(rand, lo, k));
    if (form === '[n]') head = `[${bound(0)}]`;
    else if (form === '[a..b]') {
      const a = bound(0);
      head = `[${a}..${a > k ? a : int(rand, a, k)}]`;
    } else if (form === '[a..*]') head = `[${bound(0)}..*]`;
    const kids: Node[] = [];
    for (let i = 0; i < k; i++) {
      const child: Node = { name: `F${names.length}`, groups: [] };
      names.push(child.name);
      kids.push(child);
      open.push(child);
    }
    parent.groups.push({ head, kids });
  }
  return root;
}

/** The features section's lines of the tree, with a few types, cardinalities and attributes; whether an attribute was written. */
function writeTree(rand: () => number, root: Node, lines: string[]): boolean {
  let hasAttribute = false;
  const write = (node: Node, depth: number) => {
    let line = node.name;
    const r = rand();
    if (r < 0.06 && node !== root) line = `${pick(rand, ['Integer', 'Real', 'String'])} ${line}`;
    else if (r < 0.1 && node !== root) line = `${line} cardinality [1..${int(rand, 1, 3)}]`;
    else if (r < 0.14) {
      line = `${line} {price ${int(rand, 1, 9)}}`;
      hasAttribute = true;
    }
    lines.push(`${'    '.repeat(1 + 2 * depth)}${line}`);
    for (const g of node.groups) {
      lines.push(`${'    '.repeat(2 + 2 * depth)}${g.head}`);
      for (const kid of g.kids) write(kid, depth + 1);
    }
  };
  write(root, 0);
  return hasAttribute;
}

/** 0..maxConstraints constraints over `names`, and sometimes an arithmetic one on the attribute. */
function randomConstraints(rand: () => number, names: string[], maxConstraints: number, hasAttribute: boolean, operators: Set<string>): string[] {
  const expr = (depth: number, top = false): { text: string; prec: number } => {
    // Precedences: 5 atom, 4 !, 3 &, 2 |, 1 =>, 0 <=>
    if (depth === 0 || (!top && rand() < 0.3)) return { text: pick(rand, names), prec: 5 };
    const paren = (e: { text: string; prec: number }, min: number) => (e.prec < min || (e.prec < 5 && rand() < 0.25) ? `(${e.text})` : e.text);
    const op = pick(rand, ['!', '&', '|', '=>', '<=>'] as const);
    operators.add(op);
    if (op === '!') return { text: `!${paren(expr(depth - 1), 5)}`, prec: 4 };
    const prec = { '&': 3, '|': 2, '=>': 1, '<=>': 0 }[op];
    if (op === '&' || op === '|') {
      const operands = Array.from({ length: int(rand, 2, 3) }, () => paren(expr(depth - 1), prec + 1));
      return { text: operands.join(` ${op} `), prec };
    }
    // Binary, left-associative: the right operand needs parentheses at equal precedence.
    return { text: `${paren(expr(depth - 1), prec)} ${op} ${paren(expr(depth - 1), prec + 1)}`, prec };
  };
  const constraints: string[] = [];
  const nConstraints = int(rand, 0, maxConstraints);
  for (let i = 0; i < nConstraints; i++) {
    const text = rand() < 0.1 ? pick(rand, names) : expr(int(rand, 1, 3), true).text;
    if (text.includes('(')) operators.add('()');
    constraints.push(text);
  }
  if (hasAttribute && rand() < 0.5) constraints.splice(int(rand, 0, constraints.length), 0, `F0.price > ${int(rand, 0, 5)}`);
  return constraints;
}

/** A random CNF of 1..maxVars variables: clauses of 1..4 literals, sometimes a repeated literal, a tautology or (rarely) an empty clause. */
export function randomCnf(rand: () => number, maxVars = 10): Cnf {
  const numVars = int(rand, 1, maxVars);
  const ratio = rand() * 6;
  const numClauses = Math.round(numVars * ratio);
  const clauses: number[][] = [];
  for (let i = 0; i < numClauses; i++) {
    if (rand() < 0.003) {
      clauses.push([]);
      continue;
    }
    const len = int(rand, 1, Math.min(4, numVars + 1));
    const clause: number[] = [];
    for (let j = 0; j < len; j++) clause.push((rand() < 0.5 ? -1 : 1) * int(rand, 1, numVars));
    clauses.push(clause);
  }
  return { numVars, clauses };
}

/** The pigeonhole formula: `pigeons` pigeons in `holes` holes, unsatisfiable when pigeons > holes and hard for resolution. */
export function pigeonhole(pigeons: number, holes: number): Cnf {
  const v = (p: number, h: number) => p * holes + h + 1;
  const clauses: number[][] = [];
  for (let p = 0; p < pigeons; p++) clauses.push(Array.from({ length: holes }, (_, h) => v(p, h)));
  for (let h = 0; h < holes; h++) for (let p = 0; p < pigeons; p++) for (let q = p + 1; q < pigeons; q++) clauses.push([-v(p, h), -v(q, h)]);
  return { numVars: pigeons * holes, clauses };
}

/** A uniform random 3-CNF with `numVars` variables and round(ratio * numVars) clauses of 3 distinct variables. */
export function random3Cnf(rand: () => number, numVars: number, ratio: number): Cnf {
  const clauses: number[][] = [];
  for (let i = 0; i < Math.round(ratio * numVars); i++) {
    const vars = new Set<number>();
    while (vars.size < 3) vars.add(int(rand, 1, numVars));
    clauses.push([...vars].map((x) => (rand() < 0.5 ? -x : x)));
  }
  return { numVars, clauses };
}
