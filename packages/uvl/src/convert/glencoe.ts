// Glencoe JSON as flamapy 2 writes it (GlencoeWriter): json.dumps(indent=4) of
// {id, name, features (sorted by name), tree (children sorted by name), constraints}.
// Feature ids are flamapy's secure names: every character outside [A-Za-z0-9_] becomes '_'.
// Constraints that Glencoe terms cannot express are left out and listed in a top-level
// "note" (flamapy fails on them instead).

import type { UvlModel } from '../ast.ts';
import { byName, isAlternative, isCardinal, isMandatory, isOr, prepareExport, type BoolExpr } from './common.ts';

const LEFT_NESTED_MAX = 32;

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * Glencoe ids of the feature names, in tree order: every character outside [A-Za-z0-9_] becomes
 * '_' (as flamapy's secure names). Names that need no change keep their id; a changed name whose
 * id is taken gets the first free numeric suffix `_<n>`, so two features never merge into one.
 */
function glencoeIds(names: readonly string[]): Map<string, string> {
  const ids = new Map<string, string>();
  const taken = new Set<string>();
  for (const name of names) if (!/[^A-Za-z0-9_]/.test(name)) { ids.set(name, name); taken.add(name); }
  for (const name of names) {
    if (ids.has(name)) continue;
    const base = name.replace(/[^A-Za-z0-9_]/g, '_');
    let id = base;
    for (let n = 1; taken.has(id); n++) id = `${base}_${n}`;
    ids.set(name, id);
    taken.add(id);
  }
  return ids;
}

function term(e: BoolExpr, ids: Map<string, string>): Json {
  switch (e.kind) {
    case 'var':
      return { type: 'FeatureTerm', operands: [ids.get(e.name) ?? e.name] };
    case 'not':
      return { type: 'NotTerm', operands: [term(e.operand, ids)] };
    case 'implies':
      return { type: 'ImpliesTerm', operands: [term(e.left, ids), term(e.right, ids)] };
    case 'equiv':
      return { type: 'EquivalentTerm', operands: [term(e.left, ids), term(e.right, ids)] };
    case 'and':
    case 'or': {
      // flamapy's AST is binary and left-nested, as the reference parser reads A & B & C.
      // A long chain is nested as a balanced tree instead: the same formula, but its
      // indented JSON stays near-linear in size (left-nesting 20 000 operands would take
      // gigabytes of indentation) and shallow enough for any JSON reader.
      const type = e.kind === 'and' ? 'AndTerm' : 'OrTerm';
      const terms = e.operands.map((o) => term(o, ids));
      if (terms.length <= LEFT_NESTED_MAX) {
        let acc = terms[0]!;
        for (let i = 1; i < terms.length; i++) acc = { type, operands: [acc, terms[i]!] };
        return acc;
      }
      const balanced = (lo: number, hi: number): Json => {
        if (hi - lo === 1) return terms[lo]!;
        const mid = (lo + hi) >> 1;
        return { type, operands: [balanced(lo, mid), balanced(mid, hi)] };
      };
      return balanced(0, terms.length);
    }
  }
}

/** JSON.stringify(value, null, 4) written with an explicit stack: the same text, for values too deep for it. */
function stringifyDeep(value: Json): string {
  const parts: string[] = [];
  const stack: { items: Array<[string | undefined, Json]>; next: number; pad: string; close: string }[] = [];
  const write = (v: Json, pad: string): void => {
    if (v === null || typeof v !== 'object') {
      parts.push(JSON.stringify(v));
      return;
    }
    const isArray = Array.isArray(v);
    const items: Array<[string | undefined, Json]> = isArray ? v.map((item): [undefined, Json] => [undefined, item]) : Object.entries(v);
    if (items.length === 0) {
      parts.push(isArray ? '[]' : '{}');
      return;
    }
    parts.push(isArray ? '[' : '{');
    stack.push({ items, next: 0, pad, close: isArray ? ']' : '}' });
  };
  write(value, '');
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.next === top.items.length) {
      parts.push(`\n${top.pad}${top.close}`);
      stack.pop();
      continue;
    }
    const [key, item] = top.items[top.next++]!;
    const pad = `${top.pad}    `;
    parts.push(`${top.next > 1 ? ',' : ''}\n${pad}${key === undefined ? '' : `${JSON.stringify(key)}: `}`);
    write(item, pad);
  }
  return parts.join('');
}

/**
 * Python's json.dumps(..., indent=4) with its default ensure_ascii. JSON.stringify is the
 * fast path; it recurses, so a tree a few thousand features deep overflows its stack and
 * is written by stringifyDeep instead (same text).
 */
function pythonJson(value: Json): string {
  let text: string;
  try {
    text = JSON.stringify(value, null, 4);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    text = stringifyDeep(value);
  }
  return text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The model as Glencoe JSON. Throws UvlExportError for a constraint naming an unknown feature. */
export function toGlencoe(model: UvlModel): string {
  const x = prepareExport(model);
  const { features } = x.flat;
  const root = features[0]!;
  const ids = glencoeIds(features.map((f) => f.name));
  const idOf = (name: string): string => ids.get(name)!;

  // flamapy: a feature is mandatory when some relation of its parent is [1,1] over this one
  // feature (by name). Collected once per parent, so that a group of n features costs O(n),
  // not O(n^2) (each feature of a mandatory or optional group has a relation of its own).
  const mandatoryNames = new Map<number, Set<string>>();
  for (const r of x.flat.relations) {
    if (!isMandatory(r)) continue;
    let names = mandatoryNames.get(r.parent);
    if (!names) mandatoryNames.set(r.parent, (names = new Set()));
    names.add(features[r.children[0]!]!.name);
  }

  const featureInfo: { [key: string]: Json } = {};
  // Sorted by id, as flamapy sorts its (renamed) features by name.
  const order = features.map((_, i) => i).sort((a, b) => byName(idOf(features[a]!.name), idOf(features[b]!.name)));
  for (const i of order) {
    const f = features[i]!;
    let type = 'FEATURE';
    if (f.relations.some(isAlternative)) type = 'XOR';
    else if (f.relations.some(isOr)) type = 'OR';
    else if (f.relations.some(isCardinal)) type = 'GENOR';
    const mandatory = mandatoryNames.get(f.parent)?.has(f.name) ?? false;
    const info: { [key: string]: Json } = { name: idOf(f.name), optional: !mandatory, type, note: '' };
    if (type === 'GENOR') {
      const r = f.relations.find(isCardinal)!;
      info.min = r.min;
      info.max = r.max;
    }
    featureInfo[idOf(f.name)] = info;
  }

  // The tree, built iteratively (a deep chain must not overflow the stack): each node is
  // made when its parent is, children sorted by name.
  const nodeOf = (i: number): { [key: string]: Json } => ({ id: idOf(features[i]!.name) });
  const tree = nodeOf(0);
  const pending: Array<{ i: number; node: { [key: string]: Json } }> = [{ i: 0, node: tree }];
  while (pending.length > 0) {
    const { i, node } = pending.pop()!;
    const kids = features[i]!.relations.flatMap((r) => r.children).sort((a, b) => byName(idOf(features[a]!.name), idOf(features[b]!.name)));
    if (kids.length === 0) continue;
    const children = kids.map((k) => {
      const child = nodeOf(k);
      pending.push({ i: k, node: child });
      return child;
    });
    node.children = children;
  }

  const constraints: { [key: string]: Json } = {};
  for (const c of x.constraints) constraints[c.name] = term(c.expression, ids);

  const result: { [key: string]: Json } = {
    id: `FM_${idOf(root.name)}`,
    name: `FM_${idOf(root.name)}`,
    features: featureInfo,
    tree,
    constraints,
  };
  if (x.leftOut.length > 0) {
    result.note = `Left out ${x.leftOut.length} constraint${x.leftOut.length > 1 ? 's' : ''} that Glencoe cannot express (arithmetic, aggregate or string constraints): ${x.leftOut.join('; ')}`;
  }
  return pythonJson(result);
}
