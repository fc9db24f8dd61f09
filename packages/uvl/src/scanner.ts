// The UVL scanner: one pass over the text into flat token arrays, with the
// indentation turned into NEWLINE / INDENT / DEDENT tokens.
//
// It reproduces the lexer of the reference parser (uvlparser 2.5.0: the ANTLR
// lexer UVLLexer.g4 with its Python indentation handler), so that the same
// texts are accepted and rejected:
// - longest match wins; on equal length the keyword wins over a name
//   ("or" is the or-group keyword, "order" a name);
// - a NEWLINE is dropped while a ( [ { or an unclosed /* is open, and before a
//   blank line or a line that starts with a comment; otherwise it is emitted and
//   the indentation of the next line (a tab counts up to the next multiple of 8)
//   is compared with a stack of levels: deeper pushes one INDENT, shallower pops
//   one DEDENT per deeper level (a level between two is not pushed);
// - at the end of the text, one more NEWLINE and a DEDENT per open level;
// - a block comment runs from /* to the LAST */ of the text (the reference
//   grammar's `.*` is greedy).
// Errors are collected, never thrown; a bad lexeme becomes one ERROR token.

import type { Diagnostic, DiagnosticCode } from './diagnostics.ts';

export const T = {
  EOF: 0,
  NEWLINE: 1,
  INDENT: 2,
  DEDENT: 3,
  ERROR: 4,
  // keywords
  INCLUDE: 10,
  FEATURES: 11,
  IMPORTS: 12,
  NAMESPACE: 13,
  AS: 14,
  CONSTRAINT: 15,
  CONSTRAINTS: 16,
  CARDINALITY_KEY: 17,
  STRING_KEY: 18,
  BOOLEAN_KEY: 19,
  INTEGER_KEY: 20,
  REAL_KEY: 21,
  LEN: 22,
  SUM: 23,
  AVG: 24,
  FLOOR: 25,
  CEIL: 26,
  TYPE_KEY: 27,
  ARITHMETIC_KEY: 28,
  GROUP_CARDINALITY_KEY: 29,
  FEATURE_CARDINALITY_KEY: 30,
  AGGREGATE_KEY: 31,
  STRING_CONSTRAINTS_KEY: 32,
  OR_GROUP: 33,
  ALTERNATIVE: 34,
  OPTIONAL: 35,
  MANDATORY: 36,
  // punctuation and operators
  CARDINALITY: 40, // [n], [n..m], [n..*] written without spaces: one token
  NOT: 41,
  AND: 42,
  OR: 43,
  EQUIVALENCE: 44,
  IMPLICATION: 45,
  EQUAL: 46,
  LOWER: 47,
  LOWER_EQUALS: 48,
  GREATER: 49,
  GREATER_EQUALS: 50,
  NOT_EQUALS: 51,
  DIV: 52,
  MUL: 53,
  ADD: 54,
  SUB: 55,
  OPEN_PAREN: 56,
  CLOSE_PAREN: 57,
  OPEN_BRACK: 58,
  CLOSE_BRACK: 59,
  OPEN_BRACE: 60,
  CLOSE_BRACE: 61,
  OPEN_COMMENT: 62, // a /* that has no */ after it
  CLOSE_COMMENT: 63, // a stray */
  COMMA: 64,
  DOT: 65,
  // literals and names
  FLOAT: 70,
  INTEGER: 71,
  BOOLEAN: 72,
  ID_STRICT: 73,
  ID_NOT_STRICT: 74,
  STRING: 75,
} as const;
export type TokenKind = (typeof T)[keyof typeof T];

const KEYWORDS = new Map<string, TokenKind>([
  ['include', T.INCLUDE],
  ['features', T.FEATURES],
  ['imports', T.IMPORTS],
  ['namespace', T.NAMESPACE],
  ['as', T.AS],
  ['constraint', T.CONSTRAINT],
  ['constraints', T.CONSTRAINTS],
  ['cardinality', T.CARDINALITY_KEY],
  ['String', T.STRING_KEY],
  ['Boolean', T.BOOLEAN_KEY],
  ['Integer', T.INTEGER_KEY],
  ['Real', T.REAL_KEY],
  ['len', T.LEN],
  ['sum', T.SUM],
  ['avg', T.AVG],
  ['floor', T.FLOOR],
  ['ceil', T.CEIL],
  ['Type', T.TYPE_KEY],
  ['Arithmetic', T.ARITHMETIC_KEY],
  ['or', T.OR_GROUP],
  ['alternative', T.ALTERNATIVE],
  ['optional', T.OPTIONAL],
  ['mandatory', T.MANDATORY],
  ['true', T.BOOLEAN],
  ['false', T.BOOLEAN],
]);

/** Keywords that contain a hyphen: they win over the shorter name before the hyphen. */
const HYPHENATED: ReadonlyArray<readonly [string, string, TokenKind]> = [
  ['group', 'group-cardinality', T.GROUP_CARDINALITY_KEY],
  ['feature', 'feature-cardinality', T.FEATURE_CARDINALITY_KEY],
  ['aggregate', 'aggregate-function', T.AGGREGATE_KEY],
  ['string', 'string-constraints', T.STRING_CONSTRAINTS_KEY],
];

export const KEYWORD_TEXTS: ReadonlySet<string> = new Set([
  ...KEYWORDS.keys(),
  ...HYPHENATED.map((h) => h[1]),
]);

/** Characters after the first letter of an unquoted name: [a-zA-Z0-9_#§%?\\'äüöß;]. */
const ID_PART = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
  const ch = String.fromCharCode(c);
  ID_PART[c] = /[a-zA-Z0-9_#§%?\\'äüöß;]/.test(ch) ? 1 : 0;
}
function isIdStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
function isIdPart(c: number): boolean {
  return c < 256 && ID_PART[c] === 1;
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Whether `name` can be written without quotes (and is not a keyword). */
export function isPlainName(name: string): boolean {
  if (name.length === 0 || !isIdStart(name.charCodeAt(0))) return false;
  for (let i = 1; i < name.length; i++) if (!isIdPart(name.charCodeAt(i))) return false;
  return !KEYWORD_TEXTS.has(name);
}

/** Whether `name` can be written at all, quoted if need be ("…" holds no dot, quote or line break). */
export function isWritableName(name: string): boolean {
  return name.length > 0 && !/["\r\n.]/.test(name);
}

export interface Tokens {
  readonly text: string;
  /** Offsets where lines start (0 first); a line break is \n, \r\n or \r. */
  readonly lineStarts: number[];
  readonly count: number;
  readonly kinds: Uint8Array;
  /** For NEWLINE: the line break; for INDENT/DEDENT: the indentation of the new line. */
  readonly starts: Int32Array;
  readonly ends: Int32Array;
}

class TokenBuffer {
  kinds = new Uint8Array(1024);
  starts = new Int32Array(1024);
  ends = new Int32Array(1024);
  count = 0;
  push(kind: number, start: number, end: number): void {
    if (this.count === this.kinds.length) {
      const size = this.kinds.length * 2;
      const k = new Uint8Array(size);
      k.set(this.kinds);
      this.kinds = k;
      const s = new Int32Array(size);
      s.set(this.starts);
      this.starts = s;
      const e = new Int32Array(size);
      e.set(this.ends);
      this.ends = e;
    }
    const i = this.count++;
    this.kinds[i] = kind;
    this.starts[i] = start;
    this.ends[i] = end;
  }
}

export type ReportFn = (code: DiagnosticCode, message: string, offset: number, length: number) => void;

/** Width of an indentation: a tab advances to the next multiple of 8, like the reference lexer. */
export function indentationWidth(text: string, start: number, end: number): number {
  let count = 0;
  for (let i = start; i < end; i++) count = text.charCodeAt(i) === 9 ? count + 8 - (count % 8) : count + 1;
  return count;
}

export function scan(text: string, report: ReportFn): Tokens {
  const out = new TokenBuffer();
  const n = text.length;
  const indents: number[] = [];
  const lineStarts = [0];
  let opened = 0;
  let lastCommentClose = -2; // computed on the first block comment
  let pos = 0;

  // After a line break and its indentation [nlStart, wsStart) [wsStart, wsEnd).
  const newline = (nlStart: number, wsStart: number, wsEnd: number): void => {
    const next = wsEnd < n ? text.charCodeAt(wsEnd) : -1;
    // Dropped inside brackets, before blank lines and before comment lines (13 \r, 10 \n, 12 \f, 35 #, 47 /).
    if (opened > 0 || next === 13 || next === 10 || next === 12 || next === 35 || next === 47) return;
    out.push(T.NEWLINE, nlStart, wsStart);
    const indent = indentationWidth(text, wsStart, wsEnd);
    const previous = indents.length === 0 ? 0 : indents[indents.length - 1]!;
    if (indent > previous) {
      indents.push(indent);
      out.push(T.INDENT, wsStart, wsEnd);
    } else if (indent < previous) {
      while (indents.length > 0 && indents[indents.length - 1]! > indent) {
        indents.pop();
        out.push(T.DEDENT, wsStart, wsEnd);
      }
    }
  };

  // Leading blanks of the first line count as a line break (the reference's atStartOfInput rule).
  if (n > 0 && (text.charCodeAt(0) === 32 || text.charCodeAt(0) === 9)) {
    let e = 0;
    while (e < n && (text.charCodeAt(e) === 32 || text.charCodeAt(e) === 9)) e++;
    newline(0, 0, e);
    pos = e;
  }

  while (pos < n) {
    const c = text.charCodeAt(pos);
    const start = pos;
    switch (c) {
      case 32:
      case 9:
        pos++;
        while (pos < n && (text.charCodeAt(pos) === 32 || text.charCodeAt(pos) === 9)) pos++;
        continue;
      case 10:
      case 13: {
        pos++;
        if (c === 13 && pos < n && text.charCodeAt(pos) === 10) pos++;
        lineStarts.push(pos);
        const ws = pos;
        while (pos < n && (text.charCodeAt(pos) === 32 || text.charCodeAt(pos) === 9)) pos++;
        newline(start, ws, pos);
        continue;
      }
      case 47: {
        // '/'
        const d = pos + 1 < n ? text.charCodeAt(pos + 1) : -1;
        if (d === 47) {
          pos += 2;
          while (pos < n) {
            const e = text.charCodeAt(pos);
            if (e === 10 || e === 13 || e === 12) break;
            pos++;
          }
          continue;
        }
        if (d === 42) {
          if (lastCommentClose === -2) lastCommentClose = text.lastIndexOf('*/');
          if (lastCommentClose >= pos + 2) {
            const end = lastCommentClose + 2;
            for (let i = pos; i < end; i++) {
              const e = text.charCodeAt(i);
              if (e === 10 || (e === 13 && text.charCodeAt(i + 1) !== 10)) lineStarts.push(i + 1);
            }
            pos = end;
            continue;
          }
          opened++;
          pos += 2;
          out.push(T.OPEN_COMMENT, start, pos);
          report('unterminated-comment', 'block comment "/*" is never closed with "*/"', start, 2);
          continue;
        }
        pos++;
        out.push(T.DIV, start, pos);
        continue;
      }
      case 42: // '*'
        if (pos + 1 < n && text.charCodeAt(pos + 1) === 47) {
          opened--;
          pos += 2;
          out.push(T.CLOSE_COMMENT, start, pos);
        } else {
          pos++;
          out.push(T.MUL, start, pos);
        }
        continue;
      case 40:
        opened++;
        out.push(T.OPEN_PAREN, pos, ++pos);
        continue;
      case 41:
        opened--;
        out.push(T.CLOSE_PAREN, pos, ++pos);
        continue;
      case 123:
        opened++;
        out.push(T.OPEN_BRACE, pos, ++pos);
        continue;
      case 125:
        opened--;
        out.push(T.CLOSE_BRACE, pos, ++pos);
        continue;
      case 93:
        opened--;
        out.push(T.CLOSE_BRACK, pos, ++pos);
        continue;
      case 91: {
        const end = matchCardinality(text, pos);
        if (end > 0) {
          out.push(T.CARDINALITY, pos, end);
          pos = end;
        } else {
          opened++;
          out.push(T.OPEN_BRACK, pos, ++pos);
        }
        continue;
      }
      case 44:
        out.push(T.COMMA, pos, ++pos);
        continue;
      case 38:
        out.push(T.AND, pos, ++pos);
        continue;
      case 124:
        out.push(T.OR, pos, ++pos);
        continue;
      case 43:
        out.push(T.ADD, pos, ++pos);
        continue;
      case 33: // '!'
        if (pos + 1 < n && text.charCodeAt(pos + 1) === 61) {
          pos += 2;
          out.push(T.NOT_EQUALS, start, pos);
        } else out.push(T.NOT, pos, ++pos);
        continue;
      case 61: // '='
        if (pos + 1 < n && text.charCodeAt(pos + 1) === 62) {
          pos += 2;
          out.push(T.IMPLICATION, start, pos);
        } else if (pos + 1 < n && text.charCodeAt(pos + 1) === 61) {
          pos += 2;
          out.push(T.EQUAL, start, pos);
        } else {
          pos++;
          out.push(T.ERROR, start, pos);
          report('invalid-character', `unexpected character '='; did you mean '==' or '=>'?`, start, 1);
        }
        continue;
      case 60: // '<'
        if (text.startsWith('<=>', pos)) {
          pos += 3;
          out.push(T.EQUIVALENCE, start, pos);
        } else if (text.startsWith('<INDENT>', pos)) {
          pos += 8;
          out.push(T.INDENT, start, pos);
        } else if (text.startsWith('<DEDENT>', pos)) {
          pos += 8;
          out.push(T.DEDENT, start, pos);
        } else if (pos + 1 < n && text.charCodeAt(pos + 1) === 61) {
          pos += 2;
          out.push(T.LOWER_EQUALS, start, pos);
        } else out.push(T.LOWER, pos, ++pos);
        continue;
      case 62: // '>'
        if (pos + 1 < n && text.charCodeAt(pos + 1) === 61) {
          pos += 2;
          out.push(T.GREATER_EQUALS, start, pos);
        } else out.push(T.GREATER, pos, ++pos);
        continue;
      case 34: {
        // "quoted name": no line break, quote or dot inside, at least one character
        let p = pos + 1;
        let dot = -1;
        while (p < n) {
          const e = text.charCodeAt(p);
          if (e === 34 || e === 10 || e === 13) break;
          if (e === 46 && dot < 0) dot = p;
          p++;
        }
        const closed = p < n && text.charCodeAt(p) === 34;
        if (closed && dot < 0 && p > pos + 1) {
          pos = p + 1;
          out.push(T.ID_NOT_STRICT, start, pos);
        } else {
          pos = closed ? p + 1 : p;
          out.push(T.ERROR, start, pos);
          const shown = text.slice(start, pos);
          if (!closed) report('unterminated-name', `quoted name ${shown} is not closed with '"' on its line`, start, pos - start);
          else if (dot >= 0) report('unterminated-name', `a quoted name cannot contain '.': ${shown} (write a dotted reference as "a"."b")`, start, pos - start);
          else report('unterminated-name', 'empty quoted name ""', start, pos - start);
        }
        continue;
      }
      case 39: {
        // 'string': no line break or quote inside, at least one character
        let p = pos + 1;
        while (p < n) {
          const e = text.charCodeAt(p);
          if (e === 39 || e === 10 || e === 13) break;
          p++;
        }
        const closed = p < n && text.charCodeAt(p) === 39;
        if (closed && p > pos + 1) {
          pos = p + 1;
          out.push(T.STRING, start, pos);
        } else {
          pos = closed ? p + 1 : p;
          out.push(T.ERROR, start, pos);
          report('unterminated-string', closed ? "empty string ''" : `string ${text.slice(start, pos)} is not closed with "'" on its line`, start, pos - start);
        }
        continue;
      }
      case 46: // '.'
        if (pos + 1 < n && isDigit(text.charCodeAt(pos + 1))) {
          pos += 2;
          while (pos < n && isDigit(text.charCodeAt(pos))) pos++;
          out.push(T.FLOAT, start, pos);
        } else out.push(T.DOT, pos, ++pos);
        continue;
      default:
        break;
    }
    if (c === 45 || isDigit(c)) {
      // FLOAT: -?[0-9]*\.[0-9]+   INTEGER: 0 | -?[1-9][0-9]*   else SUB
      const neg = c === 45 ? 1 : 0;
      let p = pos + neg;
      while (p < n && isDigit(text.charCodeAt(p))) p++;
      let floatEnd = -1;
      if (p < n && text.charCodeAt(p) === 46 && p + 1 < n && isDigit(text.charCodeAt(p + 1))) {
        floatEnd = p + 2;
        while (floatEnd < n && isDigit(text.charCodeAt(floatEnd))) floatEnd++;
      }
      const intEnd = matchInteger(text, pos);
      if (floatEnd > 0 && floatEnd > intEnd) {
        out.push(T.FLOAT, start, floatEnd);
        pos = floatEnd;
      } else if (intEnd > 0) {
        out.push(T.INTEGER, start, intEnd);
        pos = intEnd;
      } else {
        out.push(T.SUB, pos, ++pos);
      }
      continue;
    }
    if (isIdStart(c)) {
      let p = pos + 1;
      while (p < n && isIdPart(text.charCodeAt(p))) p++;
      // Keywords are 2 to 11 letters long: longer names skip the lookup.
      let kind: TokenKind = T.ID_STRICT;
      let word = '';
      if (p - pos <= 11 && p - pos >= 2) {
        word = text.slice(pos, p);
        kind = KEYWORDS.get(word) ?? T.ID_STRICT;
      }
      if (p < n && text.charCodeAt(p) === 45) {
        for (const [prefix, full, k] of HYPHENATED) {
          if (word === prefix && text.startsWith(full, pos)) {
            kind = k;
            p = pos + full.length;
            break;
          }
        }
      }
      out.push(kind, pos, p);
      pos = p;
      continue;
    }
    // No token starts here: one error for a run of such characters.
    let p = pos + 1;
    while (p < n && isInvalidStart(text, p)) p++;
    out.push(T.ERROR, start, p);
    const shown = JSON.stringify(text.slice(start, Math.min(p, start + 20)));
    report('invalid-character', `unexpected character${p - start > 1 ? 's' : ''} ${shown}${p - start > 20 ? '…' : ''}`, start, p - start);
    pos = p;
  }

  if (indents.length > 0) {
    out.push(T.NEWLINE, n, n);
    for (let i = 0; i < indents.length; i++) out.push(T.DEDENT, n, n);
  }
  out.push(T.EOF, n, n);
  return { text, lineStarts, count: out.count, kinds: out.kinds, starts: out.starts, ends: out.ends };
}

/** Characters that cannot start any token (so an error run continues over them). */
function isInvalidStart(text: string, p: number): boolean {
  const c = text.charCodeAt(p);
  if (c === 32 || c === 9 || c === 10 || c === 13) return false;
  if (isIdStart(c) || isDigit(c)) return false;
  return '/*(){}[],&|+!=<>"\'.-'.indexOf(text[p]!) < 0;
}

/** End of INTEGER at pos (0 | -?[1-9][0-9]*), or -1. */
function matchInteger(text: string, pos: number): number {
  const n = text.length;
  let p = pos;
  const c = text.charCodeAt(p);
  if (c === 48) return p + 1;
  if (c === 45) p++;
  if (p >= n) return -1;
  const d = text.charCodeAt(p);
  if (d < 49 || d > 57) return -1;
  p++;
  while (p < n && isDigit(text.charCodeAt(p))) p++;
  return p;
}

/** End of a CARDINALITY token `[` INTEGER (`..` (INTEGER | `*`))? `]` at pos, or -1. */
function matchCardinality(text: string, pos: number): number {
  let p = matchInteger(text, pos + 1);
  if (p < 0) return -1;
  if (text.startsWith('..', p)) {
    if (text.charCodeAt(p + 2) === 42) p += 3;
    else {
      p = matchInteger(text, p + 2);
      if (p < 0) return -1;
    }
  }
  return text.charCodeAt(p) === 93 ? p + 1 : -1;
}

/** Reads `[a]`, `[a..b]` or `[a..*]`. */
export function parseCardinalityText(s: string): { min: number; max: number | '*' } {
  const inner = s.slice(1, -1);
  const dots = inner.indexOf('..');
  if (dots < 0) {
    const v = Number(inner);
    return { min: v, max: v };
  }
  const hi = inner.slice(dots + 2);
  return { min: Number(inner.slice(0, dots)), max: hi === '*' ? '*' : Number(hi) };
}

export const TOKEN_NAMES: Record<number, string> = {
  [T.EOF]: 'end of file',
  [T.NEWLINE]: 'end of line',
  [T.INDENT]: 'an indented line',
  [T.DEDENT]: 'the end of the indented block',
  [T.CARDINALITY]: 'a cardinality',
  [T.FLOAT]: 'a number',
  [T.INTEGER]: 'a number',
  [T.BOOLEAN]: 'a boolean',
  [T.ID_STRICT]: 'a name',
  [T.ID_NOT_STRICT]: 'a name',
  [T.STRING]: 'a string',
};

export type { Diagnostic };
