// The parser's state over one text: the scanner's token arrays and the current token, positions
// (offset to line and column), the diagnostics with their one-error-per-line rule, and the
// recovery moves every grammar rule shares. The rules themselves are functions of this context
// (parser-expressions.ts, parser-attributes.ts, parser-features.ts, parser-sections.ts).

import type { Reference, Span } from './ast.ts';
import { lineIndexIn, type Diagnostic, type DiagnosticCode } from './diagnostics.ts';
import { scan } from './scanner.ts';
import { T, TOKEN_NAMES } from './tokens.ts';

/** Nesting limit of the feature tree and of expressions: deeper input is an error, not a stack overflow. */
export const MAX_DEPTH = 256;

// reference: (id '.')* id
// id: ID_STRICT | ID_NOT_STRICT
export const isId = (k: number): boolean => k === T.ID_STRICT || k === T.ID_NOT_STRICT;

export class ParseContext {
  readonly text: string;
  /** 1 when a byte-order mark was dropped: reported offsets are the caller's. */
  private readonly bomShift: number;
  readonly diagnostics: Diagnostic[] = [];
  // Filled by the scanner as it meets line breaks; complete before the parser looks up a position.
  private lineStarts: number[] = [0];
  private cursor = 0; // line index of the last position lookup: lookups are mostly monotonic
  private lastErrorLine = -1;
  readonly kinds: Uint8Array;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  private readonly last: number;
  /** The current token. */
  p = 0;

  // Expression state (parser-expressions.ts): one error per expression, and the sort and depth of
  // the expression just read.
  exprFailed = false;
  resultSort = 3; // Sort.Both
  resultDepth = 0;
  /** Nesting of attribute values (parser-attributes.ts). */
  valueDepth = 0;

  constructor(input: string) {
    // A byte-order mark is an encoding artefact, not content.
    const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
    this.text = text;
    this.bomShift = text === input ? 0 : 1;
    // The scanner's own errors are kept aside until its line table is complete.
    const scanErrors: Array<[DiagnosticCode, string, number, number]> = [];
    const tokens = scan(text, (code, message, offset, length) => scanErrors.push([code, message, offset, length]));
    this.lineStarts = tokens.lineStarts;
    for (const [code, message, offset, length] of scanErrors) this.addDiagnostic(code, 'error', message, offset, length);
    this.kinds = tokens.kinds;
    this.starts = tokens.starts;
    this.ends = tokens.ends;
    this.last = tokens.count - 1;
  }

  lineOf(offset: number): number {
    const lineStarts = this.lineStarts;
    let i = this.cursor;
    if (offset < lineStarts[i]!) i = lineIndexIn(lineStarts, offset);
    else {
      const last = lineStarts.length - 1;
      let steps = 0;
      while (i < last && lineStarts[i + 1]! <= offset) {
        i++;
        if (++steps > 64) {
          i = lineIndexIn(lineStarts, offset);
          break;
        }
      }
    }
    this.cursor = i;
    return i;
  }

  span(start: number, end: number): Span {
    const i = this.lineOf(start);
    return { offset: start + this.bomShift, length: end - start, line: i + 1, column: start - this.lineStarts[i]! };
  }

  /** From token startTok to the token before the current one. */
  exprSpan(startTok: number): Span {
    return this.span(this.starts[startTok]!, this.ends[Math.max(startTok, this.p - 1)]!);
  }

  addDiagnostic(code: DiagnosticCode, severity: 'error' | 'warning', message: string, offset: number, length: number): void {
    const i = this.lineOf(offset);
    if (severity === 'error') this.lastErrorLine = i;
    this.diagnostics.push({ code, severity, message, offset: offset + this.bomShift, length, line: i + 1, column: offset - this.lineStarts[i]! });
  }

  kind(): number {
    return this.kinds[this.p]!;
  }
  advance(): void {
    if (this.p < this.last) this.p++;
  }
  tokenText(i: number): string {
    return this.text.slice(this.starts[i]!, this.ends[i]!);
  }
  describe(i: number): string {
    const k = this.kinds[i]!;
    if (k === T.EOF || k === T.NEWLINE) return TOKEN_NAMES[k]!;
    if (k === T.INDENT || k === T.DEDENT) return this.ends[i]! - this.starts[i]! === 8 && this.text.charCodeAt(this.starts[i]!) === 60 ? `'${this.tokenText(i)}'` : TOKEN_NAMES[k]!;
    const t = this.tokenText(i);
    return `'${t.length > 40 ? `${t.slice(0, 40)}…` : t}'`;
  }
  /** Where a diagnostic about token i points: INDENT/DEDENT at the first character of their line. */
  private tokenOffset(i: number): number {
    return this.kinds[i] === T.INDENT || this.kinds[i] === T.DEDENT ? this.ends[i]! : this.starts[i]!;
  }

  /**
   * Reports a syntax error at token i. An indentation token whose line is indented with tabs
   * gives a warning instead (the reference parser's tab hint). Errors at a token the scanner
   * already rejected, and further errors on a line that has one, are left out.
   */
  errorAt(i: number, message: string, code: DiagnosticCode = 'unexpected-token', tabHint = true): void {
    const k = this.kinds[i]!;
    if (k === T.ERROR) return;
    const offset = this.tokenOffset(i);
    if (tabHint && (k === T.INDENT || k === T.DEDENT) && this.indentationHasTab(i)) {
      this.addDiagnostic(
        'tab-hint',
        'warning',
        `${message} (tab hint: this line is indented with tabs, and a tab counts as up to 8 spaces; indent it like the lines around it)`,
        offset,
        0,
      );
      return;
    }
    if (this.lineOf(offset) === this.lastErrorLine) return;
    this.addDiagnostic(code, 'error', message, offset, Math.max(0, this.ends[i]! - offset));
  }
  private indentationHasTab(i: number): boolean {
    for (let j = this.starts[i]!; j < this.ends[i]!; j++) if (this.text.charCodeAt(j) === 9) return true;
    return false;
  }
  /**
   * The reference parser shows a NEWLINE token by the last character it consumed: a tab when
   * the next line's indentation ends with one (at the end of the text, its last character).
   */
  private newlineShowsTab(i: number): boolean {
    const text = this.text;
    if (this.starts[i] === this.ends[i]) return text.length > 0 && text.charCodeAt(text.length - 1) === 9;
    let j = this.ends[i]!;
    while (j < text.length && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9)) j++;
    return j > this.ends[i]! && text.charCodeAt(j - 1) === 9;
  }
  /** A line break where a line should start (an empty statement, e.g. a last line of only tabs). */
  strayNewline(what: string): void {
    const p = this.p;
    const atEnd = this.starts[p] === this.ends[p] && this.starts[p] === this.text.length;
    const why = atEnd
      ? 'the file ends with a line of only spaces or tabs after its last line break; remove them or end the file with a line break'
      : 'a line break ends an empty statement here';
    if (this.newlineShowsTab(p)) {
      this.addDiagnostic('tab-hint', 'warning', `expected ${what}, but ${why} (tab hint: the reference parser only warns when that line holds tabs)`, this.starts[p]!, 0);
    } else this.errorAt(p, `expected ${what}, but ${why}`);
    this.advance();
  }
  expected(what: string): void {
    const k = this.kinds[this.p]!;
    // A keyword where a name belongs is a common slip: say how to use it as a name.
    const keyword = (k >= T.INCLUDE && k <= T.MANDATORY) || k === T.BOOLEAN;
    const hint = keyword && /name/.test(what) ? ` (it is a keyword; write "${this.tokenText(this.p)}" in double quotes to use it as a name)` : '';
    this.errorAt(this.p, `expected ${what}, found ${this.describe(this.p)}${hint}`);
  }

  /** Consumes the current token when it is of kind k. */
  parseOptional(k: number): boolean {
    if (this.kind() !== k) return false;
    this.advance();
    return true;
  }
  /** Consumes a token of kind k, or reports what was expected instead. */
  parseExpected(k: number, what: string): boolean {
    if (this.parseOptional(k)) return true;
    this.expected(what);
    return false;
  }

  /** Skips to the end of the current line and over the indented block below it, if any. */
  skipLine(): void {
    this.skipRestOfLine();
    if (this.kind() === T.INDENT) this.skipBlock();
  }
  /** Skips to the end of the current line, and over its NEWLINE. */
  skipRestOfLine(): void {
    while (this.kind() !== T.NEWLINE && this.kind() !== T.EOF && this.kind() !== T.DEDENT) this.advance();
    if (this.kind() === T.NEWLINE) this.advance();
  }
  /** At an INDENT: skips to after its matching DEDENT. */
  skipBlock(): void {
    let depth = 0;
    while (this.kind() !== T.EOF) {
      const k = this.kind();
      this.advance();
      if (k === T.INDENT) depth++;
      else if (k === T.DEDENT && --depth <= 0) return;
    }
  }
  /** Inside a block: skips to after the DEDENT that closes it. */
  skipToBlockEnd(): void {
    let depth = 0;
    while (this.kind() !== T.EOF) {
      const k = this.kind();
      this.advance();
      if (k === T.INDENT) depth++;
      else if (k === T.DEDENT) {
        if (depth === 0) return;
        depth--;
      }
    }
  }
  /** Recovery inside { } or [ ]: skips to after the bracket that closes the current one, or to the end of the line. */
  skipBracketed(open: number, close: number): void {
    let depth = 0;
    while (this.kind() !== T.EOF && this.kind() !== T.NEWLINE) {
      const k = this.kind();
      this.advance();
      if (k === open) depth++;
      else if (k === close && --depth < 0) return;
    }
  }
  /** Expects the NEWLINE that ends a line; on anything else reports and skips to it. */
  expectNewline(after: string | (() => string)): void {
    if (this.kind() === T.NEWLINE) {
      this.advance();
      return;
    }
    this.expected(`end of line after ${typeof after === 'string' ? after : after()}`);
    this.skipRestOfLine();
  }
  /** Expects the DEDENT that closes a block; on anything else reports and skips to it. */
  expectBlockEnd(what: string): void {
    if (this.kind() === T.DEDENT) {
      this.advance();
      return;
    }
    if (this.kind() === T.EOF) return;
    this.expected(what);
    this.skipToBlockEnd();
  }

  idText(i: number): string {
    return this.kinds[i] === T.ID_NOT_STRICT ? this.text.slice(this.starts[i]! + 1, this.ends[i]! - 1) : this.tokenText(i);
  }
  parseReference(): Reference | undefined {
    if (!isId(this.kind())) return undefined;
    const start = this.starts[this.p]!;
    const parts = [this.idText(this.p)];
    let end = this.ends[this.p]!;
    this.advance();
    while (this.kind() === T.DOT && isId(this.kinds[this.p + 1]!)) {
      this.advance();
      parts.push(this.idText(this.p));
      end = this.ends[this.p]!;
      this.advance();
    }
    if (this.kind() === T.DOT) {
      this.advance();
      this.expected('a name after "."');
      return undefined;
    }
    return { name: parts.length === 1 ? parts[0]! : parts.join('.'), parts, span: this.span(start, end) };
  }
}
