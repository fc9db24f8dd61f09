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
  const expand = options.expandImports ?? true;
  const features: FlatFeature[] = [];
  const relations: Relation[] = [];
  const constraints: FlatConstraint[] = [];
  if (!model.root) return { features, relations, constraints };

  // Which tree feature stands for which imported subtree: (model, feature) -> graft.
  interface Graft {
    prefix: string;
    model: UvlModel;
    feature: Feature;
  }
  const graftFor = (owner: UvlModel, f: Feature): Graft | undefined => {
    if (!expand || f.groups.length > 0) return undefined;
    for (const imp of owner.imports) {
      const sub = imp.resolved?.model;
      if (!sub?.root) continue;
      const prefix = imp.prefix;
      if (!f.name.startsWith(`${prefix}.`)) continue;
      const rest = f.name.slice(prefix.length + 1);
      const target = findFeature(sub.root, rest);
      if (target) return { prefix, model: sub, feature: target };
    }
    return undefined;
  };

  // Constraints of grafted models, collected once per (prefix path, model).
  const graftedModels: { prefix: string; model: UvlModel; names: Set<string> }[] = [];

  // Pre-order over relations, as flamapy's get_features(): iterative to stay safe on deep trees.
  type Item = { f: Feature; owner: UvlModel; prefix: string; index: number };
  const add = (f: Feature, owner: UvlModel, prefix: string, parent: number, nameOverride?: string): Item => {
    const name = nameOverride ?? (prefix ? `${prefix}.${f.name}` : f.name);
    const index = features.length;
    features.push({ name, type: f.type ?? 'Boolean', parent, relations: [], source: f });
    return { f, owner, prefix, index };
  };
  const resolve = (item: Item): Item => {
    // A leaf that names an imported feature is replaced by that feature's subtree.
    const graft = graftFor(item.owner, item.f);
    if (!graft) return item;
    const newPrefix = item.prefix ? `${item.prefix}.${graft.prefix}` : graft.prefix;
    graftedModels.push({ prefix: newPrefix, model: graft.model, names: new Set() });
    features[item.index]!.source = graft.feature;
    features[item.index]!.type = graft.feature.type ?? 'Boolean';
    return resolve({ f: graft.feature, owner: graft.model, prefix: newPrefix, index: item.index });
  };
  const rootItem = resolve(add(model.root, model, '', -1));
  // Walk: for each feature, its relations in order; each relation's children get indices when
  // the relation is reached, and the walk then descends into each child in turn.
  const stack: { item: Item; rels: Relation[]; r: number; c: number; kids: Item[][] }[] = [];
  const open = (item: Item) => {
    const kids: Item[][] = [];
    const rels = groupRelations(item.f, item.index, () => -1);
    // Give the children of every relation their feature entries lazily (in walk order).
    stack.push({ item, rels, r: 0, c: -1, kids });
  };
  open(rootItem);
  // Map group children to relation children positions.
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.c === -1) {
      if (top.r >= top.rels.length) {
        stack.pop();
        continue;
      }
      // Reaching relation r: create its children.
      const rel = top.rels[top.r]!;
      const childFeatures = relationChildren(top.item.f, top.r);
      const items = childFeatures.map((cf) => resolve(add(cf, top.item.owner, top.item.prefix, top.item.index)));
      rel.children = items.map((it) => it.index);
      features[top.item.index]!.relations.push(rel);
      relations.push(rel);
      top.kids[top.r] = items;
      top.c = 0;
      continue;
    }
    const items = top.kids[top.r]!;
    if (top.c >= items.length) {
      top.r++;
      top.c = -1;
      continue;
    }
    const child = items[top.c++]!;
    open(child);
  }

  const own = modelConstraints(model);
  for (const c of own) constraints.push({ expression: c.expression, prefix: '', origin: c.origin });
  if (graftedModels.length > 0) {
    const names = new Set(features.map((f) => f.name));
    for (const g of graftedModels) {
      for (const c of modelConstraints(g.model)) {
        // A partial import brings only the constraints over the features it grafted.
        const refs = expressionReferences(c.expression);
        if (refs.every((r) => names.has(`${g.prefix}.${r.name}`) || !isFeatureLike(r, g.model))) {
          constraints.push({ expression: c.expression, prefix: g.prefix, origin: c.origin });
        }
      }
    }
  }
  return { features, relations, constraints };
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
