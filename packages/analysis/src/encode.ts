// The model as a CNF for analysis. Unlike the DIMACS export, every auxiliary variable is fully
// defined by the feature variables (Tseitin definitions in both directions, counters whose
// variables mean exactly "at least j of the first i children"), so the number of models of
// the CNF over all its variables is the number of configurations. The clauses of each
// cross-tree constraint are kept apart so that explanations can switch constraints on and off.

import {
  constraintEncoder,
  constraintSource,
  distributeCnf,
  prepareExport,
  printExpression,
  simplifyClause,
  type BoolExpr,
  type ExportConstraint,
  type FlatModel,
  type LeftOutConstraint,
  type UvlModel,
} from '../../uvl/src/index.ts';
import type { IgnoredConstraint } from './types.ts';

export interface EncodedConstraint {
  /** `Line <n>: <source text>`: how explanations name the constraint. */
  label: string;
  line: number;
  /** The feature variables the constraint names. */
  features: number[];
  /** Clauses that assert the constraint (their auxiliary variables are defined in `definitions`). */
  clauses: number[][];
}

export interface EncodedModel {
  flat: FlatModel;
  /** Variable v (from 1) of a feature is names[v - 1]. */
  names: string[];
  featureVars: number;
  numVars: number;
  /** What the tree asserts: the root, parent-child links, group bounds (over the counters). */
  tree: number[][];
  /**
   * Definitions of every auxiliary variable (group counters, constraints' Tseitin variables):
   * satisfiable for any feature assignment, and then with one value for each auxiliary variable.
   * Kept apart from what the model asserts so that the model can be negated (edit classes).
   */
  definitions: number[][];
  constraints: EncodedConstraint[];
  /** Constraints the Boolean analysis cannot express (arithmetic, aggregates, strings, unknown names). */
  ignored: number;
  /** The same constraints: where, what, and why. */
  ignoredConstraints: IgnoredConstraint[];
  /** Variable of each flat feature node. */
  nodeVar: Int32Array;
  /** Whether two tree nodes share a name (then the tree formula does not apply). */
  sharedNames: boolean;
  /** The most children of an alternative group this encoding wrote pairwise. */
  widestPairwiseGroup: number;
}

/** Largest alternative group encoded pairwise by default (the counter's encoding). */
export const PAIRWISE_LIMIT = 8;
/** Largest CNF by distribution a constraint gets instead of Tseitin variables. */
const DIRECT_CLAUSES = 24;

/** The variables (from 1) of the features an expression names. */
function namedVariables(e: BoolExpr): number[] {
  const out = new Set<number>();
  const stack: BoolExpr[] = [e];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (x.kind === 'var') out.add(x.index + 1);
    else if (x.kind === 'not') stack.push(x.operand);
    // One by one: spreading a disjunction of 200 000 terms (a 1 MB line) overflows the call stack.
    else if ('operands' in x) for (const o of x.operands) stack.push(o);
    else stack.push(x.left, x.right);
  }
  return [...out];
}

/** Why the analysis leaves a constraint out, in words. */
function ignoredConstraint(c: LeftOutConstraint, text: string | undefined): IgnoredConstraint {
  const reason =
    c.reason === 'unknown-feature'
      ? `\`${c.reference!.name}\` is not a feature`
      : 'arithmetic, aggregate or string constraint: the Boolean analysis cannot express it';
  const span = c.source.expression.span;
  // An imported constraint's line is in the imported file: it is named by its text alone.
  if (c.source.prefix !== '') return { line: null, constraint: `${printExpression(c.source.expression)} (from imported model ${c.source.prefix})`, reason };
  const source = text !== undefined ? constraintSource(text, span) : { text: printExpression(c.source.expression), line: span.line };
  return { line: source.line, constraint: source.text, reason };
}

export interface EncodeOptions {
  /**
   * Largest alternative group encoded pairwise (no auxiliary variables). SAT calls prefer many
   * binary clauses, which propagate fast; the counter prefers the linear counter, since a
   * pairwise group is a clique that ruins its decomposition.
   */
  pairwiseLimit?: number;
}

/**
 * Every clause of the model in the order all its CNFs use: the tree, the definitions between it
 * and the constraints, then each constraint's clauses (the counter's component order depends on it).
 */
export function modelClauses(enc: EncodedModel): number[][] {
  const clauses: number[][] = [...enc.tree, ...enc.definitions];
  for (const k of enc.constraints) clauses.push(...k.clauses);
  return clauses;
}

/**
 * The encoding the counter and the compiler want: linear counters for alternative groups over
 * PAIRWISE_LIMIT (a pairwise group is a clique that ruins the decomposition); otherwise the SAT
 * encoding is the same. Feature variables are numbered alike in both (features first).
 */
export function counterEncoding(model: UvlModel, satEncoding: EncodedModel, text?: string): EncodedModel {
  return satEncoding.widestPairwiseGroup > PAIRWISE_LIMIT ? encodeModel(model, text) : satEncoding;
}

export function encodeModel(model: UvlModel, text?: string, options: EncodeOptions = {}): EncodedModel {
  const x = prepareExport(model, { unknownFeature: 'leave-out' });
  const { features } = x.flat;
  const varOf = new Map<string, number>();
  x.names.forEach((n, i) => varOf.set(n, i + 1));
  const nodeVar = Int32Array.from(features, (f) => varOf.get(f.name)!);
  const writer = new CnfWriter(x.names.length);
  const tree: number[][] = [];
  const definitions: number[][] = [];
  const widestPairwiseGroup = encodeTree(x.flat, nodeVar, options.pairwiseLimit ?? PAIRWISE_LIMIT, writer, tree, definitions);
  const constraints = encodeConstraints(x.constraints, text, writer, definitions);
  return {
    flat: x.flat,
    names: x.names,
    featureVars: x.names.length,
    numVars: writer.numVars,
    tree,
    definitions,
    constraints,
    ignored: x.leftOut.length,
    ignoredConstraints: x.leftOutConstraints.map((c) => ignoredConstraint(c, text)),
    nodeVar,
    sharedNames: x.names.length !== features.length,
    widestPairwiseGroup,
  };
}

/** Numbers auxiliary variables after the features', and adds clauses in their simplest form. */
class CnfWriter {
  constructor(public numVars: number) {}

  fresh(): number {
    return ++this.numVars;
  }

  add(out: number[][], clause: number[]): void {
    // Shared names can repeat a literal or make a tautology.
    const c = simplifyClause(clause);
    if (c) out.push(c);
  }
}

/**
 * What the tree asserts (root, parent-child links, group bounds) into `tree`, the definitions of
 * the group counters into `definitions`. Returns the most children of a group written pairwise.
 */
function encodeTree(flat: FlatModel, nodeVar: Int32Array, pairwiseLimit: number, writer: CnfWriter, tree: number[][], definitions: number[][]): number {
  let widestPairwiseGroup = 0;
  writer.add(tree, [nodeVar[0]!]);
  for (const r of flat.relations) {
    const p = nodeVar[r.parent]!;
    const kids = r.children.map((c) => nodeVar[c]!);
    const n = kids.length;
    for (const c of kids) writer.add(tree, [-c, p]);
    const min = Math.max(0, r.min);
    const max = Math.min(n, r.max);
    if (min > max) {
      writer.add(tree, [-p]);
      continue;
    }
    if (min >= 1) writer.add(tree, [-p, ...kids]);
    if (max >= n && min <= 1) continue;
    if (max === 1 && min <= 1 && n <= pairwiseLimit) {
      widestPairwiseGroup = Math.max(widestPairwiseGroup, n);
      for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) writer.add(tree, [-kids[i]!, -kids[j]!]);
      continue;
    }
    if (max === 0) {
      for (const c of kids) writer.add(tree, [-c]);
      continue;
    }
    const width = max < n ? max + 1 : min;
    const counts = atLeastCounters(kids, width, writer, definitions);
    if (min >= 2) writer.add(tree, [-p, counts[min - 1]!]);
    if (max < n) writer.add(tree, [-counts[max]!]); // children imply the parent, so no guard is needed
  }
  return widestPairwiseGroup;
}

/**
 * Variables c[j] (j < width) meaning "at least j+1 of lits"; returned for the whole list.
 * Each c is defined in both directions from the previous prefix, so it is determined.
 */
function atLeastCounters(lits: number[], width: number, writer: CnfWriter, out: number[][]): number[] {
  let prev: number[] = [];
  for (let i = 0; i < lits.length; i++) {
    const xi = lits[i]!;
    const cur: number[] = [];
    const w = Math.min(width, i + 1);
    for (let j = 0; j < w; j++) {
      const r = writer.fresh();
      cur.push(r);
      const before = j < prev.length ? prev[j] : undefined; // at least j+1 among the first i
      const lower = j === 0 ? undefined : prev[j - 1]; // at least j among the first i
      // r <=> before | (xi & lower), with lower = true for j = 0
      if (before !== undefined) writer.add(out, [-before, r]);
      if (j === 0) writer.add(out, [-xi, r]);
      else writer.add(out, [-xi, -lower!, r]);
      writer.add(out, before !== undefined ? [-r, before, xi] : [-r, xi]);
      if (j > 0) writer.add(out, before !== undefined ? [-r, before, lower!] : [-r, lower!]);
    }
    prev = cur;
  }
  return prev;
}

/**
 * Each constraint's clauses, named by its source. Tseitin variables are defined in both
 * directions (so they are determined); the clauses that assert a constraint go to that
 * constraint, the definitions to `definitions`, shared.
 */
function encodeConstraints(list: ExportConstraint[], text: string | undefined, writer: CnfWriter, definitions: number[][]): EncodedConstraint[] {
  let target: number[][] = [];
  const encoder = constraintEncoder(() => writer.fresh(), (clause) => writer.add(target, clause), (clause) => writer.add(definitions, clause), { fullDefinitions: true });
  return list.map((c) => {
    // Without auxiliary variables when the constraint's own CNF is small: every auxiliary
    // variable widens the formula the counter has to cut into components.
    const clauses: number[][] = distributeCnf(c.expression, DIRECT_CLAUSES) ?? [];
    if (clauses.length === 0) {
      target = clauses;
      encoder.clausify(c.expression);
    }
    const span = c.source.expression.span;
    // The source as written (an imported constraint's is in another file: printed instead).
    const quoted = c.source.prefix === '' && text !== undefined ? constraintSource(text, span) : { text: c.text, line: span.line };
    return { label: `Line ${quoted.line}: ${quoted.text}`, line: quoted.line, features: namedVariables(c.expression), clauses };
  });
}
