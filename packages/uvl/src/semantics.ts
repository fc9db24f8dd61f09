// The feature-model semantics the converters share, in flamapy's terms: a tree of
// features linked by relations [min, max] over their children, plus constraints.
// Resolved imports are grafted in: a tree feature `P.R` whose prefix P is an import
// (its alias, else its namespace) is replaced by the imported model's feature R and
// its subtree, every grafted name prefixed with `P.`, and the imported model's
// constraints come along with their references prefixed the same way.

import type { Expression, Feature, FeatureType, Reference, UvlModel } from './ast.ts';

export interface Relation {
  /** Index of the parent in FlatModel.features. */
  parent: number;
  children: number[];
  min: number;
  max: number;
}

export interface FlatFeature {
  /** Full name (grafted features carry their import prefix); flamapy's feature name. */
  name: string;
  type: FeatureType;
  parent: number; // -1 for the root
  relations: Relation[];
  /** The feature as parsed (in the imported model for grafted ones). */
  source: Feature;
}

export interface FlatConstraint {
  expression: Expression;
  /** Prefix to put before every reference of the expression (for imported constraints); '' otherwise. */
  prefix: string;
  origin: 'constraints' | 'attribute';
}

export interface FlatModel {
  /** Tree nodes in flamapy's order: the root, then the children of each relation in a pre-order walk over relations. */
  features: FlatFeature[];
  relations: Relation[];
  constraints: FlatConstraint[];
}

/** flamapy's relations for the groups of one feature. */
function groupRelations(f: Feature, parent: number, childIndex: (child: Feature) => number): Relation[] {
  const out: Relation[] = [];
  for (const g of f.groups) {
    // A group left without features (possible only after a tab-hint warning) says nothing.
    if (g.children.length === 0) continue;
    const kids = g.children.map(childIndex);
    const n = kids.length;
    switch (g.kind) {
      case 'mandatory':
        for (const c of kids) out.push({ parent, children: [c], min: 1, max: 1 });
        break;
      case 'optional':
        for (const c of kids) out.push({ parent, children: [c], min: 0, max: 1 });
        break;
      case 'or':
        out.push({ parent, children: kids, min: 1, max: n });
        break;
      case 'alternative':
        out.push({ parent, children: kids, min: 1, max: 1 });
        break;
      case 'cardinality': {
        const c = g.cardinality ?? { min: 0, max: '*' as const };
        out.push({ parent, children: kids, min: c.min, max: c.max === '*' ? n : c.max });
        break;
      }
    }
  }
  return out;
}

/** The constraints written in a model: the constraints section, then the constraint attributes in tree order. */
export function modelConstraints(model: UvlModel): { expression: Expression; origin: 'constraints' | 'attribute' }[] {
  const list: { expression: Expression; origin: 'constraints' | 'attribute' }[] = model.constraints.map((expression) => ({ expression, origin: 'constraints' }));
  // Pre-order, iterative: a deep tree must not overflow the stack.
  const stack: Feature[] = model.root ? [model.root] : [];
  while (stack.length > 0) {
    const f = stack.pop()!;
    for (const a of f.attributes) {
      if (a.kind === 'constraint') list.push({ expression: a.constraint, origin: 'attribute' });
      else if (a.kind === 'constraints') for (const c of a.constraints) list.push({ expression: c, origin: 'attribute' });
    }
    for (let g = f.groups.length - 1; g >= 0; g--) {
      const children = f.groups[g]!.children;
      for (let c = children.length - 1; c >= 0; c--) stack.push(children[c]!);
    }
  }
  return list;
}

/** Every reference name in an expression (features, attributes, aggregate arguments). */
export function expressionReferences(e: Expression, out: Reference[] = []): Reference[] {
  switch (e.kind) {
    case 'ref':
      out.push(e.ref);
      break;
    case 'not':
      expressionReferences(e.operand, out);
      break;
    case 'and':
    case 'or':
      for (const o of e.operands) expressionReferences(o, out);
      break;
    case 'implies':
    case 'equiv':
    case 'compare':
    case 'arith':
      expressionReferences(e.left, out);
      expressionReferences(e.right, out);
      break;
    case 'aggregate':
      out.push(...e.args);
      break;
    default:
      break;
  }
  return out;
}

/**
 * Builds the flat model. With `expandImports` false, a reference to an imported model
 * stays one leaf feature (flamapy 2.5.0 does not read imports).
 */
export function flattenModel(model: UvlModel, options: { expandImports?: boolean } = {}): FlatModel {
  if (!model.root) return { features: [], relations: [], constraints: [] };
  const tree = flattenTree(model, model.root, options.expandImports ?? true);
  const constraints: FlatConstraint[] = modelConstraints(model).map((c) => ({ expression: c.expression, prefix: '', origin: c.origin }));
  if (tree.grafts.length > 0) addGraftedConstraints(constraints, tree.features, tree.grafts);
  return { features: tree.features, relations: tree.relations, constraints };
}

/** An imported model grafted into the tree, under the prefix its features take. */
interface GraftedModel {
  prefix: string;
  model: UvlModel;
}

/** The flat tree as it is built: features and relations in walk order, and the models grafted in. */
interface FlatTree {
  readonly expand: boolean;
  readonly features: FlatFeature[];
  readonly relations: Relation[];
  readonly grafts: GraftedModel[];
}

/** A feature placed in the flat tree: its parsed feature, the model it is from, its name prefix and its index. */
interface PlacedFeature {
  f: Feature;
  owner: UvlModel;
  prefix: string;
  index: number;
}

/** A feature of the walk: its relations, the one reached (r), the next child of it to descend into (c; -1: not yet placed). */
interface WalkFrame {
  item: PlacedFeature;
  rels: Relation[];
  r: number;
  c: number;
  kids: PlacedFeature[][];
}

/**
 * The tree in flamapy's order (its get_features(): pre-order over relations): for each feature, its
 * relations in order; a relation's children get their indices when the relation is reached, then the
 * walk descends into each child in turn. Iterative to stay safe on deep trees.
 */
function flattenTree(model: UvlModel, root: Feature, expand: boolean): FlatTree {
  const tree: FlatTree = { expand, features: [], relations: [], grafts: [] };
  const stack: WalkFrame[] = [];
  // The children of a relation get their indices only when the walk reaches it: -1 until then.
  const open = (item: PlacedFeature): void => {
    stack.push({ item, rels: groupRelations(item.f, item.index, () => -1), r: 0, c: -1, kids: [] });
  };
  open(resolveGraft(tree, placeFeature(tree, root, model, '', -1)));
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.c === -1) {
      if (top.r >= top.rels.length) stack.pop();
      else placeRelationChildren(tree, top);
      continue;
    }
    const items = top.kids[top.r]!;
    if (top.c >= items.length) {
      top.r++;
      top.c = -1;
      continue;
    }
    open(items[top.c++]!);
  }
  return tree;
}

/** Reaching relation r of a frame: its children get their feature entries and the relation is recorded. */
function placeRelationChildren(tree: FlatTree, top: WalkFrame): void {
  const rel = top.rels[top.r]!;
  const { f, owner, prefix, index } = top.item;
  const items = relationChildren(f, top.r).map((cf) => resolveGraft(tree, placeFeature(tree, cf, owner, prefix, index)));
  rel.children = items.map((it) => it.index);
  tree.features[index]!.relations.push(rel);
  tree.relations.push(rel);
  top.kids[top.r] = items;
  top.c = 0;
}

function placeFeature(tree: FlatTree, f: Feature, owner: UvlModel, prefix: string, parent: number): PlacedFeature {
  const name = prefix ? `${prefix}.${f.name}` : f.name;
  const index = tree.features.length;
  tree.features.push({ name, type: f.type ?? 'Boolean', parent, relations: [], source: f });
  return { f, owner, prefix, index };
}

/** A leaf that names an imported feature stands for that feature's subtree (itself possibly a graft). */
function resolveGraft(tree: FlatTree, item: PlacedFeature): PlacedFeature {
  const graft = tree.expand ? graftFor(item.owner, item.f) : undefined;
  if (!graft) return item;
  const prefix = item.prefix ? `${item.prefix}.${graft.prefix}` : graft.prefix;
  tree.grafts.push({ prefix, model: graft.model });
  const placed = tree.features[item.index]!;
  placed.source = graft.feature;
  placed.type = graft.feature.type ?? 'Boolean';
  return resolveGraft(tree, { f: graft.feature, owner: graft.model, prefix, index: item.index });
}

/** The imported feature a leaf `P.R` of owner names (P an import's prefix), with the import's prefix and model. */
function graftFor(owner: UvlModel, f: Feature): { prefix: string; model: UvlModel; feature: Feature } | undefined {
  if (f.groups.length > 0) return undefined;
  for (const imp of owner.imports) {
    const sub = imp.resolved?.model;
    if (!sub?.root) continue;
    const prefix = imp.prefix;
    if (!f.name.startsWith(`${prefix}.`)) continue;
    const target = findFeature(sub.root, f.name.slice(prefix.length + 1));
    if (target) return { prefix, model: sub, feature: target };
  }
  return undefined;
}

/** Adds the constraints of the grafted models, their references to be prefixed; a partial import brings only those over the features it grafted. */
function addGraftedConstraints(out: FlatConstraint[], features: FlatFeature[], grafts: GraftedModel[]): void {
  const names = new Set(features.map((f) => f.name));
  for (const g of grafts) {
    for (const c of modelConstraints(g.model)) {
      const refs = expressionReferences(c.expression);
      if (refs.every((r) => names.has(`${g.prefix}.${r.name}`) || !isFeatureLike(r, g.model))) {
        out.push({ expression: c.expression, prefix: g.prefix, origin: c.origin });
      }
    }
  }
}

/** The children of the r-th relation of a feature (relations as groupRelations makes them). */
function relationChildren(f: Feature, r: number): Feature[] {
  let i = 0;
  for (const g of f.groups) {
    if (g.children.length === 0) continue;
    if (g.kind === 'mandatory' || g.kind === 'optional') {
      if (r < i + g.children.length) return [g.children[r - i]!];
      i += g.children.length;
    } else {
      if (r === i) return g.children;
      i++;
    }
  }
  return [];
}

function findFeature(root: Feature, name: string): Feature | undefined {
  const stack = [root];
  while (stack.length > 0) {
    const f = stack.pop()!;
    if (f.name === name) return f;
    for (const g of f.groups) for (const c of g.children) stack.push(c);
  }
  return undefined;
}

/** Whether a reference names a feature of the model (rather than an attribute). */
function isFeatureLike(ref: Reference, model: UvlModel): boolean {
  return model.root !== undefined && findFeature(model.root, ref.name) !== undefined;
}

export interface ModelCounts {
  features: number;
  constraints: number;
}

/**
 * Number of features and constraints. By default as flamapy 2.5.0 counts them (the
 * hub's "number of features"): every node of the feature tree, a reference to an
 * imported model's feature counting as one; the lines of the constraints section plus
 * every constraint attribute. With `expandImports`, resolved imports are grafted in
 * and their features and constraints counted too.
 */
export function countModel(model: UvlModel, options: { expandImports?: boolean } = {}): ModelCounts {
  if (!options.expandImports) {
    let features = 0;
    if (model.root) {
      const stack = [model.root];
      while (stack.length > 0) {
        const f = stack.pop()!;
        features++;
        for (const g of f.groups) for (const c of g.children) stack.push(c);
      }
    }
    return { features, constraints: modelConstraints(model).length };
  }
  const flat = flattenModel(model, { expandImports: true });
  return { features: flat.features.length, constraints: flat.constraints.length };
}
