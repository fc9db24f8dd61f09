// UVL to FeatureIDE XML, with the losses. FeatureIDE gives each feature one kind of children
// (and: each mandatory or optional; or; alt), so a feature whose UVL groups are not one `or`
// or one `alternative` becomes an `and` whose solitary children stay as they are and whose
// other groups each get an abstract mandatory helper feature (`_group_<feature>_<k>`) holding
// the members. A helper is selected exactly when its parent is, so the configurations (over
// the model's own features) stay the same. Cardinality groups [a..b] other than or and
// alternative are encoded exactly by rules over their members: `atmost1` for [0..1], else
// "at least a" and "at most b" as clauses over subsets while those stay few
// (MAX_CARDINALITY_CLAUSES), and past that by a sequential counter: abstract optional features
// `_count_<helper>_<i>_<j>` ("at least j of the first i members"), each defined by an `eq` rule,
// so their values follow from the members' and the configurations stay the same.

import type { Attribute, UvlModel } from '../ast.ts';
import { prepareExport, type BoolExpr } from '../convert/common.ts';
import { xmlAttr } from '../convert/splot.ts';
import type { FlatFeature, Relation } from '../semantics.ts';

const MAX_CARDINALITY_CLAUSES = 2_000;

export interface FeatureIdeResult {
  xml: string;
  /** What FeatureIDE cannot hold; empty when the conversion is exact. */
  losses: string[];
}


/** A rule body: FeatureIDE's Boolean elements. */
type Rule = { tag: 'var'; name: string } | { tag: 'not' | 'conj' | 'disj' | 'imp' | 'eq' | 'atmost1'; operands: Rule[] };

function ruleOf(e: BoolExpr, nameOf: (name: string) => string): Rule {
  switch (e.kind) {
    case 'var':
      return { tag: 'var', name: nameOf(e.name) };
    case 'not':
      return { tag: 'not', operands: [ruleOf(e.operand, nameOf)] };
    case 'and':
    case 'or':
      return { tag: e.kind === 'and' ? 'conj' : 'disj', operands: e.operands.map((o) => ruleOf(o, nameOf)) };
    case 'implies':
    case 'equiv':
      return { tag: e.kind === 'implies' ? 'imp' : 'eq', operands: [ruleOf(e.left, nameOf), ruleOf(e.right, nameOf)] };
  }
}

function writeRule(r: Rule, depth: number, out: string[]): void {
  const pad = '\t'.repeat(depth);
  if (r.tag === 'var') out.push(`${pad}<var>${xmlAttr(r.name)}</var>`);
  else {
    out.push(`${pad}<${r.tag}>`);
    for (const o of r.operands) writeRule(o, depth + 1, out);
    out.push(`${pad}</${r.tag}>`);
  }
}

/** Subsets of `items` of size k, in order; stops (returns undefined) past `limit`. */
function subsets<T>(items: T[], k: number, limit: number): T[][] | undefined {
  const out: T[][] = [];
  const pick: number[] = [];
  const walk = (from: number): boolean => {
    if (pick.length === k) {
      out.push(pick.map((i) => items[i]!));
      return out.length <= limit;
    }
    for (let i = from; i <= items.length - (k - pick.length); i++) {
      pick.push(i);
      if (!walk(i + 1)) return false;
      pick.pop();
    }
    return true;
  };
  return walk(0) ? out : undefined;
}

/** Subset rules saying that between min and max of `members` are selected when `owner` is; undefined when too many. */
function cardinalityRules(owner: string, members: string[], min: number, max: number): Rule[] | undefined {
  const v = (name: string): Rule => ({ tag: 'var', name });
  const n = members.length;
  if (min === 0 && max === 1) return [{ tag: 'atmost1', operands: members.map(v) }];
  const rules: Rule[] = [];
  if (min > n) return [{ tag: 'not', operands: [v(owner)] }];
  if (min > 0) {
    // At least min of n: every n-min+1 of them hold one selected.
    const sets = subsets(members, n - min + 1, MAX_CARDINALITY_CLAUSES);
    if (!sets) return undefined;
    for (const s of sets) rules.push({ tag: 'imp', operands: [v(owner), s.length === 1 ? v(s[0]!) : { tag: 'disj', operands: s.map(v) }] });
  }
  if (max < n) {
    // At most max of n: no max+1 of them together.
    const sets = subsets(members, max + 1, MAX_CARDINALITY_CLAUSES - rules.length);
    if (!sets) return undefined;
    for (const s of sets) rules.push({ tag: 'not', operands: [s.length === 1 ? v(s[0]!) : { tag: 'conj', operands: s.map(v) }] });
  }
  return rules;
}

/**
 * A sequential counter over the members: cell (i, j) holds when at least j of the first i
 * members are selected. Returns the cells (to be written as abstract optional features) and
 * their defining rules plus the bounds.
 */
function counterRules(owner: string, members: string[], min: number, max: number, cellName: (i: number, j: number) => string): { cells: string[]; rules: Rule[] } {
  const v = (name: string): Rule => ({ tag: 'var', name });
  const n = members.length;
  const top = Math.min(n, max + 1);
  const cells: string[] = [];
  const rules: Rule[] = [];
  let previous: string[] = [];
  members.forEach((m, i) => {
    const current: string[] = [];
    for (let j = 1; j <= Math.min(top, i + 1); j++) {
      const cell = cellName(i + 1, j);
      const add: Rule = j === 1 ? v(m) : { tag: 'conj', operands: [v(previous[j - 1]!), v(m)] };
      rules.push({ tag: 'eq', operands: [v(cell), j <= i ? { tag: 'disj', operands: [v(previous[j]!), add] } : add] });
      cells.push(cell);
      current[j] = cell;
    }
    previous = current;
  });
  if (min > n) rules.push({ tag: 'not', operands: [v(owner)] });
  else if (min > 0) rules.push({ tag: 'imp', operands: [v(owner), v(previous[min]!)] });
  if (max < n) rules.push({ tag: 'not', operands: [v(previous[max + 1]!)] });
  return { cells, rules };
}

interface Writer {
  features: FlatFeature[];
  /** FeatureIDE name of each tree node (duplicates renamed). */
  names: string[];
  taken: Set<string>;
  rules: Rule[];
  losses: string[];
  extended: boolean;
}

function attributeLines(w: Writer, f: FlatFeature, name: string, pad: string): { lines: string[]; abstract: boolean; hidden: boolean } {
  const lines: string[] = [];
  let abstract = false;
  let hidden = false;
  for (const a of f.source.attributes as Attribute[]) {
    if (a.kind !== 'value') continue; // constraint attributes are among the model's constraints
    const v = a.value;
    if (a.name === 'abstract' && (v === undefined || (v.kind === 'boolean' && v.value))) abstract = true;
    else if (a.name === 'hidden' && (v === undefined || (v.kind === 'boolean' && v.value))) hidden = true;
    else if (a.name === 'description' && v?.kind === 'string') lines.push(`${pad}<description>${xmlAttr(v.value)}</description>`);
    else if (v?.kind === 'number' || v?.kind === 'boolean' || v?.kind === 'string') {
      const type = v.kind === 'number' ? (Number.isInteger(v.value) ? 'long' : 'double') : v.kind;
      w.extended = true;
      lines.push(`${pad}<attribute name="${xmlAttr(a.name)}" type="${type}" value="${xmlAttr(String(v.value))}"/>`);
    } else w.losses.push(`attribute \`${a.name}\` of \`${name}\` dropped: FeatureIDE attributes hold a number, a boolean or a string, not ${v ? `a ${v.kind === 'attributes' ? 'nested attribute list' : v.kind}` : 'a flag without value'}`);
  }
  return { lines, abstract, hidden };
}

/** A name for a helper feature, distinct from every other (a suffix _2, _3, … if need be). */
function uniqueName(w: Writer, base: string): string {
  let name = base;
  for (let n = 2; w.taken.has(name); n++) name = `${base}_${n}`;
  w.taken.add(name);
  return name;
}

function groupKind(r: Relation): 'mandatory' | 'optional' | 'or' | 'alt' | 'cardinality' {
  const n = r.children.length;
  if (n === 1 && r.min === 1 && r.max === 1) return 'mandatory';
  if (n === 1 && r.min === 0 && r.max >= 1) return 'optional';
  if (r.min === 1 && r.max === 1) return 'alt';
  if (r.min === 1 && r.max >= n) return 'or';
  if (r.min === 0 && r.max >= n) return 'optional'; // [0..n]: every member on its own
  return 'cardinality';
}

/**
 * What is left to write, last first: a feature, a relation of one, or what closes one once its
 * children are written. A stack, not recursion: a tree as deep as the syntax tree allows (a chain
 * of 20 000 features built through the library) overflowed the call stack.
 */
type Task =
  | { feature: number; mandatory: boolean; depth: number }
  | { relation: Relation; parent: number; kind: ReturnType<typeof groupKind>; k: number; depth: number }
  | { after: () => void };

function writeTree(w: Writer, out: string[]): void {
  const tasks: Task[] = [{ feature: 0, mandatory: true, depth: 2 }];
  while (tasks.length > 0) {
    const task = tasks.pop()!;
    if ('after' in task) task.after();
    else if ('feature' in task) writeFeature(w, task.feature, task.mandatory, task.depth, out, tasks);
    else writeRelation(w, task, out, tasks);
  }
}

/** Children in order: pushed last first. */
function pushFeatures(tasks: Task[], children: number[], mandatory: boolean, depth: number): void {
  for (let c = children.length - 1; c >= 0; c--) tasks.push({ feature: children[c]!, mandatory, depth });
}

function writeFeature(w: Writer, i: number, mandatory: boolean, depth: number, out: string[], tasks: Task[]): void {
  const f = w.features[i]!;
  const name = w.names[i]!;
  const pad = '\t'.repeat(depth);
  const attrs = attributeLines(w, f, name, `${pad}\t`);
  if (f.type !== 'Boolean') w.losses.push(`feature \`${name}\` of type ${f.type} written as a Boolean feature: FeatureIDE features have no type`);
  if (f.source.cardinality) w.losses.push(`feature cardinality of \`${name}\` dropped: FeatureIDE has no feature cardinalities (the feature is written once)`);
  const kinds = f.relations.map(groupKind);
  const single = f.relations.length === 1 && (kinds[0] === 'or' || kinds[0] === 'alt') ? kinds[0] : undefined;
  const tag = f.relations.length === 0 ? 'feature' : (single ?? 'and');
  const flags = `${attrs.abstract ? ' abstract="true"' : ''}${attrs.hidden ? ' hidden="true"' : ''}${mandatory ? ' mandatory="true"' : ''}`;
  const open = `${pad}<${tag}${flags} name="${xmlAttr(name)}"`;
  if (tag === 'feature' && attrs.lines.length === 0) {
    out.push(`${open}/>`);
    return;
  }
  out.push(`${open}>`);
  for (const line of attrs.lines) out.push(line);
  tasks.push({ after: () => out.push(`${pad}</${tag}>`) });
  if (single) pushFeatures(tasks, f.relations[0]!.children, false, depth + 1);
  else for (let k = f.relations.length - 1; k >= 0; k--) tasks.push({ relation: f.relations[k]!, parent: i, kind: kinds[k]!, k, depth: depth + 1 });
}

/** One relation of an `and` feature: solitary children directly, a group through a helper feature. */
function writeRelation(w: Writer, task: Extract<Task, { relation: Relation }>, out: string[], tasks: Task[]): void {
  const { relation: r, parent, kind, k, depth } = task;
  if (kind === 'mandatory' || kind === 'optional') {
    pushFeatures(tasks, r.children, kind === 'mandatory', depth);
    return;
  }
  const pad = '\t'.repeat(depth);
  const helper = uniqueName(w, `_group_${w.names[parent]!}_${k}`);
  const tag = kind === 'cardinality' ? 'and' : kind;
  out.push(`${pad}<${tag} abstract="true" mandatory="true" name="${xmlAttr(helper)}">`);
  tasks.push({ after: () => closeGroup(w, r, kind, helper, pad, tag, out) });
  pushFeatures(tasks, r.children, false, depth + 1);
}

/** After a group's members: a cardinality group's rules (or counter cells), then its closing tag. */
function closeGroup(w: Writer, r: Relation, kind: ReturnType<typeof groupKind>, helper: string, pad: string, tag: string, out: string[]): void {
  if (kind === 'cardinality') {
    const members = r.children.map((c) => w.names[c]!);
    const rules = cardinalityRules(helper, members, r.min, r.max);
    if (rules) for (const rule of rules) w.rules.push(rule);
    else {
      const counter = counterRules(helper, members, r.min, r.max, (i, j) => uniqueName(w, `_count_${helper}_${i}_${j}`));
      for (const cell of counter.cells) out.push(`${pad}\t<feature abstract="true" name="${xmlAttr(cell)}"/>`);
      for (const rule of counter.rules) w.rules.push(rule);
    }
  }
  out.push(`${pad}</${tag}>`);
}

/** The model as FeatureIDE XML (`extendedFeatureModel` when attributes need it). Throws UvlExportError like the other writers. */
export function toFeatureIde(model: UvlModel): FeatureIdeResult {
  const x = prepareExport(model);
  const w: Writer = { features: x.flat.features, names: [], taken: new Set(), rules: [], losses: [], extended: false };
  for (const imp of model.imports) {
    if (!imp.resolved) w.losses.push(`import \`${imp.namespace.name}\` not resolved: the features referring to it are written as leaves without its subtree or constraints`);
  }
  // flamapy's semantics: nodes with one name are one feature. FeatureIDE names are unique, so a
  // repeated name is renamed and tied to the first by an `eq` rule (the same configurations).
  x.flat.features.forEach((f, i) => {
    let name = f.name;
    if (w.taken.has(name)) {
      for (let n = 2; w.taken.has(name); n++) name = `${f.name}_${n}`;
      w.rules.push({ tag: 'eq', operands: [{ tag: 'var', name: f.name }, { tag: 'var', name }] });
      w.losses.push(`second feature \`${f.name}\` renamed to \`${name}\`, with a rule making them equal: FeatureIDE names are unique`);
    }
    w.names[i] = name;
    w.taken.add(name);
  });
  const tree: string[] = [];
  writeTree(w, tree);
  const nameOf = (n: string): string => n; // constraints name features by their first node's name
  const rules = [...x.constraints.map((c) => ruleOf(c.expression, nameOf)), ...w.rules];
  for (const text of x.leftOut) w.losses.push(`constraint \`${text}\` dropped: FeatureIDE constraints are Boolean (no arithmetic, aggregate or string constraints)`);
  const root = w.extended ? 'extendedFeatureModel' : 'featureModel';
  const out = ['<?xml version="1.0" encoding="UTF-8" standalone="no"?>', `<${root}>`, '\t<properties/>', '\t<struct>', ...tree, '\t</struct>'];
  if (rules.length > 0) {
    out.push('\t<constraints>');
    for (const r of rules) {
      out.push('\t\t<rule>');
      writeRule(r, 3, out);
      out.push('\t\t</rule>');
    }
    out.push('\t</constraints>');
  }
  out.push(`</${root}>`);
  return { xml: `${out.join('\n')}\n`, losses: w.losses };
}
