// Test support: each format's own semantics as a CNF, read straight from the file (the XML
// tree, the SXFM lines, the JSON), independent of the readers and of UVL, so that a test can
// count the original's configurations and compare them with the converted model's.
// Auxiliary variables are defined by equivalences, so the count over all variables equals the
// count over the features.

import { parseXml, type XmlElement } from './xml.ts';

type F = { v: string } | { not: F } | { and: F[] } | { or: F[] };

export class DirectCnf {
  numVars = 0;
  clauses: number[][] = [];
  private vars = new Map<string, number>();

  /** The variable of a feature key; `#<n>` is variable n itself (group() names its cells so). */
  feature(key: string): number {
    if (key.startsWith('#')) return Number(key.slice(1));
    let v = this.vars.get(key);
    if (v === undefined) this.vars.set(key, (v = ++this.numVars));
    return v;
  }
  private fresh(): number {
    return ++this.numVars;
  }
  /** A literal equivalent to the formula (Tseitin with both directions). */
  literal(f: F): number {
    if ('v' in f) return this.feature(f.v);
    if ('not' in f) return -this.literal(f.not);
    const isAnd = 'and' in f;
    const lits = (isAnd ? f.and : f.or).map((g) => this.literal(g));
    const t = this.fresh();
    if (isAnd) {
      for (const l of lits) this.clauses.push([-t, l]);
      this.clauses.push([t, ...lits.map((l) => -l)]);
    } else {
      for (const l of lits) this.clauses.push([t, -l]);
      this.clauses.push([-t, ...lits]);
    }
    return t;
  }
  assert(f: F): void {
    this.clauses.push([this.literal(f)]);
  }
  /** parent => between min and max of members (a sequential counter whose cells are defined by equivalences). */
  group(parent: number, members: number[], min: number, max: number): void {
    for (const m of members) this.clauses.push([-m, parent]);
    const top = Math.min(members.length, max + 1);
    // atLeast[j] after i members: "at least j of the first i are selected".
    let prev: number[] = [];
    members.forEach((m, i) => {
      const next: number[] = [];
      for (let j = 1; j <= Math.min(top, i + 1); j++) {
        const add: F = j === 1 ? { v: `#${m}` } : { and: [{ v: `#${prev[j - 1]}` }, { v: `#${m}` }] };
        next[j] = this.literal(j <= i ? { or: [{ v: `#${prev[j]}` }, add] } : add);
      }
      prev = next;
    });
    const atLeast = (j: number): number | undefined => (j <= 0 ? undefined : prev[j]);
    if (min > members.length) this.clauses.push([-parent]);
    else if (min > 0) this.clauses.push([-parent, atLeast(min)!]);
    if (max < members.length) this.clauses.push([-atLeast(max + 1)!]);
  }
}

// FeatureIDE XML -------------------------------------------------------------------------

const FIDE_FEATURES = new Set(['and', 'or', 'alt', 'feature']);

function fideFormula(e: XmlElement): F {
  const ops = e.children.filter((c) => c.name !== 'description').map(fideFormula);
  switch (e.name) {
    case 'var':
      return { v: `f:${e.text.trim()}` };
    case 'not':
      return { not: ops[0]! };
    case 'conj':
      return { and: ops };
    case 'disj':
      return { or: ops };
    case 'imp':
      return { or: [{ not: ops[0]! }, ops[1]!] };
    case 'eq':
      return { or: [{ and: [ops[0]!, ops[1]!] }, { and: [{ not: ops[0]! }, { not: ops[1]! }] }] };
    case 'atmost1': {
      const pairs: F[] = [];
      for (let i = 0; i < ops.length; i++) for (let j = i + 1; j < ops.length; j++) pairs.push({ not: { and: [ops[i]!, ops[j]!] } });
      return { and: pairs }; // no pair (one operand): true
    }
    default:
      throw new Error(`unknown rule element ${e.name}`);
  }
}

export function featureIdeCnf(text: string): DirectCnf {
  const parsed = parseXml(text);
  if ('error' in parsed) throw new Error(parsed.error);
  const cnf = new DirectCnf();
  const struct = parsed.root.children.find((c) => c.name === 'struct')!;
  const root = struct.children.find((c) => FIDE_FEATURES.has(c.name))!;
  cnf.clauses.push([cnf.feature(`f:${root.attributes.name}`)]);
  const walk = (e: XmlElement): void => {
    const p = cnf.feature(`f:${e.attributes.name}`);
    const kids = e.children.filter((c) => FIDE_FEATURES.has(c.name));
    const ids = kids.map((k) => cnf.feature(`f:${k.attributes.name}`));
    if (e.name === 'or') cnf.group(p, ids, 1, ids.length);
    else if (e.name === 'alt') cnf.group(p, ids, 1, 1);
    else kids.forEach((k, i) => cnf.group(p, [ids[i]!], k.attributes.mandatory === 'true' ? 1 : 0, 1));
    kids.forEach(walk);
  };
  walk(root);
  for (const c of parsed.root.children.filter((x) => x.name === 'constraints')) {
    for (const rule of c.children) {
      const body = rule.children.find((x) => x.name !== 'description' && x.name !== 'tags');
      if (body) cnf.assert(fideFormula(body));
    }
  }
  return cnf;
}

// SPLOT SXFM ---------------------------------------------------------------------------------

function between(text: string, open: string, close: string): string {
  const a = text.indexOf('>', text.indexOf(`<${open}`)) + 1;
  return text.slice(a, text.indexOf(`</${close}`, a));
}

export function sxfmCnf(text: string): DirectCnf {
  const cnf = new DirectCnf();
  // A node's key: its explicit id, else a key of its own (SPLOT numbers such nodes itself).
  const ids = new Set<string>();
  const firstByName = new Map<string, string>();
  let line = 0;
  const keyOf = (rest: string): string => {
    line++;
    const half = rest.trim();
    // The hub's writer writes `name (name)`: the id is what repeats the name.
    for (let i = half.indexOf(' ('); i >= 0; i = half.indexOf(' (', i + 1)) if (half.slice(0, i) === half.slice(i + 2, -1)) return remember(half.slice(0, i), half.slice(0, i));
    const m = /^(.*?)\s*\(([^()]+)\)\s*$/.exec(half);
    return m ? remember(m[1]!.trim(), m[2]!.trim()) : remember(half, undefined);
  };
  const remember = (name: string, id: string | undefined): string => {
    const key = id !== undefined ? `s:${id}` : `s@${line}`;
    if (id !== undefined) ids.add(id);
    if (!firstByName.has(name)) firstByName.set(name, key);
    return key;
  };
  const stack: Array<{ indent: number; v?: number; group?: { members: number[]; min: number; max: number | '*'; parent: number } }> = [];
  const groups: Array<{ members: number[]; min: number; max: number | '*'; parent: number }> = [];
  for (const raw of between(text, 'feature_tree', 'feature_tree').split(/\r?\n/)) {
    const rest = raw.trim();
    if (!rest) continue;
    const indent = raw.length - raw.trimStart().length;
    while (stack.length && stack[stack.length - 1]!.indent >= indent) stack.pop();
    const parent = stack[stack.length - 1];
    const g = /^:g\s*(?:\([^)]*\))?\s*\[(\d+),\s*(\d+|\*)\]/.exec(rest);
    if (g) {
      const group = { members: [], min: Number(g[1]), max: g[2] === '*' ? ('*' as const) : Number(g[2]), parent: parent!.v! };
      groups.push(group);
      stack.push({ indent, group });
      continue;
    }
    const tag = /^:([rmo]?)\s/.exec(rest)![1];
    const v = cnf.feature(keyOf(rest.replace(/^:[rmo]?\s+/, '')));
    // As the reader: a line inside a group is a member, a line below a feature a solitary child.
    if (tag === 'r') cnf.clauses.push([v]);
    else if (parent!.group) parent!.group.members.push(v);
    else cnf.group(parent!.v!, [v], tag === 'm' ? 1 : 0, 1);
    stack.push({ indent, v });
  }
  for (const g of groups) cnf.group(g.parent, g.members, g.min, g.max === '*' ? g.members.length : g.max);
  const body = between(text, 'constraints', 'constraints').replace(/<!--[\s\S]*?-->/g, '');
  const decode = (s: string): string => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
  for (const line of body.split(/\r?\n/)) {
    if (!line.includes(':')) continue;
    const lits = line.slice(line.indexOf(':') + 1).split(/\s+or\s+/).map((l) => decode(l.trim()));
    const variable = (literal: string): number => cnf.feature(ids.has(literal) ? `s:${literal}` : firstByName.get(literal) ?? `s:${literal}`);
    cnf.clauses.push(lits.map((l) => (l.startsWith('~') ? -variable(l.slice(1).trim()) : variable(l))));
  }
  return cnf;
}

// Glencoe JSON --------------------------------------------------------------------------------

type Term = { type: string; operands: Array<Term | string> };

function glencoeFormula(t: Term | string): F {
  if (typeof t === 'string') return { v: `g:${t}` };
  const ops = t.operands.map(glencoeFormula);
  switch (t.type) {
    case 'FeatureTerm':
      return ops[0]!;
    case 'NotTerm':
      return { not: ops[0]! };
    case 'AndTerm':
      return { and: ops };
    case 'OrTerm':
      return { or: ops };
    case 'ImpliesTerm':
    case 'RequiresTerm':
      return { or: [{ not: ops[0]! }, ops[1]!] };
    case 'ExcludesTerm':
      return { not: { and: ops } };
    case 'XorTerm':
      return { or: [{ and: [ops[0]!, { not: ops[1]! }] }, { and: [{ not: ops[0]! }, ops[1]!] }] };
    case 'EquivalentTerm':
      return { or: [{ and: [ops[0]!, ops[1]!] }, { and: [{ not: ops[0]! }, { not: ops[1]! }] }] };
    default:
      throw new Error(`unknown term ${t.type}`);
  }
}

export function glencoeCnf(text: string): DirectCnf {
  type Node = { id: string; children?: Node[] };
  const doc = JSON.parse(text) as { features?: Record<string, { optional?: boolean; type?: string; min?: number; max?: number }>; tree: Node; constraints?: Record<string, Term> };
  const cnf = new DirectCnf();
  const info = doc.features ?? {};
  cnf.clauses.push([cnf.feature(`g:${doc.tree.id}`)]);
  const pending: Node[] = [doc.tree];
  while (pending.length) {
    const n = pending.pop()!;
    const kids = n.children ?? [];
    const p = cnf.feature(`g:${n.id}`);
    const ids = kids.map((k) => cnf.feature(`g:${k.id}`));
    const type = info[n.id]?.type ?? 'FEATURE';
    if (type === 'XOR') cnf.group(p, ids, 1, 1);
    else if (type === 'OR') cnf.group(p, ids, 1, ids.length);
    else if (type === 'GENOR') cnf.group(p, ids, info[n.id]!.min ?? 0, info[n.id]!.max ?? ids.length);
    else kids.forEach((k, i) => cnf.group(p, [ids[i]!], info[k.id]?.optional === false ? 1 : 0, 1));
    pending.push(...kids);
  }
  for (const t of Object.values(doc.constraints ?? {})) cnf.assert(glencoeFormula(t));
  return cnf;
}
