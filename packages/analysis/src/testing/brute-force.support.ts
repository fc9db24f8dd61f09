// Test support (the library never imports it): an independent oracle that answers the analysis
// questions by enumerating every configuration, and seeded generators of small UVL models and
// small CNFs. The oracle reads the parsed model, not the CNF: the tree and groups through
// packages/uvl's flattenModel (the relations [min, max] the converters share), the Boolean
// constraints evaluated directly on their expression trees. Variables are the distinct feature
// names, as buildCnf names them. Semantics of extensions.md section 1: typed features are
// selectable features, feature cardinality is ignored, arithmetic/aggregate/string constraints
// are left out.

import type { Expression, UvlModel } from '../../../uvl/src/index.ts';
import { flattenModel, parseUvl } from '../../../uvl/src/index.ts';
import { diskLoader, prng } from '../../../uvl/src/corpus.support.ts';

/** A model that must parse without errors (imports read from disk beside `fileName`); throws with the errors otherwise. */
export function parseValid(text: string, fileName?: string): UvlModel {
  const { model, diagnostics } = parseUvl(text, fileName ? { fileName, loader: diskLoader } : {});
  const errors = diagnostics.filter((d) => d.severity === 'error').map((d) => d.message);
  if (errors.length > 0) throw new Error(`the model does not parse: ${errors.join('; ')}`);
  return model;
}

// ------------------------------------------------------------------ the model oracle

export interface BruteForceModel {
  /** Distinct feature names in flattenModel's order (buildCnf's variable order). */
  names: string[];
  /** Number of configurations. */
  count: bigint;
  satisfiable: boolean;
  /** The following lists are sorted by name; for a void model core, dead, variant, falseOptional and atomicSets are empty. */
  core: string[];
  dead: string[];
  variant: string[];
  /**
   * Not the root, not a mandatory child, selected in some configuration and in every one where
   * its parent is selected (a dead feature, never selected, is dead and not false-optional).
   */
  falseOptional: string[];
  /** Classes of >= 2 features with the same value in every configuration, without the dead features; each sorted, the list sorted by first name. */
  atomicSets: string[][];
  /** The dead features, which are trivially equal to each other (listed apart from atomicSets). */
  deadSet: string[];
  /** Boolean constraints evaluated / constraints left out (not Boolean, or naming no feature). */
  booleanConstraints: number;
  ignoredConstraints: number;
  /** Every configuration as a bit mask over `names` (bit i: names[i] selected). */
  configurations: number[];
  /** Whether a set of selected feature names is a configuration. */
  isConfiguration(selected: Iterable<string>): boolean;
}

export class TooManyFeatures extends Error {}
class UnknownName extends Error {}

type Check = (value: Uint8Array) => boolean;

function isBooleanExpression(e: Expression): boolean {
  switch (e.kind) {
    case 'ref':
      return true;
    case 'not':
      return isBooleanExpression(e.operand);
    case 'and':
    case 'or':
      return e.operands.every(isBooleanExpression);
    case 'implies':
    case 'equiv':
      return isBooleanExpression(e.left) && isBooleanExpression(e.right);
    default:
      return false;
  }
}

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Enumerates the configurations of a model that parsed without errors. Throws TooManyFeatures
 * beyond `maxFeatures` distinct names (default 22). A Boolean constraint that names something
 * that is no feature (an attribute, a missing name) is left out like the non-Boolean ones.
 */
export function bruteForceModel(model: UvlModel, options: { maxFeatures?: number } = {}): BruteForceModel {
  const maxFeatures = options.maxFeatures ?? 22;
  const flat = flattenModel(model);
  if (flat.features.length === 0) throw new Error('the model has no features');
  const names: string[] = [];
  const index = new Map<string, number>();
  for (const f of flat.features) {
    if (!index.has(f.name)) {
      index.set(f.name, names.length);
      names.push(f.name);
    }
  }
  const n = names.length;
  if (n > maxFeatures) throw new TooManyFeatures(`${n} features (at most ${maxFeatures} enumerated)`);
  const varOf = flat.features.map((f) => index.get(f.name)!);

  // Each check runs as soon as the last variable it reads is assigned (variables in order).
  const checksAt: Check[][] = Array.from({ length: n }, () => []);
  const schedule = (vars: number[], check: Check) => checksAt[Math.max(...vars)]!.push(check);
  const rootVar = varOf[0]!;
  schedule([rootVar], (v) => v[rootVar] === 1);
  for (const r of flat.relations) {
    const p = varOf[r.parent]!;
    const kids = r.children.map((c) => varOf[c]!);
    for (const c of kids) schedule([c, p], (v) => v[c] === 0 || v[p] === 1);
    schedule([p, ...kids], (v) => {
      if (v[p] === 0) return true;
      let k = 0;
      for (const c of kids) k += v[c]!;
      return k >= r.min && k <= r.max;
    });
  }
  let booleanConstraints = 0;
  let ignoredConstraints = 0;
  for (const c of flat.constraints) {
    if (!isBooleanExpression(c.expression)) {
      ignoredConstraints++;
      continue;
    }
    const vars: number[] = [];
    const compile = (e: Expression): Check => {
      switch (e.kind) {
        case 'ref': {
          const name = c.prefix ? `${c.prefix}.${e.ref.name}` : e.ref.name;
          const i = index.get(name);
          if (i === undefined) throw new UnknownName(name);
          vars.push(i);
          return (v) => v[i] === 1;
        }
        case 'not': {
          const a = compile(e.operand);
          return (v) => !a(v);
        }
        case 'and': {
          const ops = e.operands.map(compile);
          return (v) => ops.every((o) => o(v));
        }
        case 'or': {
          const ops = e.operands.map(compile);
          return (v) => ops.some((o) => o(v));
        }
        case 'implies': {
          const a = compile(e.left);
          const b = compile(e.right);
          return (v) => !a(v) || b(v);
        }
        case 'equiv': {
          const a = compile(e.left);
          const b = compile(e.right);
          return (v) => a(v) === b(v);
        }
        default:
          throw new Error('unreachable');
      }
    };
    let check: Check;
    try {
      check = compile(c.expression);
    } catch (error) {
      // A reference to no feature (an attribute, a missing name): not expressible, left out.
      if (!(error instanceof UnknownName)) throw error;
      ignoredConstraints++;
      continue;
    }
    booleanConstraints++;
    schedule(vars, check);
  }

  // Per configuration: how often each feature is selected, which features ever differ from
  // which, and which features are ever unselected while a given feature is selected.
  const value = new Uint8Array(n);
  const selected = new Float64Array(n);
  const differ = new Uint32Array(n);
  const offWhileOn = new Uint32Array(n);
  const full = n === 32 ? 0xffffffff : (1 << n) - 1;
  let count = 0;
  const configurations: number[] = [];
  const record = () => {
    count++;
    let m = 0;
    for (let i = 0; i < n; i++) if (value[i]) m |= 1 << i;
    configurations.push(m);
    for (let i = 0; i < n; i++) {
      if (value[i]) {
        selected[i]!++;
        differ[i]! |= ~m & full;
        offWhileOn[i]! |= ~m & full;
      } else differ[i]! |= m;
    }
  };
  const assign = (i: number): void => {
    if (i === n) {
      record();
      return;
    }
    for (const b of [1, 0]) {
      value[i] = b;
      if (checksAt[i]!.every((c) => c(value))) assign(i + 1);
    }
    value[i] = 0;
  };
  assign(0);

  const sorted = (list: string[]) => [...list].sort(byName);
  const satisfiable = count > 0;
  const core: string[] = [];
  const dead: string[] = [];
  const variant: string[] = [];
  const falseOptional = new Set<string>();
  const atomicSets: string[][] = [];
  if (satisfiable) {
    for (let i = 0; i < n; i++) {
      if (selected[i] === count) core.push(names[i]!);
      else if (selected[i] === 0) dead.push(names[i]!);
      else variant.push(names[i]!);
    }
    flat.features.forEach((f, node) => {
      if (f.parent < 0) return;
      const rel = flat.relations.find((r) => r.children.includes(node))!;
      if (rel.min === 1 && rel.max === 1 && rel.children.length === 1) return;
      const p = varOf[f.parent]!;
      const x = varOf[node]!;
      if (selected[x] === 0 || x === rootVar || x === p) return; // never selected: dead, not false-optional
      if ((offWhileOn[p]! & (1 << x)) === 0) falseOptional.add(f.name);
    });
    const seen = new Set<number>();
    for (let i = 0; i < n; i++) {
      if (seen.has(i) || selected[i] === 0) continue;
      const set = [names[i]!];
      for (let j = i + 1; j < n; j++) {
        if ((differ[i]! & (1 << j)) === 0) {
          set.push(names[j]!);
          seen.add(j);
        }
      }
      if (set.length >= 2) atomicSets.push(set.sort(byName));
    }
    atomicSets.sort((a, b) => byName(a[0]!, b[0]!));
  }

  const allChecks = checksAt.flat();
  return {
    names,
    count: BigInt(count),
    satisfiable,
    core: sorted(core),
    dead: sorted(dead),
    variant: sorted(variant),
    falseOptional: sorted([...falseOptional]),
    atomicSets,
    deadSet: sorted(dead),
    booleanConstraints,
    ignoredConstraints,
    configurations,
    isConfiguration(selectedNames: Iterable<string>): boolean {
      const v = new Uint8Array(n);
      for (const s of selectedNames) {
        const i = index.get(s);
        if (i === undefined) return false;
        v[i] = 1;
      }
      return allChecks.every((c) => c(v));
    },
  };
}

/** The model with only the constraints of the constraints section whose first line passes `keep` (constraint attributes stay). */
export function keepConstraintLines(model: UvlModel, keep: (line: number) => boolean): UvlModel {
  return { ...model, constraints: model.constraints.filter((c) => keep(c.span.line)) };
}

// ------------------------------------------------------------------ CNF oracle

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

// ------------------------------------------------------------------ generators

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
  interface Node {
    name: string;
    groups: { head: string; kids: Node[] }[];
  }
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
  let hasAttribute = false;
  const lines = ['features'];
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
  const constraintLines: number[] = [];
  const constraints: string[] = [];
  const nConstraints = int(rand, 0, maxConstraints);
  for (let i = 0; i < nConstraints; i++) {
    const text = rand() < 0.1 ? pick(rand, names) : expr(int(rand, 1, 3), true).text;
    if (text.includes('(')) operators.add('()');
    constraints.push(text);
  }
  if (hasAttribute && rand() < 0.5) constraints.splice(int(rand, 0, constraints.length), 0, `F0.price > ${int(rand, 0, 5)}`);
  if (constraints.length > 0) {
    lines.push('constraints');
    for (const c of constraints) {
      lines.push(`    ${c}`);
      if (!c.includes('.price')) constraintLines.push(lines.length);
    }
  }
  return { text: `${lines.join('\n')}\n`, features: names, constraintLines, groupForms, operators };
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
