// Test support (the library never imports it): an independent oracle that answers the analysis
// questions by enumerating every configuration (the CNF oracle is brute-force-cnf.support.ts, the
// seeded generators of small UVL models and CNFs generators.support.ts). The oracle reads the parsed model, not the CNF: the tree and groups through
// packages/uvl's flattenModel (the relations [min, max] the converters share), the Boolean
// constraints evaluated directly on their expression trees. Variables are the distinct feature
// names, as buildCnf names them. Semantics of extensions.md section 1: typed features are
// selectable features, feature cardinality is ignored, arithmetic/aggregate/string constraints
// are left out.

import type { Expression, FlatModel, UvlModel } from '../../../uvl/src/index.ts';
import { flattenModel, parseUvl } from '../../../uvl/src/index.ts';
import { diskLoader } from '../../../uvl/src/corpus.support.ts';

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
  const { checksAt, booleanConstraints, ignoredConstraints } = scheduleChecks(flat, index, varOf, n);
  const found = enumerate(n, checksAt);
  const { count, configurations } = found;
  const sorted = (list: string[]) => [...list].sort(byName);
  const { core, dead, variant, falseOptional, atomicSets } = classify(flat, names, varOf, found);
  const allChecks = checksAt.flat();
  return {
    names,
    count: BigInt(count),
    satisfiable: count > 0,
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

/** The checks of the tree and of the Boolean constraints, each run as soon as the last variable it reads is assigned (variables in order). */
function scheduleChecks(flat: FlatModel, index: Map<string, number>, varOf: number[], n: number) {
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
    let check: Check;
    try {
      check = compileCheck(c.expression, c.prefix, index, vars);
    } catch (error) {
      // A reference to no feature (an attribute, a missing name): not expressible, left out.
      if (!(error instanceof UnknownName)) throw error;
      ignoredConstraints++;
      continue;
    }
    booleanConstraints++;
    schedule(vars, check);
  }
  return { checksAt, booleanConstraints, ignoredConstraints };
}

/** A Boolean constraint as a check of the values; the variables it reads are appended to `vars`. */
function compileCheck(e: Expression, prefix: string | undefined, index: Map<string, number>, vars: number[]): Check {
  const compile = (e: Expression): Check => {
    switch (e.kind) {
      case 'ref': {
        const name = prefix ? `${prefix}.${e.ref.name}` : e.ref.name;
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
  return compile(e);
}

interface Enumeration {
  count: number;
  configurations: number[];
  /** How often each feature is selected. */
  selected: Float64Array;
  /** Bit j of differ[i]: features i and j differ in some configuration. */
  differ: Uint32Array;
  /** Bit j of offWhileOn[i]: feature j is unselected in some configuration where i is selected. */
  offWhileOn: Uint32Array;
}

/** Every assignment of n variables that passes the checks, in order (each variable 1 before 0). */
function enumerate(n: number, checksAt: Check[][]): Enumeration {
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
  return { count, configurations, selected, differ, offWhileOn };
}

/** Core, dead and variant features, the false-optional ones and the atomic sets of an enumeration (all empty when there is no configuration). */
function classify(flat: FlatModel, names: string[], varOf: number[], found: Enumeration) {
  const { count, selected, differ, offWhileOn } = found;
  const n = names.length;
  const rootVar = varOf[0]!;
  const core: string[] = [];
  const dead: string[] = [];
  const variant: string[] = [];
  const falseOptional = new Set<string>();
  const atomicSets: string[][] = [];
  if (count === 0) return { core, dead, variant, falseOptional, atomicSets };
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
  return { core, dead, variant, falseOptional, atomicSets };
}

/** The model with only the constraints of the constraints section whose first line passes `keep` (constraint attributes stay). */
export function keepConstraintLines(model: UvlModel, keep: (line: number) => boolean): UvlModel {
  return { ...model, constraints: model.constraints.filter((c) => keep(c.span.line)) };
}
