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
import { HYPHENATED, KEYWORDS, T, TokenBuffer, isDigit, isIdPart, isIdStart, type TokenKind, type Tokens } from './tokens.ts';

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

  // Line structure, comments and brackets (which change what a line break means) are read here;
  // names, numbers, strings and operators by the functions below.
  while (pos < n) {
    const c = text.charCodeAt(pos);
    if (isIdStart(c)) {
      pos = scanWord(text, pos, out);
      continue;
    }
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
          pos = lineCommentEnd(text, pos);
          continue;
        }
        if (d === 42) {
          if (lastCommentClose === -2) lastCommentClose = text.lastIndexOf('*/');
          if (lastCommentClose >= pos + 2) {
            pos = skipBlockComment(text, pos, lastCommentClose + 2, lineStarts);
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
      default:
        pos = scanOther(text, pos, c, out, report);
    }
  }

  if (indents.length > 0) {
    out.push(T.NEWLINE, n, n);
    for (let i = 0; i < indents.length; i++) out.push(T.DEDENT, n, n);
  }
  out.push(T.EOF, n, n);
  return { text, lineStarts, count: out.count, kinds: out.kinds, starts: out.starts, ends: out.ends };
}

/** The end of the // comment at pos: the next line break (or form feed). */
function lineCommentEnd(text: string, pos: number): number {
  const n = text.length;
  pos += 2;
  while (pos < n) {
    const e = text.charCodeAt(pos);
    if (e === 10 || e === 13 || e === 12) break;
    pos++;
  }
  return pos;
}

/** Skips a block comment [pos, end), noting where the lines inside it start; returns end. */
function skipBlockComment(text: string, pos: number, end: number, lineStarts: number[]): number {
  for (let i = pos; i < end; i++) {
    const e = text.charCodeAt(i);
    if (e === 10 || (e === 13 && text.charCodeAt(i + 1) !== 10)) lineStarts.push(i + 1);
  }
  return end;
}

/** A name or a keyword at pos (a letter there); returns its end. */
function scanWord(text: string, pos: number, out: TokenBuffer): number {
  const n = text.length;
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
  return p;
}

/** The token at pos that is no name, line break, comment or bracket (c its first character); returns its end. */
function scanOther(text: string, pos: number, c: number, out: TokenBuffer, report: ReportFn): number {
  const n = text.length;
  const start = pos;
  switch (c) {
    case 44:
      out.push(T.COMMA, pos, ++pos);
      return pos;
    case 38:
      out.push(T.AND, pos, ++pos);
      return pos;
    case 124:
      out.push(T.OR, pos, ++pos);
      return pos;
    case 43:
      out.push(T.ADD, pos, ++pos);
      return pos;
    case 33: // '!'
      if (pos + 1 < n && text.charCodeAt(pos + 1) === 61) {
        pos += 2;
        out.push(T.NOT_EQUALS, start, pos);
      } else out.push(T.NOT, pos, ++pos);
      return pos;
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
      return pos;
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
      return pos;
    case 62: // '>'
      if (pos + 1 < n && text.charCodeAt(pos + 1) === 61) {
        pos += 2;
        out.push(T.GREATER_EQUALS, start, pos);
      } else out.push(T.GREATER, pos, ++pos);
      return pos;
    case 34:
      return scanQuotedName(text, pos, out, report);
    case 39:
      return scanString(text, pos, out, report);
    case 46: // '.'
      if (pos + 1 < n && isDigit(text.charCodeAt(pos + 1))) {
        pos += 2;
        while (pos < n && isDigit(text.charCodeAt(pos))) pos++;
        out.push(T.FLOAT, start, pos);
      } else out.push(T.DOT, pos, ++pos);
      return pos;
    default:
      break;
  }
  if (c === 45 || isDigit(c)) return scanNumber(text, pos, c, out);
  // No token starts here: one error for a run of such characters.
  let p = pos + 1;
  while (p < n && isInvalidStart(text, p)) p++;
  out.push(T.ERROR, start, p);
  const shown = JSON.stringify(text.slice(start, Math.min(p, start + 20)));
  report('invalid-character', `unexpected character${p - start > 1 ? 's' : ''} ${shown}${p - start > 20 ? '…' : ''}`, start, p - start);
  return p;
}

/** "quoted name": no line break, quote or dot inside, at least one character. */
function scanQuotedName(text: string, pos: number, out: TokenBuffer, report: ReportFn): number {
  const n = text.length;
  const start = pos;
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
  return pos;
}

/** 'string': no line break or quote inside, at least one character. */
function scanString(text: string, pos: number, out: TokenBuffer, report: ReportFn): number {
  const n = text.length;
  const start = pos;
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
  return pos;
}

/** FLOAT: -?[0-9]*\.[0-9]+   INTEGER: 0 | -?[1-9][0-9]*   else SUB (c, the character at pos, is '-' or a digit). */
function scanNumber(text: string, pos: number, c: number, out: TokenBuffer): number {
  const n = text.length;
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
    out.push(T.FLOAT, pos, floatEnd);
    return floatEnd;
  }
  if (intEnd > 0) {
    out.push(T.INTEGER, pos, intEnd);
    return intEnd;
  }
  out.push(T.SUB, pos, pos + 1);
  return pos + 1;
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

export type { Diagnostic };
