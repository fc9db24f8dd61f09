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
//
// This file reads the line structure, comments and brackets (which change what a line break
// means); names, numbers, strings and operators are read by scanner-lexemes.ts.

import type { Diagnostic } from './diagnostics.ts';
import { type ReportFn, matchCardinality, scanOther, scanWord } from './scanner-lexemes.ts';
import { T, TokenBuffer, isIdStart, type Tokens } from './tokens.ts';

export type { ReportFn };

/** Width of an indentation: a tab advances to the next multiple of 8, like the reference lexer. */
export function indentationWidth(text: string, start: number, end: number): number {
  let count = 0;
  for (let i = start; i < end; i++) count = text.charCodeAt(i) === 9 ? count + 8 - (count % 8) : count + 1;
  return count;
}

/** What the scan carries from token to token besides its position. */
interface ScanState {
  readonly text: string;
  readonly out: TokenBuffer;
  readonly report: ReportFn;
  /** Indentation widths of the open blocks, innermost last. */
  readonly indents: number[];
  readonly lineStarts: number[];
  /** Brackets and unclosed block comments opened minus those closed: line breaks are dropped while positive. */
  opened: number;
  /** Where the last block-comment end of the text is (-1: none); -2 until the first block comment needs it. */
  lastCommentClose: number;
}

export function scan(text: string, report: ReportFn): Tokens {
  const n = text.length;
  const s: ScanState = { text, out: new TokenBuffer(), report, indents: [], lineStarts: [0], opened: 0, lastCommentClose: -2 };
  const out = s.out;
  let pos = scanLeadingBlanks(s);
  while (pos < n) {
    const c = text.charCodeAt(pos);
    if (isIdStart(c)) {
      pos = scanWord(text, pos, out);
      continue;
    }
    switch (c) {
      case 32:
      case 9:
        pos = skipBlanks(text, pos + 1);
        continue;
      case 10:
      case 13:
        pos = scanLineBreak(s, pos);
        continue;
      case 47: // '/'
        pos = scanSlash(s, pos);
        continue;
      case 42: // '*'
        pos = scanStar(s, pos);
        continue;
      case 40:
      case 41:
      case 91:
      case 93:
      case 123:
      case 125:
        pos = scanBracket(s, pos, c);
        continue;
      default:
        pos = scanOther(text, pos, c, out, report);
    }
  }
  closeOpenLines(s);
  out.push(T.EOF, n, n);
  return { text, lineStarts: s.lineStarts, count: out.count, kinds: out.kinds, starts: out.starts, ends: out.ends };
}

/** The end of the run of spaces and tabs from pos. */
function skipBlanks(text: string, pos: number): number {
  const n = text.length;
  while (pos < n && (text.charCodeAt(pos) === 32 || text.charCodeAt(pos) === 9)) pos++;
  return pos;
}

/** Leading blanks of the first line count as a line break (the reference's atStartOfInput rule); returns where the scan goes on. */
function scanLeadingBlanks(s: ScanState): number {
  const c = s.text.length > 0 ? s.text.charCodeAt(0) : -1;
  if (c !== 32 && c !== 9) return 0;
  const end = skipBlanks(s.text, 0);
  lineBreak(s, 0, 0, end);
  return end;
}

/** A line break at pos (\n, \r or \r\n) and the indentation after it; returns the end of the indentation. */
function scanLineBreak(s: ScanState, pos: number): number {
  const text = s.text;
  const start = pos;
  pos++;
  if (text.charCodeAt(start) === 13 && pos < text.length && text.charCodeAt(pos) === 10) pos++;
  s.lineStarts.push(pos);
  const end = skipBlanks(text, pos);
  lineBreak(s, start, pos, end);
  return end;
}

/** After a line break and its indentation [nlStart, wsStart) [wsStart, wsEnd): NEWLINE, INDENT and DEDENT tokens. */
function lineBreak(s: ScanState, nlStart: number, wsStart: number, wsEnd: number): void {
  const text = s.text;
  const next = wsEnd < text.length ? text.charCodeAt(wsEnd) : -1;
  // Dropped inside brackets, before blank lines and before comment lines (13 \r, 10 \n, 12 \f, 35 #, 47 /).
  if (s.opened > 0 || next === 13 || next === 10 || next === 12 || next === 35 || next === 47) return;
  const { out, indents } = s;
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
}

/** At the end of the text: one more NEWLINE and a DEDENT per open level, if any level is open. */
function closeOpenLines(s: ScanState): void {
  const n = s.text.length;
  if (s.indents.length === 0) return;
  s.out.push(T.NEWLINE, n, n);
  for (let i = 0; i < s.indents.length; i++) s.out.push(T.DEDENT, n, n);
}

/** At a '/': a line comment, a block comment, an unclosed "/*", or DIV; returns the end. */
function scanSlash(s: ScanState, pos: number): number {
  const text = s.text;
  const d = pos + 1 < text.length ? text.charCodeAt(pos + 1) : -1;
  if (d === 47) return lineCommentEnd(text, pos);
  if (d === 42) {
    if (s.lastCommentClose === -2) s.lastCommentClose = text.lastIndexOf('*/');
    if (s.lastCommentClose >= pos + 2) return skipBlockComment(text, pos, s.lastCommentClose + 2, s.lineStarts);
    s.opened++;
    s.out.push(T.OPEN_COMMENT, pos, pos + 2);
    s.report('unterminated-comment', 'block comment "/*" is never closed with "*/"', pos, 2);
    return pos + 2;
  }
  s.out.push(T.DIV, pos, pos + 1);
  return pos + 1;
}

/** At a '*': the end of an unclosed block comment (CLOSE_COMMENT), or MUL; returns the end. */
function scanStar(s: ScanState, pos: number): number {
  if (pos + 1 < s.text.length && s.text.charCodeAt(pos + 1) === 47) {
    s.opened--;
    s.out.push(T.CLOSE_COMMENT, pos, pos + 2);
    return pos + 2;
  }
  s.out.push(T.MUL, pos, pos + 1);
  return pos + 1;
}

/** At a bracket (c): ( ) { } ] [ counted as opened or closed, or a whole CARDINALITY token [n..m]; returns the end. */
function scanBracket(s: ScanState, pos: number, c: number): number {
  const out = s.out;
  switch (c) {
    case 40:
      s.opened++;
      out.push(T.OPEN_PAREN, pos, pos + 1);
      break;
    case 41:
      s.opened--;
      out.push(T.CLOSE_PAREN, pos, pos + 1);
      break;
    case 123:
      s.opened++;
      out.push(T.OPEN_BRACE, pos, pos + 1);
      break;
    case 125:
      s.opened--;
      out.push(T.CLOSE_BRACE, pos, pos + 1);
      break;
    case 93:
      s.opened--;
      out.push(T.CLOSE_BRACK, pos, pos + 1);
      break;
    default: {
      const end = matchCardinality(s.text, pos);
      if (end > 0) {
        out.push(T.CARDINALITY, pos, end);
        return end;
      }
      s.opened++;
      out.push(T.OPEN_BRACK, pos, pos + 1);
    }
  }
  return pos + 1;
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

export type { Diagnostic };
