// Structural metrics of a model, after FM Fact Label's list (features, leaf, abstract, compound,
// groups by kind, depth, constraint kinds, features in constraints, attributes, typed features,
// language level). They describe the model as written in its file: the feature tree of the
// text (a reference to an imported model's feature is one leaf, imported models are not
// grafted in) and the constraints written in it (the constraints section plus constraint
// attributes), exactly what packages/uvl's countModel counts. Nothing here needs a solver.

import type { Expression, Feature, UvlModel } from '../../../uvl/src/index.ts';
import type { LanguageLevelName, ModelMetrics } from '../types.ts';

/** Whether an expression is a literal: a reference, or the negation of one. */
function isLiteral(e: Expression): boolean {
  return e.kind === 'ref' || (e.kind === 'not' && e.operand.kind === 'ref');
}

/**
 * A simple constraint: a literal (`A`, `!A`), an implication or an equivalence of two
 * literals (`A => B`, `A => !B`, `!A <=> B`), or a disjunction of exactly two literals
 * (`A | !B`). Everything else, including any arithmetic, aggregate or string constraint,
 * is complex.
 */
export function isSimpleConstraint(e: Expression): boolean {
  if (isLiteral(e)) return true;
  if (e.kind === 'implies' || e.kind === 'equiv') return isLiteral(e.left) && isLiteral(e.right);
  if (e.kind === 'or') return e.operands.length === 2 && e.operands.every(isLiteral);
  return false;
}

/** Visits every node of an expression (iterative: real constraints chain tens of thousands of operands). */
function visit(e: Expression, on: (x: Expression) => void): void {
  const stack: Expression[] = [e];
  while (stack.length > 0) {
    const x = stack.pop()!;
    on(x);
    if (x.kind === 'not') stack.push(x.operand);
    else if (x.kind === 'and' || x.kind === 'or') for (const o of x.operands) stack.push(o);
    else if (x.kind === 'implies' || x.kind === 'equiv' || x.kind === 'compare' || x.kind === 'arith') stack.push(x.left, x.right);
  }
}

/** The level an expression needs: 0 Boolean, 1 Arithmetic (comparisons, arithmetic, numbers, sum/avg/floor/ceil), 2 Type (strings, len). */
function expressionLevel(e: Expression): number {
  let level = 0;
  visit(e, (x) => {
    if (x.kind === 'compare' || x.kind === 'arith' || x.kind === 'number') level = Math.max(level, 1);
    else if (x.kind === 'string') level = 2;
    else if (x.kind === 'aggregate') level = Math.max(level, x.fn === 'len' ? 2 : 1);
  });
  return level;
}

/** Every reference name inside an expression, aggregate arguments included. */
function referenceNames(e: Expression, out: string[]): void {
  visit(e, (x) => {
    if (x.kind === 'ref') out.push(x.ref.name);
    else if (x.kind === 'aggregate') for (const a of x.args) out.push(a.name);
  });
}

function isAbstract(f: Feature): boolean {
  return f.attributes.some(
    (a) => a.kind === 'value' && a.name === 'abstract' && (a.value === undefined || (a.value.kind === 'boolean' && a.value.value)),
  );
}

const LEVELS: LanguageLevelName[] = ['boolean', 'arithmetic', 'type'];

/**
 * The structural metrics of a parsed model (expected without syntax errors). Definitions:
 *
 * - `features`: every node of the written feature tree, the root included; a reference to an
 *   imported model's feature counts as one node and imported trees are not counted (flamapy
 *   2.5.0's number and the corpus manifest's, = countModel(model).features).
 * - `leaf_features`: nodes without a child; `compound_features`: nodes with at least one child
 *   (leaf + compound = features).
 * - `abstract_features`: nodes carrying the attribute `abstract` as a flag or with the value `true`.
 * - `depth`: the longest root-to-leaf path in edges (a lone root: 0).
 * - `groups`: groups with at least one child, by written kind: `or`, `alternative`, and
 *   `cardinality` for `[n]`, `[a..b]` and `[a..*]` (whatever their bounds); `mandatory` and
 *   `optional` groups are not groups in this sense and are not counted.
 * - `constraints`: the lines of the constraints section plus every constraint attribute
 *   (`constraint …` and each element of `constraints […]`) of the tree (= countModel's).
 * - `simple_constraints`: those that are a literal, an implication or equivalence of two
 *   literals, or a disjunction of two literals (see isSimpleConstraint);
 *   `complex_constraints`: the others (simple + complex = constraints).
 * - `features_in_constraints`: distinct tree features named in at least one constraint: a
 *   reference that is a feature name, or an attribute reference `F.attr` whose `F` is one;
 *   aggregate arguments count the same way.
 * - `attributes`: value attributes written on the tree's features (each key of `{…}` at the top
 *   level, flags included), except `abstract` (counted above) and constraint attributes
 *   (counted as constraints).
 * - `typed_features`: nodes with a written type `Integer`, `Real` or `String`.
 * - `language_level`: the highest of the levels declared by `include` (`Boolean`, `Arithmetic`,
 *   `Type`) and the levels the model uses: `type` for a typed feature, a string literal or
 *   `len(…)` in a constraint; `arithmetic` for a comparison, arithmetic, a number, `sum`, `avg`,
 *   `floor` or `ceil`; `boolean` otherwise (group and feature cardinalities are Boolean level).
 */
export function computeMetrics(model: UvlModel): ModelMetrics {
  let features = 0;
  let leaf = 0;
  let abstract = 0;
  let depth = 0;
  let attributes = 0;
  let typed = 0;
  const groups = { or: 0, alternative: 0, cardinality: 0 };
  const names = new Set<string>();
  const constraints: Expression[] = [...model.constraints];

  // Pre-order, iterative (trees nest up to the parser's depth limit); constraint attributes in
  // tree order, as countModel lists them.
  const stack: { f: Feature; d: number }[] = model.root ? [{ f: model.root, d: 0 }] : [];
  while (stack.length > 0) {
    const { f, d } = stack.pop()!;
    features++;
    names.add(f.name);
    if (d > depth) depth = d;
    if (isAbstract(f)) abstract++;
    if (f.type !== undefined && f.type !== 'Boolean') typed++;
    for (const a of f.attributes) {
      if (a.kind === 'constraint') constraints.push(a.constraint);
      else if (a.kind === 'constraints') constraints.push(...a.constraints);
      else if (a.name !== 'abstract') attributes++;
    }
    let children = 0;
    for (const g of f.groups) {
      if (g.children.length === 0) continue;
      children += g.children.length;
      if (g.kind === 'or') groups.or++;
      else if (g.kind === 'alternative') groups.alternative++;
      else if (g.kind === 'cardinality') groups.cardinality++;
    }
    if (children === 0) leaf++;
    for (let g = f.groups.length - 1; g >= 0; g--) {
      const kids = f.groups[g]!.children;
      for (let c = kids.length - 1; c >= 0; c--) stack.push({ f: kids[c]!, d: d + 1 });
    }
  }

  let simple = 0;
  let level = typed > 0 ? 2 : 0;
  const inConstraints = new Set<string>();
  const refs: string[] = [];
  for (const c of constraints) {
    if (isSimpleConstraint(c)) simple++;
    level = Math.max(level, expressionLevel(c));
    refs.length = 0;
    referenceNames(c, refs);
    for (const r of refs) {
      if (names.has(r)) inConstraints.add(r);
      else {
        const dot = r.lastIndexOf('.');
        if (dot > 0 && names.has(r.slice(0, dot))) inConstraints.add(r.slice(0, dot));
      }
    }
  }
  for (const inc of model.includes) level = Math.max(level, inc.major === 'Type' ? 2 : inc.major === 'Arithmetic' ? 1 : 0);

  return {
    features,
    leaf_features: leaf,
    abstract_features: abstract,
    compound_features: features - leaf,
    depth,
    groups,
    constraints: constraints.length,
    simple_constraints: simple,
    complex_constraints: constraints.length - simple,
    features_in_constraints: inConstraints.size,
    attributes,
    typed_features: typed,
    language_level: LEVELS[level]!,
  };
}
