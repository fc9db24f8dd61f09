// Attributes of the UVL parser: `{key value, flag, nested {…}, vector […], constraint A => B,
// constraints [A, B]}` after a feature, with values nested at most MAX_DEPTH levels.

import type { Attribute, AttributeValue, Expression, Reference } from './ast.ts';
import { isId, MAX_DEPTH, type ParseContext } from './parser-context.ts';
import { parseConstraint } from './parser-expressions.ts';
import { T } from './tokens.ts';

// attributes: OPEN_BRACE (attribute (COMMA attribute)*)? CLOSE_BRACE
export function parseAttributes(c: ParseContext): Attribute[] {
  const list: Attribute[] = [];
  const open = c.p;
  c.advance(); // {
  if (++c.valueDepth > MAX_DEPTH) {
    c.errorAt(c.p, `attributes nested more than ${MAX_DEPTH} levels deep`, 'too-deep');
    c.skipBracketed(T.OPEN_BRACE, T.CLOSE_BRACE);
    c.valueDepth--;
    return list;
  }
  if (c.kind() !== T.CLOSE_BRACE) {
    for (;;) {
      const a = parseAttribute(c);
      if (!a) {
        c.skipBracketed(T.OPEN_BRACE, T.CLOSE_BRACE);
        c.valueDepth--;
        return list;
      }
      list.push(a);
      if (!c.parseOptional(T.COMMA)) break;
    }
  }
  c.valueDepth--;
  if (c.kind() === T.CLOSE_BRACE) c.advance();
  else {
    c.expected(`',' or '}' to close the attributes opened at column ${c.span(c.starts[open]!, c.ends[open]!).column}`);
    c.skipBracketed(T.OPEN_BRACE, T.CLOSE_BRACE);
  }
  return list;
}

// attribute: valueAttribute | constraintAttribute
// valueAttribute: key value?
// constraintAttribute: 'constraint' constraint | 'constraints' constraintList
function parseAttribute(c: ParseContext): Attribute | undefined {
  const s = c.p;
  const k = c.kind();
  if (k === T.CONSTRAINT) {
    c.advance();
    const e = parseConstraint(c);
    if (!e) return undefined;
    return { kind: 'constraint', constraint: e, span: c.exprSpan(s) };
  }
  if (k === T.CONSTRAINTS) {
    c.advance();
    // constraintList: OPEN_BRACK (constraint (COMMA constraint)*)? CLOSE_BRACK
    if (!c.parseExpected(T.OPEN_BRACK, "'[' with the list of constraints after 'constraints'")) return undefined;
    const constraints: Expression[] = [];
    if (c.kind() !== T.CLOSE_BRACK) {
      for (;;) {
        const e = parseConstraint(c);
        if (!e) return undefined;
        constraints.push(e);
        if (c.kind() !== T.COMMA) break;
        c.advance();
      }
    }
    if (!c.parseExpected(T.CLOSE_BRACK, "',' or ']' in the constraint list")) return undefined;
    return { kind: 'constraints', constraints, span: c.exprSpan(s) };
  }
  // key: id
  if (!isId(k)) {
    c.expected('an attribute name');
    return undefined;
  }
  const key: Reference = { name: c.idText(c.p), parts: [c.idText(c.p)], span: c.span(c.starts[c.p]!, c.ends[c.p]!) };
  c.advance();
  let value: AttributeValue | undefined;
  if (isValueStart(c.kind())) {
    value = parseValue(c);
    if (!value) return undefined;
  }
  return value ? { kind: 'value', name: key.name, key, value, span: c.exprSpan(s) } : { kind: 'value', name: key.name, key, span: c.exprSpan(s) };
}
const isValueStart = (k: number): boolean =>
  k === T.BOOLEAN || k === T.FLOAT || k === T.INTEGER || k === T.STRING || k === T.OPEN_BRACE || k === T.OPEN_BRACK;

// value: BOOLEAN | FLOAT | INTEGER | STRING | attributes | vector
function parseValue(c: ParseContext): AttributeValue | undefined {
  const s = c.p;
  const k = c.kind();
  if (k === T.BOOLEAN) {
    const v = c.tokenText(c.p) === 'true';
    c.advance();
    return { kind: 'boolean', value: v, span: c.exprSpan(s) };
  }
  if (k === T.FLOAT || k === T.INTEGER) {
    const raw = c.tokenText(c.p);
    c.advance();
    return { kind: 'number', value: Number(raw), raw, span: c.exprSpan(s) };
  }
  if (k === T.STRING) {
    const raw = c.tokenText(c.p);
    c.advance();
    return { kind: 'string', value: raw.slice(1, -1), span: c.exprSpan(s) };
  }
  if (k === T.OPEN_BRACE) {
    const before = c.diagnostics.length;
    const attributes = parseAttributes(c);
    if (c.diagnostics.length > before) return undefined;
    return { kind: 'attributes', attributes, span: c.exprSpan(s) };
  }
  if (k === T.OPEN_BRACK) return parseVector(c);
  c.expected('a value (true, false, a number, a string, {…} or […])');
  return undefined;
}

// vector: OPEN_BRACK (value (COMMA value)*)? CLOSE_BRACK
function parseVector(c: ParseContext): AttributeValue | undefined {
  const s = c.p;
  c.advance();
  if (++c.valueDepth > MAX_DEPTH) {
    c.errorAt(c.p, `values nested more than ${MAX_DEPTH} levels deep`, 'too-deep');
    c.valueDepth--;
    return undefined;
  }
  const values: AttributeValue[] = [];
  if (c.kind() !== T.CLOSE_BRACK) {
    for (;;) {
      if (!isValueStart(c.kind())) {
        c.expected('a value (true, false, a number, a string, {…} or […])');
        c.valueDepth--;
        return undefined;
      }
      const v = parseValue(c);
      if (!v) {
        c.valueDepth--;
        return undefined;
      }
      values.push(v);
      if (!c.parseOptional(T.COMMA)) break;
    }
  }
  c.valueDepth--;
  if (!c.parseExpected(T.CLOSE_BRACK, "',' or ']' in the list of values")) return undefined;
  return { kind: 'vector', values, span: c.exprSpan(s) };
}
