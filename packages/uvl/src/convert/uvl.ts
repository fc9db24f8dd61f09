// The canonical UVL printer: parsing its output gives the same model (positions aside).
// Four spaces per level, one blank line between sections, names quoted only when needed,
// and parentheses exactly where the tree needs them.

import type { Attribute, AttributeValue, Cardinality, Expression, Feature, Group, Reference, UvlModel } from '../ast.ts';
import { isPlainName } from '../tokens.ts';

const INDENT = '    ';

/** A name part as UVL text: bare when it is a plain name, else in double quotes. */
export function printName(part: string): string {
  return isPlainName(part) ? part : `"${part}"`;
}

export function printReference(ref: Pick<Reference, 'parts'>): string {
  return ref.parts.map(printName).join('.');
}

function printCardinality(c: Cardinality): string {
  return c.min === c.max ? `[${c.min}]` : `[${c.min}..${c.max}]`;
}

export function printValue(v: AttributeValue): string {
  switch (v.kind) {
    case 'boolean':
      return v.value ? 'true' : 'false';
    case 'number':
      return v.raw;
    case 'string':
      return `'${v.value}'`;
    case 'attributes':
      return printAttributes(v.attributes);
    case 'vector': {
      const inner = v.values.map(printValue).join(', ');
      // `[3]` would read as a cardinality token: a space keeps it a one-element vector.
      return v.values.length === 1 && v.values[0]!.kind === 'number' && !v.values[0]!.raw.includes('.') ? `[${inner} ]` : `[${inner}]`;
    }
  }
}

function printAttribute(a: Attribute): string {
  switch (a.kind) {
    case 'value':
      return a.value === undefined ? printName(a.name) : `${printName(a.name)} ${printValue(a.value)}`;
    case 'constraint':
      return `constraint ${printExpression(a.constraint)}`;
    case 'constraints':
      return `constraints [${a.constraints.map(printExpression).join(', ')}]`;
  }
}

function printAttributes(list: Attribute[]): string {
  return `{${list.map(printAttribute).join(', ')}}`;
}

// Precedence, loosest first; mirrors the parser's ladder.
const PREC: Record<Expression['kind'], number> = {
  equiv: 1,
  implies: 2,
  or: 3,
  and: 4,
  not: 5,
  compare: 6,
  arith: 7,
  ref: 9,
  number: 9,
  string: 9,
  aggregate: 9,
};
function prec(e: Expression): number {
  return e.kind === 'arith' && (e.op === '*' || e.op === '/') ? 8 : PREC[e.kind];
}

function wrap(e: Expression, parens: boolean): string {
  const s = printExpression(e);
  return parens ? `(${s})` : s;
}

/** An expression as UVL text. */
export function printExpression(e: Expression): string {
  const p = prec(e);
  switch (e.kind) {
    case 'ref':
      return printReference(e.ref);
    case 'number':
      return e.raw;
    case 'string':
      return `'${e.value}'`;
    case 'aggregate':
      return `${e.fn}(${e.args.map(printReference).join(', ')})`;
    case 'not':
      return `!${wrap(e.operand, prec(e.operand) < p)}`;
    case 'and':
    case 'or':
      return e.operands.map((o) => wrap(o, prec(o) <= p)).join(e.kind === 'and' ? ' & ' : ' | ');
    case 'implies':
    case 'equiv':
    case 'arith':
    case 'compare': {
      const op = e.kind === 'implies' ? '=>' : e.kind === 'equiv' ? '<=>' : e.op;
      // Left-associative: the left operand may share the level, the right one may not.
      // Comparisons do not chain, so neither side may share their level.
      const leftParens = e.kind === 'compare' ? prec(e.left) <= p : prec(e.left) < p;
      return `${wrap(e.left, leftParens)} ${op} ${wrap(e.right, prec(e.right) <= p)}`;
    }
  }
}

function featureLine(f: Feature, depth: number): string {
  let line = INDENT.repeat(depth);
  if (f.type) line += `${f.type} `;
  line += printReference(f.reference);
  if (f.cardinality) line += ` cardinality ${printCardinality(f.cardinality)}`;
  if (f.attributes.length > 0) line += ` ${printAttributes(f.attributes)}`;
  return line;
}

function groupLine(g: Group, depth: number): string {
  return `${INDENT.repeat(depth)}${g.kind === 'cardinality' && g.cardinality ? printCardinality(g.cardinality) : g.kind}`;
}

/** A feature and its subtree, depth-first with an explicit stack (a deep tree must not overflow the call stack). */
function printFeature(root: Feature, rootDepth: number, out: string[]): void {
  const pending: Array<{ f: Feature; depth: number } | { line: string }> = [{ f: root, depth: rootDepth }];
  while (pending.length > 0) {
    const item = pending.pop()!;
    if ('line' in item) {
      out.push(item.line);
      continue;
    }
    const { f, depth } = item;
    out.push(featureLine(f, depth));
    // A group without features (only possible after a tab-hint warning) cannot be written.
    const next: Array<{ f: Feature; depth: number } | { line: string }> = [];
    for (const g of f.groups) {
      if (g.children.length === 0) continue;
      next.push({ line: groupLine(g, depth + 1) });
      for (const child of g.children) next.push({ f: child, depth: depth + 2 });
    }
    for (let k = next.length - 1; k >= 0; k--) pending.push(next[k]!);
  }
}

/** The whole model as canonical UVL text, ending with a line break. */
export function printUvl(model: UvlModel): string {
  const sections: string[][] = [];
  if (model.namespace) sections.push([`namespace ${printReference(model.namespace)}`]);
  if (model.includes.length > 0) {
    sections.push(['include', ...model.includes.map((l) => `${INDENT}${l.major}${l.minor ? `.${l.minor}` : ''}`)]);
  }
  if (model.imports.length > 0) {
    sections.push(['imports', ...model.imports.map((i) => `${INDENT}${printReference(i.namespace)}${i.alias ? ` as ${printReference(i.alias)}` : ''}`)]);
  }
  if (model.root) {
    const lines = ['features'];
    printFeature(model.root, 1, lines);
    sections.push(lines);
  }
  if (model.constraints.length > 0) sections.push(['constraints', ...model.constraints.map((c) => `${INDENT}${printExpression(c)}`)]);
  return sections.map((s) => s.join('\n')).join('\n\n') + (sections.length > 0 ? '\n' : '');
}
