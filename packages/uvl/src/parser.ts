// The UVL parser: hand-written recursive descent over the scanner's token
// arrays (expressions on an explicit stack, so parentheses nest to any depth), one parseX per grammar rule of the reference grammar (uvlparser 2.5.0,
// UVLParser.g4) with the rule in a comment above it. Errors are collected as
// diagnostics; the parser recovers at line and block boundaries, reports at most
// one error per line, and never throws. Every loop consumes a token or stops.

import type {
  AggregateFunction,
  ArithmeticOperator,
  Attribute,
  AttributeValue,
  Cardinality,
  CompareOperator,
  Expression,
  Feature,
  FeatureType,
  Group,
  GroupKind,
  Import,
  LanguageLevel,
  MajorLevel,
  MinorLevel,
  ParseResult,
  Reference,
  Span,
  UvlModel,
} from './ast.ts';
import type { Diagnostic, DiagnosticCode } from './diagnostics.ts';
import { T, TOKEN_NAMES, parseCardinalityText, scan, type Tokens } from './scanner.ts';

/** Nesting limit of the feature tree and of expressions: deeper input is an error, not a stack overflow. */
export const MAX_DEPTH = 256;
/** Imports nest at most this deep (a model importing a model importing …); a deeper one is a warning. */
export const MAX_IMPORT_NESTING = 32;
/**
 * Rounds of reading files a caller whose loader cannot read synchronously needs at most to give
 * the parser every file it may follow: the importing file's imports, then one round per level.
 */
export const IMPORT_READ_ROUNDS = MAX_IMPORT_NESTING + 1;

export interface ImportRequest {
  /** The namespace as written in the imports section, e.g. `nested.sub`. */
  namespace: string;
  /** The file it names, relative to the importing model: `nested/sub.uvl`. */
  relativePath: string;
  /** The importing model's file name, as given by the caller or the loader. */
  importer?: string;
}

export interface LoadedModel {
  /** A name for the loaded file, passed back as `importer` for its own imports. */
  fileName: string;
  text: string;
}

/** Provides imported models; returns undefined when there is no such model. Must not throw. */
export type ImportLoader = (request: ImportRequest) => LoadedModel | undefined;

export interface ParseOptions {
  /** Name of the text (a path for the command line); passed to the loader as `importer`. */
  fileName?: string;
  /** Resolves imports; without it, imports are recorded but not followed. */
  loader?: ImportLoader;
}

const FEATURE_TYPES: Record<number, FeatureType> = {
  [T.STRING_KEY]: 'String',
  [T.INTEGER_KEY]: 'Integer',
  [T.BOOLEAN_KEY]: 'Boolean',
  [T.REAL_KEY]: 'Real',
};
const GROUP_KINDS: Record<number, GroupKind> = {
  [T.OR_GROUP]: 'or',
  [T.ALTERNATIVE]: 'alternative',
  [T.OPTIONAL]: 'optional',
  [T.MANDATORY]: 'mandatory',
  [T.CARDINALITY]: 'cardinality',
};
const COMPARE_OPS: Record<number, CompareOperator> = {
  [T.EQUAL]: '==',
  [T.NOT_EQUALS]: '!=',
  [T.LOWER]: '<',
  [T.LOWER_EQUALS]: '<=',
  [T.GREATER]: '>',
  [T.GREATER_EQUALS]: '>=',
};
const MAJOR_LEVELS: Record<number, MajorLevel> = {
  [T.BOOLEAN_KEY]: 'Boolean',
  [T.ARITHMETIC_KEY]: 'Arithmetic',
  [T.TYPE_KEY]: 'Type',
};
const MINOR_LEVELS: Record<number, MinorLevel> = {
  [T.GROUP_CARDINALITY_KEY]: 'group-cardinality',
  [T.FEATURE_CARDINALITY_KEY]: 'feature-cardinality',
  [T.AGGREGATE_KEY]: 'aggregate-function',
  [T.STRING_CONSTRAINTS_KEY]: 'string-constraints',
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

const GROUP_HINT = 'a group keyword (mandatory, optional, alternative, or, or a cardinality such as [1..2])';

/** Parses one UVL text. Never throws: problems are returned as diagnostics. */
export function parseUvl(text: string, options: ParseOptions = {}): ParseResult {
  try {
    return parseWithImports(text, options, []);
  } catch (error) {
    // Defensive only: the parser is written not to throw. Should it, the caller still gets data.
    return {
      model: { includes: [], imports: [], constraints: [], fileName: options.fileName },
      diagnostics: [
        { code: 'unexpected-token', severity: 'error', message: `internal parser failure: ${(error as Error)?.message ?? String(error)}`, offset: 0, length: 0, line: 1, column: 0 },
      ],
    };
  }
}

function parseWithImports(text: string, options: ParseOptions, stack: string[]): ParseResult {
  const result = parseText(text, options.fileName);
  const loader = options.loader;
  if (!loader) return result;
  const self = options.fileName ?? '';
  for (const imp of result.model.imports) {
    const request: ImportRequest = {
      namespace: imp.namespace.name,
      relativePath: `${imp.namespace.parts.join('/')}.uvl`,
      importer: options.fileName,
    };
    let loaded: LoadedModel | undefined;
    try {
      loaded = loader(request);
    } catch {
      loaded = undefined;
    }
    const at = imp.namespace.span;
    const warn = (code: DiagnosticCode, message: string) =>
      result.diagnostics.push({ code, severity: 'warning', message, offset: at.offset, length: at.length, line: at.line, column: at.column });
    if (!loaded) {
      warn('import-not-found', `imported model '${imp.namespace.name}' not found (looked for ${request.relativePath})`);
      continue;
    }
    if (loaded.fileName === self || stack.includes(loaded.fileName)) {
      warn('import-error', `import cycle: '${imp.namespace.name}' (${loaded.fileName}) imports this model again`);
      continue;
    }
    if (stack.length >= MAX_IMPORT_NESTING) {
      warn('import-error', `imports nested more than ${MAX_IMPORT_NESTING} levels deep at '${imp.namespace.name}'`);
      continue;
    }
    const sub = parseWithImports(loaded.text, { fileName: loaded.fileName, loader }, [...stack, self]);
    imp.resolved = { fileName: loaded.fileName, model: sub.model, diagnostics: sub.diagnostics };
    const errors = sub.diagnostics.filter((d) => d.severity === 'error');
    if (errors.length > 0) {
      const first = errors[0]!;
      warn('import-error', `imported model '${imp.namespace.name}' (${loaded.fileName}) has ${errors.length} syntax error${errors.length > 1 ? 's' : ''}; first: Line ${first.line}:${first.column} - ${first.message}`);
    }
  }
  return result;
}

/** Parses one text without following imports. */
export function parseText(input: string, fileName?: string): ParseResult {
  // A byte-order mark is an encoding artefact, not content.
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const bomShift = text === input ? 0 : 1;
  const diagnostics: Diagnostic[] = [];
  // Filled by the scanner as it meets line breaks; complete before the parser looks up a position.
  let lineStarts: number[] = [0];
  const lineIndex = (offset: number): number => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  let cursor = 0; // line index of the last position lookup: lookups are mostly monotonic

  const lineOf = (offset: number): number => {
    let i = cursor;
    if (offset < lineStarts[i]!) i = lineIndex(offset);
    else {
      const last = lineStarts.length - 1;
      let steps = 0;
      while (i < last && lineStarts[i + 1]! <= offset) {
        i++;
        if (++steps > 64) {
          i = lineIndex(offset);
          break;
        }
      }
    }
    cursor = i;
    return i;
  };
  const span = (start: number, end: number): Span => {
    const i = lineOf(start);
    return { offset: start + bomShift, length: end - start, line: i + 1, column: start - lineStarts[i]! };
  };

  let lastErrorLine = -1;
  const addDiagnostic = (code: DiagnosticCode, severity: 'error' | 'warning', message: string, offset: number, length: number): void => {
    const i = lineOf(offset);
    if (severity === 'error') lastErrorLine = i;
    diagnostics.push({ code, severity, message, offset: offset + bomShift, length, line: i + 1, column: offset - lineStarts[i]! });
  };

  // The scanner's own errors are kept aside until its line table is complete.
  const scanErrors: Array<[DiagnosticCode, string, number, number]> = [];
  const tokens: Tokens = scan(text, (code, message, offset, length) => scanErrors.push([code, message, offset, length]));
  lineStarts = tokens.lineStarts;
  for (const [code, message, offset, length] of scanErrors) addDiagnostic(code, 'error', message, offset, length);
  const { kinds, starts, ends } = tokens;
  const last = tokens.count - 1;
  let p = 0;

  const kind = (): number => kinds[p]!;
  const advance = (): void => {
    if (p < last) p++;
  };
  const tokenText = (i: number): string => text.slice(starts[i]!, ends[i]!);
  const describe = (i: number): string => {
    const k = kinds[i]!;
    if (k === T.EOF || k === T.NEWLINE) return TOKEN_NAMES[k]!;
    if (k === T.INDENT || k === T.DEDENT) return ends[i]! - starts[i]! === 8 && text.charCodeAt(starts[i]!) === 60 ? `'${tokenText(i)}'` : TOKEN_NAMES[k]!;
    const t = tokenText(i);
    return `'${t.length > 40 ? `${t.slice(0, 40)}…` : t}'`;
  };
  /** Where a diagnostic about token i points: INDENT/DEDENT at the first character of their line. */
  const tokenOffset = (i: number): number => (kinds[i] === T.INDENT || kinds[i] === T.DEDENT ? ends[i]! : starts[i]!);

  /**
   * Reports a syntax error at token i. An indentation token whose line is indented with tabs
   * gives a warning instead (the reference parser's tab hint). Errors at a token the scanner
   * already rejected, and further errors on a line that has one, are left out.
   */
  const errorAt = (i: number, message: string, code: DiagnosticCode = 'unexpected-token', tabHint = true): void => {
    const k = kinds[i]!;
    if (k === T.ERROR) return;
    const offset = tokenOffset(i);
    if (tabHint && (k === T.INDENT || k === T.DEDENT) && indentationHasTab(i)) {
      addDiagnostic(
        'tab-hint',
        'warning',
        `${message} (tab hint: this line is indented with tabs, and a tab counts as up to 8 spaces; indent it like the lines around it)`,
        offset,
        0,
      );
      return;
    }
    if (lineOf(offset) === lastErrorLine) return;
    addDiagnostic(code, 'error', message, offset, Math.max(0, ends[i]! - offset));
  };
  const indentationHasTab = (i: number): boolean => {
    for (let j = starts[i]!; j < ends[i]!; j++) if (text.charCodeAt(j) === 9) return true;
    return false;
  };
  /**
   * The reference parser shows a NEWLINE token by the last character it consumed: a tab when
   * the next line's indentation ends with one (at the end of the text, its last character).
   */
  const newlineShowsTab = (i: number): boolean => {
    if (starts[i] === ends[i]) return text.length > 0 && text.charCodeAt(text.length - 1) === 9;
    let j = ends[i]!;
    while (j < text.length && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9)) j++;
    return j > ends[i]! && text.charCodeAt(j - 1) === 9;
  };
  /** A line break where a line should start (an empty statement, e.g. a last line of only tabs). */
  const strayNewline = (what: string): void => {
    const atEnd = starts[p] === ends[p] && starts[p] === text.length;
    const why = atEnd
      ? 'the file ends with a line of only spaces or tabs after its last line break; remove them or end the file with a line break'
      : 'a line break ends an empty statement here';
    if (newlineShowsTab(p)) {
      addDiagnostic('tab-hint', 'warning', `expected ${what}, but ${why} (tab hint: the reference parser only warns when that line holds tabs)`, starts[p]!, 0);
    } else errorAt(p, `expected ${what}, but ${why}`);
    advance();
  };
  const expected = (what: string): void => {
    const k = kinds[p]!;
    // A keyword where a name belongs is a common slip: say how to use it as a name.
    const keyword = (k >= T.INCLUDE && k <= T.MANDATORY) || k === T.BOOLEAN;
    const hint = keyword && /name/.test(what) ? ` (it is a keyword; write "${tokenText(p)}" in double quotes to use it as a name)` : '';
    errorAt(p, `expected ${what}, found ${describe(p)}${hint}`);
  };

  /** Consumes the current token when it is of kind k. */
  const parseOptional = (k: number): boolean => {
    if (kind() !== k) return false;
    advance();
    return true;
  };
  /** Consumes a token of kind k, or reports what was expected instead. */
  const parseExpected = (k: number, what: string): boolean => {
    if (parseOptional(k)) return true;
    expected(what);
    return false;
  };

  /** Skips to the end of the current line and over the indented block below it, if any. */
  const skipLine = (): void => {
    while (kind() !== T.NEWLINE && kind() !== T.EOF && kind() !== T.DEDENT) advance();
    if (kind() === T.NEWLINE) advance();
    if (kind() === T.INDENT) skipBlock();
  };
  /** At an INDENT: skips to after its matching DEDENT. */
  const skipBlock = (): void => {
    let depth = 0;
    while (kind() !== T.EOF) {
      const k = kind();
      advance();
      if (k === T.INDENT) depth++;
      else if (k === T.DEDENT && --depth <= 0) return;
    }
  };
  /** Inside a block: skips to after the DEDENT that closes it. */
  const skipToBlockEnd = (): void => {
    let depth = 0;
    while (kind() !== T.EOF) {
      const k = kind();
      advance();
      if (k === T.INDENT) depth++;
      else if (k === T.DEDENT) {
        if (depth === 0) return;
        depth--;
      }
    }
  };
  /** Expects the NEWLINE that ends a line; on anything else reports and skips to it. */
  const expectNewline = (after: string | (() => string)): void => {
    if (kind() === T.NEWLINE) {
      advance();
      return;
    }
    expected(`end of line after ${typeof after === 'string' ? after : after()}`);
    while (kind() !== T.NEWLINE && kind() !== T.EOF && kind() !== T.DEDENT) advance();
    if (kind() === T.NEWLINE) advance();
  };
  /** Expects the DEDENT that closes a block; on anything else reports and skips to it. */
  const expectBlockEnd = (what: string): void => {
    if (kind() === T.DEDENT) {
      advance();
      return;
    }
    if (kind() === T.EOF) return;
    expected(what);
    skipToBlockEnd();
  };

  // reference: (id '.')* id
  // id: ID_STRICT | ID_NOT_STRICT
  const isId = (k: number): boolean => k === T.ID_STRICT || k === T.ID_NOT_STRICT;
  const idText = (i: number): string => (kinds[i] === T.ID_NOT_STRICT ? text.slice(starts[i]! + 1, ends[i]! - 1) : tokenText(i));
  const parseReference = (): Reference | undefined => {
    if (!isId(kind())) return undefined;
    const start = starts[p]!;
    const parts = [idText(p)];
    let end = ends[p]!;
    advance();
    while (kind() === T.DOT && isId(kinds[p + 1]!)) {
      advance();
      parts.push(idText(p));
      end = ends[p]!;
      advance();
    }
    if (kind() === T.DOT) {
      advance();
      expected('a name after "."');
      return undefined;
    }
    return { name: parts.length === 1 ? parts[0]! : parts.join('.'), parts, span: span(start, end) };
  };

  // ---------------------------------------------------------------- expressions
  // The reference grammar has two expression rules, `constraint` (boolean) and
  // `expression` (arithmetic, inside equations), which share references and
  // parentheses. One precedence ladder parses both; each node gets a sort (boolean,
  // numeric, or both for a reference) and an operator whose operand has the wrong
  // sort is a type-mismatch error, which gives exactly the reference grammar's language.
  let exprFailed = false;
  let resultSort: Sort = Sort.Both;
  let resultDepth = 0;

  const exprFail = (i: number, message: string, code: DiagnosticCode = 'unexpected-token'): undefined => {
    if (!exprFailed) errorAt(i, message, code);
    exprFailed = true;
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
  const needBool = (e: Expression, sort: Sort, opIndex: number, op: string): boolean => {
    if (sort & Sort.Bool) return true;
    exprFail(opIndex, `'${op}' needs boolean operands (features, comparisons, or their combinations), but found ${sortName(e)}`, 'type-mismatch');
    return false;
  };
  const needNum = (e: Expression, sort: Sort, opIndex: number, op: string): boolean => {
    if (sort & Sort.Num) return true;
    exprFail(opIndex, `'${op}' needs numbers, strings, attributes or features as operands, but found ${sortName(e)}`, 'type-mismatch');
    return false;
  };
  const tooDeep = (depth: number): boolean => {
    if (depth <= MAX_DEPTH) return false;
    exprFail(p, `expression nested more than ${MAX_DEPTH} levels deep`, 'too-deep');
    return true;
  };
  const exprSpan = (startTok: number): Span => span(starts[startTok]!, ends[Math.max(startTok, p - 1)]!);

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

  /** A whole expression; undefined after a reported error. resultSort and resultDepth describe the result. */
  const parseExpression = (): Expression | undefined => {
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
            while (kind() === T.NOT) {
              if (++negations > MAX_DEPTH) return exprFail(p, `expression nested more than ${MAX_DEPTH} levels deep`, 'too-deep');
              push(Level.Not, p);
              advance();
            }
          } else push(level, p);
        }
        if (kind() !== T.OPEN_PAREN) return parseAtom();
        push(Level.Paren, p);
        advance();
        from = Level.Equiv;
      }
    };

    let value: Expression | undefined = descend(Level.Equiv);
    while (value) {
      const f = stack.pop();
      if (!f) return value;
      let next: Level | undefined; // the level to descend into for a right operand
      switch (f.level) {
        case Level.Paren:
          if (kind() !== T.CLOSE_PAREN) return exprFail(p, `expected ')' to close the '(' at column ${span(starts[f.s]!, ends[f.s]!).column}, found ${describe(p)}`);
          advance();
          break;
        case Level.Not:
          negations--;
          if (!needBool(value, resultSort, f.s, '!')) return undefined;
          resultSort = Sort.Bool;
          resultDepth += 1;
          if (tooDeep(resultDepth)) return undefined;
          value = { kind: 'not', operand: value, span: exprSpan(f.s) };
          break;
        case Level.Equiv:
        case Level.Implies:
        case Level.Add:
        case Level.Mul: {
          // Left-associative chains of binary operators: one node per operator.
          const chain = CHAINS[f.level]!;
          const need = chain.bool ? needBool : needNum;
          if (f.left === undefined) {
            f.left = value;
            f.sort = resultSort;
            f.depth = resultDepth;
          } else {
            if (!need(f.left, f.sort, f.op, f.opText) || !need(value, resultSort, f.op, f.opText)) return undefined;
            f.depth = Math.max(f.depth, resultDepth) + 1;
            if (tooDeep(f.depth)) return undefined;
            const span = exprSpan(f.s);
            f.left = f.level === Level.Equiv ? { kind: 'equiv', left: f.left, right: value, span }
              : f.level === Level.Implies ? { kind: 'implies', left: f.left, right: value, span }
                : { kind: 'arith', op: f.opText as ArithmeticOperator, left: f.left, right: value, span };
            f.sort = chain.bool ? Sort.Bool : Sort.Num;
          }
          const opText = chain.ops[kind()];
          if (opText !== undefined) {
            f.op = p;
            f.opText = opText;
            next = f.level + 1;
          } else {
            value = f.left;
            resultSort = f.sort;
            resultDepth = f.depth;
          }
          break;
        }
        case Level.Or:
        case Level.And: {
          const token = f.level === Level.Or ? T.OR : T.AND;
          const opText = f.level === Level.Or ? '|' : '&';
          if (f.operands === undefined) {
            if (kind() !== token) break; // a single operand passes through unchanged
            if (!needBool(value, resultSort, p, opText)) return undefined;
            f.operands = [value];
            f.depth = resultDepth;
          } else {
            if (!needBool(value, resultSort, f.op, opText)) return undefined;
            if (resultDepth > f.depth) f.depth = resultDepth;
            f.operands.push(value);
          }
          if (kind() === token) {
            f.op = p;
            next = f.level + 1;
          } else {
            resultSort = Sort.Bool;
            resultDepth = f.depth + 1;
            if (tooDeep(resultDepth)) return undefined;
            value = { kind: f.level === Level.Or ? 'or' : 'and', operands: f.operands, span: exprSpan(f.s) };
          }
          break;
        }
        case Level.Compare: {
          if (f.left === undefined) {
            const op = COMPARE_OPS[kind()];
            if (op === undefined) break;
            if (!needNum(value, resultSort, p, op)) return undefined;
            f.left = value;
            f.depth = resultDepth;
            f.op = p;
            f.opText = op;
            next = Level.Add;
          } else {
            if (!needNum(value, resultSort, f.op, f.opText)) return undefined;
            if (COMPARE_OPS[kind()] !== undefined) return exprFail(p, `comparisons cannot be chained: found ${describe(p)} after '${f.opText}'; use & to combine them`);
            resultSort = Sort.Bool;
            resultDepth = Math.max(f.depth, resultDepth) + 1;
            value = { kind: 'compare', op: f.opText as CompareOperator, left: f.left, right: value, span: exprSpan(f.s) };
          }
          break;
        }
      }
      if (next !== undefined) {
        // A binary operator waits for its right operand: keep the frame, read the operand.
        stack.push(f);
        advance();
        value = descend(next);
      }
    }
    return undefined;
  };
  // atom: FLOAT | INTEGER | STRING | aggregateFunction | reference  (the parenthesised forms are parseExpression's)
  const parseAtom = (): Expression | undefined => {
    const k = kind();
    const s = p;
    if (isId(k)) {
      const ref = parseReference();
      if (!ref) return exprFail(p, 'incomplete reference');
      resultSort = Sort.Both;
      resultDepth = 1;
      return { kind: 'ref', ref, span: ref.span };
    }
    if (k === T.INTEGER || k === T.FLOAT) {
      const raw = tokenText(p);
      advance();
      resultSort = Sort.Num;
      resultDepth = 1;
      return { kind: 'number', value: Number(raw), raw, span: exprSpan(s) };
    }
    if (k === T.STRING) {
      const raw = tokenText(p);
      advance();
      resultSort = Sort.Num;
      resultDepth = 1;
      return { kind: 'string', value: raw.slice(1, -1), span: exprSpan(s) };
    }
    const fn = AGGREGATES[k];
    if (fn !== undefined) return parseAggregate(fn);
    if (k === T.BOOLEAN) return exprFail(p, `'${tokenText(p)}' is not allowed in a constraint; write the feature name (or its negation with '!') instead`);
    return exprFail(p, `expected a feature name, a number, a string, an aggregate function, '(' or '!', found ${describe(p)}`);
  };

  // aggregateFunction: ('sum' | 'avg') OPEN_PAREN (reference COMMA)? reference CLOSE_PAREN
  //                  | ('len' | 'floor' | 'ceil') OPEN_PAREN reference CLOSE_PAREN
  const parseAggregate = (fn: AggregateFunction): Expression | undefined => {
    const s = p;
    advance();
    if (kind() !== T.OPEN_PAREN) return exprFail(p, `expected '(' after '${fn}', found ${describe(p)}`);
    advance();
    const args: Reference[] = [];
    const first = parseReference();
    if (!first) return exprFail(p, `expected an attribute or feature name in ${fn}(…), found ${describe(p)}`);
    args.push(first);
    if ((fn === 'sum' || fn === 'avg') && kind() === T.COMMA) {
      advance();
      const second = parseReference();
      if (!second) return exprFail(p, `expected an attribute name after ',' in ${fn}(…), found ${describe(p)}`);
      args.push(second);
    }
    if (kind() !== T.CLOSE_PAREN) {
      return exprFail(p, `expected ')' to close ${fn}(…), found ${describe(p)}${kind() === T.COMMA ? ` (${fn} takes one argument)` : ''}`);
    }
    advance();
    resultSort = Sort.Num;
    resultDepth = 1;
    return { kind: 'aggregate', fn, args, span: exprSpan(s) };
  };

  const canStartExpression = (k: number): boolean =>
    isId(k) || k === T.OPEN_PAREN || k === T.NOT || k === T.INTEGER || k === T.FLOAT || k === T.STRING || AGGREGATES[k] !== undefined;

  /** A whole constraint: a boolean expression. Undefined after a reported error. */
  const parseConstraint = (): Expression | undefined => {
    exprFailed = false;
    const s = p;
    const e = parseExpression();
    if (!e) return undefined;
    if (!(resultSort & Sort.Bool)) {
      return exprFail(s, `a constraint must be a boolean expression (features, comparisons, or their combinations), but this is ${sortName(e)}`, 'type-mismatch');
    }
    return e;
  };

  // ---------------------------------------------------------------- attributes
  let valueDepth = 0;

  // attributes: OPEN_BRACE (attribute (COMMA attribute)*)? CLOSE_BRACE
  const parseAttributes = (): Attribute[] => {
    const list: Attribute[] = [];
    const open = p;
    advance(); // {
    if (++valueDepth > MAX_DEPTH) {
      errorAt(p, `attributes nested more than ${MAX_DEPTH} levels deep`, 'too-deep');
      skipBracketed(T.OPEN_BRACE, T.CLOSE_BRACE);
      valueDepth--;
      return list;
    }
    if (kind() !== T.CLOSE_BRACE) {
      for (;;) {
        const a = parseAttribute();
        if (!a) {
          skipBracketed(T.OPEN_BRACE, T.CLOSE_BRACE);
          valueDepth--;
          return list;
        }
        list.push(a);
        if (!parseOptional(T.COMMA)) break;
      }
    }
    valueDepth--;
    if (kind() === T.CLOSE_BRACE) advance();
    else {
      expected(`',' or '}' to close the attributes opened at column ${span(starts[open]!, ends[open]!).column}`);
      skipBracketed(T.OPEN_BRACE, T.CLOSE_BRACE);
    }
    return list;
  };
  /** Recovery inside { } or [ ]: skips to after the bracket that closes the current one, or to the end of the line. */
  const skipBracketed = (open: number, close: number): void => {
    let depth = 0;
    while (kind() !== T.EOF && kind() !== T.NEWLINE) {
      const k = kind();
      advance();
      if (k === open) depth++;
      else if (k === close && --depth < 0) return;
    }
  };

  // attribute: valueAttribute | constraintAttribute
  // valueAttribute: key value?
  // constraintAttribute: 'constraint' constraint | 'constraints' constraintList
  const parseAttribute = (): Attribute | undefined => {
    const s = p;
    const k = kind();
    if (k === T.CONSTRAINT) {
      advance();
      const c = parseConstraint();
      if (!c) return undefined;
      return { kind: 'constraint', constraint: c, span: exprSpan(s) };
    }
    if (k === T.CONSTRAINTS) {
      advance();
      // constraintList: OPEN_BRACK (constraint (COMMA constraint)*)? CLOSE_BRACK
      if (!parseExpected(T.OPEN_BRACK, "'[' with the list of constraints after 'constraints'")) return undefined;
      const constraints: Expression[] = [];
      if (kind() !== T.CLOSE_BRACK) {
        for (;;) {
          const c = parseConstraint();
          if (!c) return undefined;
          constraints.push(c);
          if (kind() !== T.COMMA) break;
          advance();
        }
      }
      if (!parseExpected(T.CLOSE_BRACK, "',' or ']' in the constraint list")) return undefined;
      return { kind: 'constraints', constraints, span: exprSpan(s) };
    }
    // key: id
    if (!isId(k)) {
      expected('an attribute name');
      return undefined;
    }
    const key: Reference = { name: idText(p), parts: [idText(p)], span: span(starts[p]!, ends[p]!) };
    advance();
    let value: AttributeValue | undefined;
    if (isValueStart(kind())) {
      value = parseValue();
      if (!value) return undefined;
    }
    return value ? { kind: 'value', name: key.name, key, value, span: exprSpan(s) } : { kind: 'value', name: key.name, key, span: exprSpan(s) };
  };
  const isValueStart = (k: number): boolean =>
    k === T.BOOLEAN || k === T.FLOAT || k === T.INTEGER || k === T.STRING || k === T.OPEN_BRACE || k === T.OPEN_BRACK;

  // value: BOOLEAN | FLOAT | INTEGER | STRING | attributes | vector
  const parseValue = (): AttributeValue | undefined => {
    const s = p;
    const k = kind();
    if (k === T.BOOLEAN) {
      const v = tokenText(p) === 'true';
      advance();
      return { kind: 'boolean', value: v, span: exprSpan(s) };
    }
    if (k === T.FLOAT || k === T.INTEGER) {
      const raw = tokenText(p);
      advance();
      return { kind: 'number', value: Number(raw), raw, span: exprSpan(s) };
    }
    if (k === T.STRING) {
      const raw = tokenText(p);
      advance();
      return { kind: 'string', value: raw.slice(1, -1), span: exprSpan(s) };
    }
    if (k === T.OPEN_BRACE) {
      const before = diagnostics.length;
      const attributes = parseAttributes();
      if (diagnostics.length > before) return undefined;
      return { kind: 'attributes', attributes, span: exprSpan(s) };
    }
    if (k === T.OPEN_BRACK) return parseVector();
    expected('a value (true, false, a number, a string, {…} or […])');
    return undefined;
  };

  // vector: OPEN_BRACK (value (COMMA value)*)? CLOSE_BRACK
  const parseVector = (): AttributeValue | undefined => {
    const s = p;
    advance();
    if (++valueDepth > MAX_DEPTH) {
      errorAt(p, `values nested more than ${MAX_DEPTH} levels deep`, 'too-deep');
      valueDepth--;
      return undefined;
    }
    const values: AttributeValue[] = [];
    if (kind() !== T.CLOSE_BRACK) {
      for (;;) {
        if (!isValueStart(kind())) {
          expected('a value (true, false, a number, a string, {…} or […])');
          valueDepth--;
          return undefined;
        }
        const v = parseValue();
        if (!v) {
          valueDepth--;
          return undefined;
        }
        values.push(v);
        if (!parseOptional(T.COMMA)) break;
      }
    }
    valueDepth--;
    if (!parseExpected(T.CLOSE_BRACK, "',' or ']' in the list of values")) return undefined;
    return { kind: 'vector', values, span: exprSpan(s) };
  };

  // ---------------------------------------------------------------- feature tree
  const isFeatureStart = (k: number): boolean => isId(k) || FEATURE_TYPES[k] !== undefined;

  // feature: featureType? reference featureCardinality? attributes? NEWLINE (INDENT group+ DEDENT)?
  const parseFeature = (depth: number): Feature | undefined => {
    const s = p;
    let type: FeatureType | undefined = FEATURE_TYPES[kind()];
    if (type !== undefined) advance();
    if (!isId(kind())) {
      expected(type ? `a feature name after '${type}'` : 'a feature name');
      skipLine();
      return undefined;
    }
    const reference = parseReference();
    if (!reference) {
      skipLine();
      return undefined;
    }
    const feature: Feature = { name: reference.name, reference, attributes: [], groups: [], span: reference.span };
    if (type !== undefined) feature.type = type;
    let lineOk = true;
    // featureCardinality: 'cardinality' CARDINALITY
    if (kind() === T.CARDINALITY_KEY) {
      advance();
      if (kind() === T.CARDINALITY) {
        feature.cardinality = parseCardinalityText(tokenText(p));
        advance();
      } else {
        expected("a cardinality such as [1..3] (written without spaces) after 'cardinality'");
        lineOk = false;
      }
    }
    if (lineOk && kind() === T.OPEN_BRACE) {
      const before = diagnostics.length;
      feature.attributes = parseAttributes();
      if (diagnostics.length > before && kind() !== T.NEWLINE) lineOk = false;
    }
    feature.span = span(starts[s]!, ends[Math.max(s, p - 1)]!);
    if (lineOk) expectNewline(() => `feature '${reference.name}'`);
    else {
      while (kind() !== T.NEWLINE && kind() !== T.EOF && kind() !== T.DEDENT) advance();
      if (kind() === T.NEWLINE) advance();
    }
    if (kind() === T.INDENT) {
      if (depth >= MAX_DEPTH) {
        errorAt(p, `feature tree nested more than ${MAX_DEPTH} levels deep`, 'too-deep', false);
        skipBlock();
        return feature;
      }
      advance();
      // group+ : at least one group, then the end of the block
      while (kind() !== T.DEDENT && kind() !== T.EOF) {
        if (GROUP_KINDS[kind()] !== undefined) {
          feature.groups.push(parseGroup(depth));
          continue;
        }
        if (kind() === T.NEWLINE) {
          strayNewline(`${GROUP_HINT} under feature '${reference.name}'`);
          continue;
        }
        if (isFeatureStart(kind())) errorAt(p, `expected ${GROUP_HINT} above ${describe(p)}: a child feature must be listed under a group of '${reference.name}'`);
        else expected(`${GROUP_HINT} under feature '${reference.name}'`);
        skipLine();
      }
      if (kind() === T.DEDENT) advance();
    }
    return feature;
  };

  // group: (ORGROUP | ALTERNATIVE | OPTIONAL | MANDATORY | CARDINALITY) groupSpec
  // groupSpec: NEWLINE INDENT feature+ DEDENT
  const parseGroup = (depth: number): Group => {
    const s = p;
    const groupKind = GROUP_KINDS[kind()]!;
    const group: Group = { kind: groupKind, children: [], span: span(starts[s]!, ends[s]!) };
    const label = groupKind === 'cardinality' ? tokenText(p) : groupKind;
    if (groupKind === 'cardinality') group.cardinality = parseCardinalityText(tokenText(p));
    advance();
    expectNewline(() => `'${label}'`);
    if (kind() !== T.INDENT) {
      expected(`the features of group '${label}', indented below it`);
      return group;
    }
    if (depth + 1 >= MAX_DEPTH) {
      errorAt(p, `feature tree nested more than ${MAX_DEPTH} levels deep`, 'too-deep', false);
      skipBlock();
      return group;
    }
    advance();
    while (kind() !== T.DEDENT && kind() !== T.EOF) {
      if (isFeatureStart(kind())) {
        const child = parseFeature(depth + 1);
        if (child) group.children.push(child);
        continue;
      }
      if (kind() === T.NEWLINE) {
        strayNewline(`a feature of group '${label}'`);
        continue;
      }
      if (GROUP_KINDS[kind()] !== undefined) expected(`a feature of group '${label}' (a group keyword must follow a feature)`);
      else expected(`a feature of group '${label}'`);
      skipLine();
    }
    if (kind() === T.DEDENT) advance();
    return group;
  };

  // ---------------------------------------------------------------- sections
  const model: UvlModel = { includes: [], imports: [], constraints: [] };
  if (fileName !== undefined) model.fileName = fileName;

  /**
   * Lines of a block: `each` parses one line and must consume it. An extra INDENT
   * inside the block (a line indented deeper than its siblings) is reported once
   * and its lines are read as if they lined up.
   */
  const blockLines = (canStart: (k: number) => boolean, each: () => void, what: string): void => {
    let extra = 0;
    while (kind() !== T.EOF) {
      const k = kind();
      if (k === T.DEDENT) {
        if (extra === 0) return;
        extra--;
        advance();
        continue;
      }
      if (k === T.INDENT) {
        errorAt(p, `this line is indented deeper than the line above it (${what} belongs at the same indentation)`);
        extra++;
        advance();
        continue;
      }
      if (k === T.NEWLINE) {
        strayNewline(what);
        continue;
      }
      if (!canStart(k)) {
        expected(what);
        skipLine();
        continue;
      }
      each();
    }
  };

  // namespace: 'namespace' reference
  const parseNamespace = (): void => {
    advance();
    const ref = parseReference();
    if (!ref) {
      expected("a name after 'namespace'");
      skipLine();
      return;
    }
    model.namespace = ref;
  };

  // includes: 'include' NEWLINE INDENT includeLine* DEDENT
  // includeLine: languageLevel NEWLINE
  // languageLevel: majorLevel ('.' (minorLevel | '*'))?
  const parseIncludes = (): void => {
    advance();
    expectNewline("'include'");
    if (kind() !== T.INDENT) {
      expected('the language levels, indented below \'include\'');
      return;
    }
    advance();
    blockLines(
      (k) => MAJOR_LEVELS[k] !== undefined,
      () => {
        const s = p;
        const level: LanguageLevel = { major: MAJOR_LEVELS[kind()]!, span: span(starts[s]!, ends[s]!) };
        advance();
        if (parseOptional(T.DOT)) {
          const minor = MINOR_LEVELS[kind()];
          if (minor !== undefined) level.minor = minor;
          else if (kind() === T.MUL) level.minor = '*';
          else {
            expected("a minor language level (group-cardinality, feature-cardinality, aggregate-function, string-constraints) or '*'");
            skipLine();
            return;
          }
          advance();
        }
        level.span = exprSpan(s);
        model.includes.push(level);
        expectNewline('the language level');
      },
      'a language level (Boolean, Arithmetic or Type)',
    );
    expectBlockEnd('the end of the include section');
  };

  // imports: 'imports' NEWLINE INDENT importLine* DEDENT
  // importLine: ns=reference ('as' alias=reference)? NEWLINE
  const parseImports = (): void => {
    advance();
    expectNewline("'imports'");
    if (kind() !== T.INDENT) {
      expected("the imported models, indented below 'imports'");
      return;
    }
    advance();
    blockLines(
      isId,
      () => {
        const s = p;
        const namespace = parseReference();
        if (!namespace) {
          skipLine();
          return;
        }
        const imp: Import = { namespace, prefix: namespace.name, span: namespace.span };
        if (parseOptional(T.AS)) {
          const alias = parseReference();
          if (!alias) {
            expected("a name after 'as'");
            skipLine();
            return;
          }
          imp.alias = alias;
          imp.prefix = alias.name;
        }
        imp.span = exprSpan(s);
        model.imports.push(imp);
        expectNewline(`the import of '${namespace.name}'`);
      },
      'an imported model',
    );
    expectBlockEnd('the end of the imports section');
  };

  // features: 'features' NEWLINE INDENT feature DEDENT
  const parseFeatures = (): void => {
    advance();
    expectNewline("'features'");
    if (kind() !== T.INDENT) {
      expected("the root feature, indented below 'features'");
      return;
    }
    advance();
    if (!isFeatureStart(kind())) {
      expected('the root feature');
      skipLine();
    } else {
      const root = parseFeature(0);
      if (root) model.root = root;
    }
    while (kind() === T.NEWLINE) strayNewline('the end of the features section');
    if (kind() === T.DEDENT || kind() === T.EOF) {
      if (kind() === T.DEDENT) advance();
      return;
    }
    if (GROUP_KINDS[kind()] !== undefined) {
      errorAt(p, `group '${tokenText(p)}' must be indented below the feature it belongs to`);
    } else if (isFeatureStart(kind())) {
      errorAt(p, `a model has exactly one root feature; found a second one, ${describe(p)} (indent it under a group of '${model.root?.name ?? 'the root'}')`);
    } else expected('the end of the features section');
    skipToBlockEnd();
  };

  // constraints: 'constraints' NEWLINE INDENT constraintLine* DEDENT
  // constraintLine: constraint NEWLINE
  const parseConstraints = (): void => {
    advance();
    expectNewline("'constraints'");
    if (kind() !== T.INDENT) {
      expected("the constraints, indented below 'constraints'");
      return;
    }
    advance();
    blockLines(
      canStartExpression,
      () => {
        const c = parseConstraint();
        if (!c) {
          skipLine();
          return;
        }
        model.constraints.push(c);
        if (kind() === T.NEWLINE) advance();
        else {
          expected("end of line after the constraint (an operator such as & | => <=> or a comparison may be missing)");
          skipLine();
        }
      },
      'a constraint',
    );
    expectBlockEnd('the end of the constraints section');
  };

  // featureModel: namespace? NEWLINE? includes? NEWLINE? imports? NEWLINE? features? NEWLINE? constraints? EOF
  // `stage` is the position in that sequence of the last element read: a section may only
  // follow elements before it, and each NEWLINE? slot takes at most one line break.
  const SECTIONS: Record<number, [number, string, () => void]> = {
    [T.NAMESPACE]: [1, 'namespace', parseNamespace],
    [T.INCLUDE]: [3, 'include', parseIncludes],
    [T.IMPORTS]: [5, 'imports', parseImports],
    [T.FEATURES]: [7, 'features', parseFeatures],
    [T.CONSTRAINTS]: [9, 'constraints', parseConstraints],
  };
  let stage = 0;
  let sawSection = false;
  while (kind() !== T.EOF) {
    const k = kind();
    if (k === T.NEWLINE && stage < 8) {
      stage = stage + 2 - (stage % 2); // the next NEWLINE? slot: 2, 4, 6 or 8
      advance();
      continue;
    }
    const section = SECTIONS[k];
    if (section) {
      const [order, name, parse] = section;
      if (order <= stage) {
        let message: string;
        if (order === 1 && !sawSection) message = "'namespace' must be the first line of the model: not even a comment or a blank line may come before it";
        else if (order === stage) message = `the '${name}' section appears twice`;
        else message = `the '${name}' section is out of place (the order is: namespace, include, imports, features, constraints)`;
        errorAt(p, message, 'section-order');
      }
      sawSection = true;
      stage = Math.max(stage, order);
      const before = p;
      parse();
      if (p === before) advance();
      continue;
    }
    // Always an error: what follows is skipped, so a warning would hide lost content.
    if (k === T.INDENT) errorAt(p, 'unexpected indentation at the top level of the model (sections start at the left margin)', 'unexpected-token', false);
    else if (k === T.NEWLINE) errorAt(p, 'unexpected line break between sections');
    else expected("'namespace', 'include', 'imports', 'features' or 'constraints'");
    // Resynchronise at the next line that starts at the left margin.
    const before = p;
    skipLine();
    while (kind() === T.DEDENT) advance();
    if (p === before) advance();
  }

  // Diagnostics arrive in source order per producer; the scanner's and the parser's are merged here.
  diagnostics.sort((a, b) => a.offset - b.offset);
  return { model, diagnostics };
}
