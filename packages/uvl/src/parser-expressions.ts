// Expressions of the UVL parser: constraints, equations and arithmetic.
//
// The reference grammar has two expression rules, `constraint` (boolean) and
// `expression` (arithmetic, inside equations), which share references and
// parentheses. One precedence ladder parses both; each node gets a sort (boolean,
// numeric, or both for a reference) and an operator whose operand has the wrong
// sort is a type-mismatch error, which gives exactly the reference grammar's language.

import type { AggregateFunction, ArithmeticOperator, CompareOperator, Expression, Reference } from './ast.ts';
import type { DiagnosticCode } from './diagnostics.ts';
import { isId, MAX_DEPTH, type ParseContext } from './parser-context.ts';
import { T } from './tokens.ts';

const COMPARE_OPS: Record<number, CompareOperator> = {
  [T.EQUAL]: '==',
  [T.NOT_EQUALS]: '!=',
  [T.LOWER]: '<',
  [T.LOWER_EQUALS]: '<=',
  [T.GREATER]: '>',
  [T.GREATER_EQUALS]: '>=',
};
const AGGREGATES: Record<number, AggregateFunction> = {
  [T.SUM]: 'sum',
  [T.AVG]: 'avg',
  [T.LEN]: 'len',
  [T.FLOOR]: 'floor',
  [T.CEIL]: 'ceil',
};

const enum Sort {
  Bool = 1,
  Num = 2,
  Both = 3,
}

const exprFail = (c: ParseContext, i: number, message: string, code: DiagnosticCode = 'unexpected-token'): undefined => {
  if (!c.exprFailed) c.errorAt(i, message, code);
  c.exprFailed = true;
  return undefined;
};
const sortName = (e: Expression): string => {
  switch (e.kind) {
    case 'number':
      return `the number ${e.raw}`;
    case 'string':
      return 'a string';
    case 'arith':
      return 'an arithmetic expression';
    case 'aggregate':
      return `the aggregate function ${e.fn}(…)`;
    default:
      return 'a boolean expression';
  }
};
type SortCheck = (c: ParseContext, e: Expression, sort: number, opIndex: number, op: string) => boolean;
const needBool: SortCheck = (c, e, sort, opIndex, op) => {
  if (sort & Sort.Bool) return true;
  exprFail(c, opIndex, `'${op}' needs boolean operands (features, comparisons, or their combinations), but found ${sortName(e)}`, 'type-mismatch');
  return false;
};
const needNum: SortCheck = (c, e, sort, opIndex, op) => {
  if (sort & Sort.Num) return true;
  exprFail(c, opIndex, `'${op}' needs numbers, strings, attributes or features as operands, but found ${sortName(e)}`, 'type-mismatch');
  return false;
};
const tooDeep = (c: ParseContext, depth: number): boolean => {
  if (depth <= MAX_DEPTH) return false;
  exprFail(c, c.p, `expression nested more than ${MAX_DEPTH} levels deep`, 'too-deep');
  return true;
};

// The precedence ladder, lowest first. The grammar rules are the reference grammar's:
//   constraint: constraint EQUIVALENCE constraint | constraint IMPLICATION constraint   (left-associative)
//             | constraint OR constraint | constraint AND constraint                    (one node per chain)
//             | NOT constraint | equation | reference | OPEN_PAREN constraint CLOSE_PAREN
//   equation: expression (EQUAL | LOWER | GREATER | LOWER_EQUALS | GREATER_EQUALS | NOT_EQUALS) expression
//   expression: expression (ADD | SUB) expression | expression (MUL | DIV) expression | atom
//   atom: FLOAT | INTEGER | STRING | aggregateFunction | reference | OPEN_PAREN expression CLOSE_PAREN
// It runs on an explicit stack of frames rather than the call stack, so that parentheses nest to any
// depth (3,000 nested parentheses are valid for the reference parser). Parentheses add no node; the
// tree's depth (operators, negations) stays limited to MAX_DEPTH, so every later recursive walk of
// an expression (printers, converters, the CNF encoder) is safe.
const enum Level { Paren, Equiv, Implies, Or, And, Not, Compare, Add, Mul, Atom }
/** The left-associative binary levels: their operator tokens and whether operands are boolean. */
const CHAINS: Partial<Record<Level, { ops: Record<number, string>; bool: boolean }>> = {
  [Level.Equiv]: { ops: { [T.EQUIVALENCE]: '<=>' }, bool: true },
  [Level.Implies]: { ops: { [T.IMPLICATION]: '=>' }, bool: true },
  [Level.Add]: { ops: { [T.ADD]: '+', [T.SUB]: '-' }, bool: false },
  [Level.Mul]: { ops: { [T.MUL]: '*', [T.DIV]: '/' }, bool: false },
};
interface Frame {
  level: Level;
  /** First token of this level's expression (spans) or the '(' / '!' token. */
  s: number;
  left?: Expression;
  operands?: Expression[];
  sort: Sort;
  depth: number;
  /** Token index and text of the binary operator waiting for its right operand. */
  op: number;
  opText: string;
}
/** What a reducer returns when an operator follows: the frame waits for its right operand. */
const WAIT: Expression = { kind: 'number', value: 0, raw: '', span: { offset: 0, length: 0, line: 0, column: 0 } };

/** A whole expression; undefined after a reported error. c.resultSort and c.resultDepth describe the result. */
function parseExpression(c: ParseContext): Expression | undefined {
  const stack: Frame[] = [];
  let negations = 0;
  const push = (level: Level, s: number): void => {
    stack.push({ level, s, sort: Sort.Both, depth: 0, op: -1, opText: '' });
  };
  /** Enters the ladder at `from` and goes down to an atom; false after a reported error. */
  const descend = (from: Level): Expression | undefined => {
    for (;;) {
      for (let level = from; level <= Level.Mul; level++) {
        if (level === Level.Not) {
          while (c.kind() === T.NOT) {
            if (++negations > MAX_DEPTH) return exprFail(c, c.p, `expression nested more than ${MAX_DEPTH} levels deep`, 'too-deep');
            push(Level.Not, c.p);
            c.advance();
          }
        } else push(level, c.p);
      }
      if (c.kind() !== T.OPEN_PAREN) return parseAtom(c);
      push(Level.Paren, c.p);
      c.advance();
      from = Level.Equiv;
    }
  };

  let value: Expression | undefined = descend(Level.Equiv);
  while (value) {
    const f = stack.pop();
    if (!f) return value;
    switch (f.level) {
      case Level.Paren:
        if (c.kind() !== T.CLOSE_PAREN) return exprFail(c, c.p, `expected ')' to close the '(' at column ${c.span(c.starts[f.s]!, c.ends[f.s]!).column}, found ${c.describe(c.p)}`);
        c.advance();
        break;
      case Level.Not:
        negations--;
        if (!needBool(c, value, c.resultSort, f.s, '!')) return undefined;
        c.resultSort = Sort.Bool;
        c.resultDepth += 1;
        if (tooDeep(c, c.resultDepth)) return undefined;
        value = { kind: 'not', operand: value, span: c.exprSpan(f.s) };
        break;
      case Level.Equiv:
      case Level.Implies:
      case Level.Add:
      case Level.Mul:
        value = reduceChain(c, f, value);
        break;
      case Level.Or:
      case Level.And:
        value = reduceList(c, f, value);
        break;
      case Level.Compare:
        value = reduceCompare(c, f, value);
        break;
    }
    if (value === WAIT) {
      // A binary operator waits for its right operand: keep the frame, read the operand.
      stack.push(f);
      c.advance();
      value = descend(f.level === Level.Compare ? Level.Add : f.level + 1);
    }
  }
  return undefined;
}

/** Left-associative chains of binary operators: one node per operator. */
function reduceChain(c: ParseContext, f: Frame, value: Expression): Expression | undefined {
  const chain = CHAINS[f.level]!;
  const need = chain.bool ? needBool : needNum;
  if (f.left === undefined) {
    f.left = value;
    f.sort = c.resultSort;
    f.depth = c.resultDepth;
  } else {
    if (!need(c, f.left, f.sort, f.op, f.opText) || !need(c, value, c.resultSort, f.op, f.opText)) return undefined;
    f.depth = Math.max(f.depth, c.resultDepth) + 1;
    if (tooDeep(c, f.depth)) return undefined;
    const span = c.exprSpan(f.s);
    f.left = f.level === Level.Equiv ? { kind: 'equiv', left: f.left, right: value, span }
      : f.level === Level.Implies ? { kind: 'implies', left: f.left, right: value, span }
        : { kind: 'arith', op: f.opText as ArithmeticOperator, left: f.left, right: value, span };
    f.sort = chain.bool ? Sort.Bool : Sort.Num;
  }
  const opText = chain.ops[c.kind()];
  if (opText !== undefined) {
    f.op = c.p;
    f.opText = opText;
    return WAIT;
  }
  c.resultSort = f.sort;
  c.resultDepth = f.depth;
  return f.left;
}

/** `|` and `&`: one node per unparenthesised chain. */
function reduceList(c: ParseContext, f: Frame, value: Expression): Expression | undefined {
  const token = f.level === Level.Or ? T.OR : T.AND;
  const opText = f.level === Level.Or ? '|' : '&';
  if (f.operands === undefined) {
    if (c.kind() !== token) return value; // a single operand passes through unchanged
    if (!needBool(c, value, c.resultSort, c.p, opText)) return undefined;
    f.operands = [value];
    f.depth = c.resultDepth;
  } else {
    if (!needBool(c, value, c.resultSort, f.op, opText)) return undefined;
    if (c.resultDepth > f.depth) f.depth = c.resultDepth;
    f.operands.push(value);
  }
  if (c.kind() === token) {
    f.op = c.p;
    return WAIT;
  }
  c.resultSort = Sort.Bool;
  c.resultDepth = f.depth + 1;
  if (tooDeep(c, c.resultDepth)) return undefined;
  return { kind: f.level === Level.Or ? 'or' : 'and', operands: f.operands, span: c.exprSpan(f.s) };
}

/** An equation: one comparison, never chained. */
function reduceCompare(c: ParseContext, f: Frame, value: Expression): Expression | undefined {
  if (f.left === undefined) {
    const op = COMPARE_OPS[c.kind()];
    if (op === undefined) return value;
    if (!needNum(c, value, c.resultSort, c.p, op)) return undefined;
    f.left = value;
    f.depth = c.resultDepth;
    f.op = c.p;
    f.opText = op;
    return WAIT;
  }
  if (!needNum(c, value, c.resultSort, f.op, f.opText)) return undefined;
  if (COMPARE_OPS[c.kind()] !== undefined) return exprFail(c, c.p, `comparisons cannot be chained: found ${c.describe(c.p)} after '${f.opText}'; use & to combine them`);
  c.resultSort = Sort.Bool;
  c.resultDepth = Math.max(f.depth, c.resultDepth) + 1;
  return { kind: 'compare', op: f.opText as CompareOperator, left: f.left, right: value, span: c.exprSpan(f.s) };
}

// atom: FLOAT | INTEGER | STRING | aggregateFunction | reference  (the parenthesised forms are parseExpression's)
function parseAtom(c: ParseContext): Expression | undefined {
  const k = c.kind();
  const s = c.p;
  if (isId(k)) {
    const ref = c.parseReference();
    if (!ref) return exprFail(c, c.p, 'incomplete reference');
    c.resultSort = Sort.Both;
    c.resultDepth = 1;
    return { kind: 'ref', ref, span: ref.span };
  }
  if (k === T.INTEGER || k === T.FLOAT) {
    const raw = c.tokenText(c.p);
    c.advance();
    c.resultSort = Sort.Num;
    c.resultDepth = 1;
    return { kind: 'number', value: Number(raw), raw, span: c.exprSpan(s) };
  }
  if (k === T.STRING) {
    const raw = c.tokenText(c.p);
    c.advance();
    c.resultSort = Sort.Num;
    c.resultDepth = 1;
    return { kind: 'string', value: raw.slice(1, -1), span: c.exprSpan(s) };
  }
  const fn = AGGREGATES[k];
  if (fn !== undefined) return parseAggregate(c, fn);
  if (k === T.BOOLEAN) return exprFail(c, c.p, `'${c.tokenText(c.p)}' is not allowed in a constraint; write the feature name (or its negation with '!') instead`);
  return exprFail(c, c.p, `expected a feature name, a number, a string, an aggregate function, '(' or '!', found ${c.describe(c.p)}`);
}

// aggregateFunction: ('sum' | 'avg') OPEN_PAREN (reference COMMA)? reference CLOSE_PAREN
//                  | ('len' | 'floor' | 'ceil') OPEN_PAREN reference CLOSE_PAREN
function parseAggregate(c: ParseContext, fn: AggregateFunction): Expression | undefined {
  const s = c.p;
  c.advance();
  if (c.kind() !== T.OPEN_PAREN) return exprFail(c, c.p, `expected '(' after '${fn}', found ${c.describe(c.p)}`);
  c.advance();
  const args: Reference[] = [];
  const first = c.parseReference();
  if (!first) return exprFail(c, c.p, `expected an attribute or feature name in ${fn}(…), found ${c.describe(c.p)}`);
  args.push(first);
  if ((fn === 'sum' || fn === 'avg') && c.kind() === T.COMMA) {
    c.advance();
    const second = c.parseReference();
    if (!second) return exprFail(c, c.p, `expected an attribute name after ',' in ${fn}(…), found ${c.describe(c.p)}`);
    args.push(second);
  }
  if (c.kind() !== T.CLOSE_PAREN) {
    return exprFail(c, c.p, `expected ')' to close ${fn}(…), found ${c.describe(c.p)}${c.kind() === T.COMMA ? ` (${fn} takes one argument)` : ''}`);
  }
  c.advance();
  c.resultSort = Sort.Num;
  c.resultDepth = 1;
  return { kind: 'aggregate', fn, args, span: c.exprSpan(s) };
}

export const canStartExpression = (k: number): boolean =>
  isId(k) || k === T.OPEN_PAREN || k === T.NOT || k === T.INTEGER || k === T.FLOAT || k === T.STRING || AGGREGATES[k] !== undefined;

/** A whole constraint: a boolean expression. Undefined after a reported error. */
export function parseConstraint(c: ParseContext): Expression | undefined {
  c.exprFailed = false;
  const s = c.p;
  const e = parseExpression(c);
  if (!e) return undefined;
  if (!(c.resultSort & Sort.Bool)) {
    return exprFail(c, s, `a constraint must be a boolean expression (features, comparisons, or their combinations), but this is ${sortName(e)}`, 'type-mismatch');
  }
  return e;
}
