// The model the readers of other formats build, and how it becomes UVL. Each reader turns its
// format into this small tree (names as the format has them) and a list of losses; buildUvl
// gives the features names UVL can hold, prints the model and parses the text back, so the
// returned model is exactly what the printed UVL means.

import type { Attribute, AttributeValue, Expression, Feature, Group, Reference, Span, UvlModel } from '../ast.ts';
import { printUvl } from '../convert/uvl.ts';
import { formatDiagnostic } from '../diagnostics.ts';
import { parseUvl } from '../parser.ts';

export interface ImportedAttribute {
  name: string;
  value: boolean | number | string | undefined;
}

/** A group of children as UVL has them; `cardinality` groups carry min and max. */
export interface ImportedGroup {
  kind: 'mandatory' | 'optional' | 'or' | 'alternative' | 'cardinality';
  min?: number;
  max?: number | '*';
  children: ImportedFeature[];
}

export interface ImportedFeature {
  /** The name as the format has it (made UVL-safe by buildUvl). */
  name: string;
  abstract: boolean;
  groups: ImportedGroup[];
  attributes: ImportedAttribute[];
}

/** A Boolean constraint over the features of the tree. */
export type Formula =
  | { kind: 'var'; feature: ImportedFeature }
  | { kind: 'not'; operand: Formula }
  | { kind: 'and' | 'or'; operands: Formula[] }
  | { kind: 'implies' | 'equiv'; left: Formula; right: Formula };

/** What every reader returns. `model` and `uvl` are absent when `errors` is not empty. */
export interface FormatReadResult {
  model?: UvlModel;
  uvl?: string;
  /** What the conversion could not carry over; empty when nothing was lost. */
  losses: string[];
  /** `Line <line>:<column> - <message>` (line from 1, column from 0), as checkUvl writes them. */
  errors: string[];
}

export function formatError(line: number, column: number, message: string): string {
  return `Line ${line}:${column} - ${message}`;
}

/** Line (from 1) and column (from 0) of a UTF-16 offset. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: Math.max(0, offset - lineStart) };
}

const SPAN: Span = { offset: 0, length: 0, line: 1, column: 0 };
const ref = (name: string): Reference => ({ name, parts: [name], span: SPAN });

/** A name UVL can write (in quotes if need be): no dot, double quote or line break, not empty. */
function uvlSafeName(name: string): string {
  const safe = name.replace(/[\r\n]+/g, ' ').replace(/\./g, '_').replace(/"/g, "'").trim();
  return safe.length > 0 ? safe : '_';
}

/** A UVL string value: no single quote or line break, not empty. */
function uvlSafeString(value: string): string {
  const safe = value.replace(/\s*[\r\n]+\s*/g, ' ').replace(/'/g, '\u2019').trim();
  return safe.length > 0 ? safe : ' ';
}

/** A finite number as UVL writes numbers: digits with an optional fraction, no exponent (JavaScript's shortest digits, moved by the exponent). */
function plainDecimal(v: number): string {
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(String(v));
  if (!m) return String(v);
  const [, sign, lead, fraction = '', exponentText] = m;
  const digits = lead! + fraction;
  const exponent = Number(exponentText);
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  // Positive exponents come only with integers (from 1e21 on): no fraction is left.
  return `${sign}${digits}${'0'.repeat(exponent - fraction.length)}`;
}

function attributeValue(a: ImportedAttribute, owner: string, losses: string[]): AttributeValue | undefined {
  const v = a.value;
  if (v === undefined) return undefined;
  if (typeof v === 'boolean') return { kind: 'boolean', value: v, span: SPAN };
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) {
      losses.push(`attribute \`${a.name}\` of \`${owner}\` dropped its value ${v}: UVL numbers are finite`);
      return undefined;
    }
    return { kind: 'number', value: v, raw: plainDecimal(v), span: SPAN };
  }
  const safe = uvlSafeString(v);
  if (safe !== v) losses.push(`attribute \`${a.name}\` of \`${owner}\` changed: UVL strings hold no line break, single quote or empty text`);
  return { kind: 'string', value: safe, span: SPAN };
}

/** Gives every feature a distinct UVL-safe name; renames are losses (constraints follow them). */
function assignNames(root: ImportedFeature, losses: string[]): Map<ImportedFeature, string> {
  const names = new Map<ImportedFeature, string>();
  const taken = new Set<string>();
  const pending = [root];
  while (pending.length > 0) {
    const f = pending.pop()!;
    let name = uvlSafeName(f.name);
    for (let n = 2; taken.has(name); n++) name = `${uvlSafeName(f.name)}_${n}`;
    if (name !== f.name) losses.push(`feature \`${f.name}\` renamed to \`${name}\`: UVL names hold no dot, double quote or line break, and are unique`);
    names.set(f, name);
    taken.add(name);
    for (let g = f.groups.length - 1; g >= 0; g--) {
      const children = f.groups[g]!.children;
      for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!);
    }
  }
  return names;
}

function featureOf(f: ImportedFeature, names: Map<ImportedFeature, string>, losses: string[]): Feature {
  const name = names.get(f)!;
  const attributes: Attribute[] = [];
  if (f.abstract) attributes.push({ kind: 'value', name: 'abstract', key: ref('abstract'), span: SPAN });
  for (const a of f.attributes) {
    const key = uvlSafeName(a.name);
    if (key !== a.name) losses.push(`attribute \`${a.name}\` of \`${name}\` renamed to \`${key}\`: UVL names hold no dot or double quote`);
    const value = attributeValue(a, name, losses);
    attributes.push({ kind: 'value', name: key, key: ref(key), ...(value ? { value } : {}), span: SPAN });
  }
  const groups: Group[] = [];
  for (const g of f.groups) {
    if (g.children.length === 0) continue;
    const children = g.children.map((c) => featureOf(c, names, losses));
    const n = children.length;
    // A cardinality that or / alternative already says is written as that keyword.
    if (g.kind === 'cardinality' && g.min === 1 && g.max === 1 && n > 1) groups.push({ kind: 'alternative', children, span: SPAN });
    else if (g.kind === 'cardinality' && g.min === 1 && (g.max === '*' || g.max! >= n) && n > 1) groups.push({ kind: 'or', children, span: SPAN });
    else if (g.kind === 'cardinality') groups.push({ kind: 'cardinality', cardinality: { min: g.min!, max: g.max! }, children, span: SPAN });
    else groups.push({ kind: g.kind, children, span: SPAN });
  }
  return { name, reference: ref(name), attributes, groups, span: SPAN };
}

function expressionOf(e: Formula, nameOf: (f: ImportedFeature) => string): Expression {
  switch (e.kind) {
    case 'var':
      return { kind: 'ref', ref: ref(nameOf(e.feature)), span: SPAN };
    case 'not':
      return { kind: 'not', operand: expressionOf(e.operand, nameOf), span: SPAN };
    case 'and':
    case 'or':
      if (e.operands.length === 1) return expressionOf(e.operands[0]!, nameOf);
      return { kind: e.kind, operands: e.operands.map((o) => expressionOf(o, nameOf)), span: SPAN };
    case 'implies':
    case 'equiv':
      return { kind: e.kind, left: expressionOf(e.left, nameOf), right: expressionOf(e.right, nameOf), span: SPAN };
  }
}

/** The UVL model of an imported tree and its constraints (whose variables are features of the tree). */
export function buildUvl(root: ImportedFeature, constraints: Formula[], losses: string[]): FormatReadResult {
  const names = assignNames(root, losses);
  const model: UvlModel = {
    includes: [],
    imports: [],
    root: featureOf(root, names, losses),
    constraints: constraints.map((c) => expressionOf(c, (f) => names.get(f)!)),
  };
  const uvl = printUvl(model);
  const parsed = parseUvl(uvl);
  const errors = parsed.diagnostics.filter((d) => d.severity === 'error');
  // The printer writes only what the parser reads: an error here is a bug of this module.
  if (errors.length > 0) throw new Error(`the converted model does not parse as UVL: ${errors.map(formatDiagnostic).join('; ')}`);
  return { model: parsed.model, uvl, losses, errors: [] };
}

export function newFeature(name: string): ImportedFeature {
  return { name, abstract: false, groups: [], attributes: [] };
}

/** Adds a mandatory or optional child; consecutive ones of one kind share a group, so the order stays. */
export function addSolitary(parent: ImportedFeature, child: ImportedFeature, mandatory: boolean): void {
  const kind = mandatory ? 'mandatory' : 'optional';
  const last = parent.groups[parent.groups.length - 1];
  if (last?.kind === kind) last.children.push(child);
  else parent.groups.push({ kind, children: [child] });
}
