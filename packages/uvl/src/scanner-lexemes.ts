// The lexemes within a line for the scanner (scanner.ts): names and keywords, numbers,
// quoted names, strings and operators, and the run of characters no token starts with.
// Each function reads one token at pos, pushes it, and returns where it ends.

import type { DiagnosticCode } from './diagnostics.ts';
import { HYPHENATED, KEYWORDS, T, TokenBuffer, isDigit, isIdPart, isIdStart, type TokenKind } from './tokens.ts';

export type ReportFn = (code: DiagnosticCode, message: string, offset: number, length: number) => void;

/** A name or a keyword at pos (a letter there); returns its end. */
export function scanWord(text: string, pos: number, out: TokenBuffer): number {
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
export function scanOther(text: string, pos: number, c: number, out: TokenBuffer, report: ReportFn): number {
  const n = text.length;
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
    case 33:
    case 60:
    case 61:
    case 62:
      return scanBangEqualsOrAngle(text, pos, c, out, report);
    case 34:
      return scanQuotedName(text, pos, out, report);
    case 39:
      return scanString(text, pos, out, report);
    case 46: // '.'
      if (pos + 1 < n && isDigit(text.charCodeAt(pos + 1))) {
        const start = pos;
        pos += 2;
        while (pos < n && isDigit(text.charCodeAt(pos))) pos++;
        out.push(T.FLOAT, start, pos);
      } else out.push(T.DOT, pos, ++pos);
      return pos;
    default:
      break;
  }
  if (c === 45 || isDigit(c)) return scanNumber(text, pos, c, out);
  return scanInvalidRun(text, pos, out, report);
}

/** An operator that starts with ! = < or > (c, the character at pos), and the <INDENT> <DEDENT> markers; returns its end. */
function scanBangEqualsOrAngle(text: string, pos: number, c: number, out: TokenBuffer, report: ReportFn): number {
  const n = text.length;
  const start = pos;
  const second = pos + 1 < n ? text.charCodeAt(pos + 1) : -1;
  switch (c) {
    case 33: // '!'
      if (second === 61) {
        pos += 2;
        out.push(T.NOT_EQUALS, start, pos);
      } else out.push(T.NOT, pos, ++pos);
      return pos;
    case 61: // '='
      if (second === 62) {
        pos += 2;
        out.push(T.IMPLICATION, start, pos);
      } else if (second === 61) {
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
      } else if (second === 61) {
        pos += 2;
        out.push(T.LOWER_EQUALS, start, pos);
      } else out.push(T.LOWER, pos, ++pos);
      return pos;
    default: // '>'
      if (second === 61) {
        pos += 2;
        out.push(T.GREATER_EQUALS, start, pos);
      } else out.push(T.GREATER, pos, ++pos);
      return pos;
  }
}

/** No token starts at pos: one ERROR token and one report for the run of such characters; returns its end. */
function scanInvalidRun(text: string, pos: number, out: TokenBuffer, report: ReportFn): number {
  const n = text.length;
  const start = pos;
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
export function matchCardinality(text: string, pos: number): number {
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
