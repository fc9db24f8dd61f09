// Diagnostics are data: the scanner and the parser collect them, nothing throws.

export type Severity = 'error' | 'warning';

/** Stable codes; the hub and the command line may match on them. */
export type DiagnosticCode =
  | 'invalid-character' // no token starts here (the reference lexer's "token recognition error")
  | 'unterminated-name' // a "quoted name" that never closes on its line, or holds a dot
  | 'unterminated-string' // a 'string' that never closes on its line
  | 'unterminated-comment' // a /* block comment without */
  | 'unexpected-token' // the grammar does not allow this token here
  | 'section-order' // namespace, include, imports, features, constraints out of order
  | 'type-mismatch' // a boolean expression where a number is needed, or the other way round
  | 'too-deep' // nesting beyond the parser's limit (an error, never a stack overflow)
  | 'tab-hint' // an indentation problem on a line indented with tabs (a warning)
  | 'import-not-found' // an imported model the loader could not provide (a warning)
  | 'import-error' // an imported model that has syntax errors, or an import cycle (a warning)
  | 'empty-file' // not used for errors: an empty file is a valid, empty model
  | 'empty-model' // a warning: the model declares no features
  | 'unknown-feature' // a warning: a constraint names something that is not a feature
  | 'duplicate-feature' // a warning: a feature name declared twice
  | 'impossible-cardinality' // a warning: a group cardinality no selection meets, or below zero
  | 'not-text'; // the bytes are not UTF-8 text (one error for the whole file)

export interface Diagnostic {
  code: DiagnosticCode;
  severity: Severity;
  message: string;
  /** UTF-16 offset of the offending text in the source. */
  offset: number;
  length: number;
  /** From 1. */
  line: number;
  /** From 0, in UTF-16 code units (the reference parser counts characters the same way for BMP text). */
  column: number;
}

/** `Line <line>:<column> - <message>`, the form the reference ANTLR parser uses and the hub returns. */
export function formatDiagnostic(d: Pick<Diagnostic, 'line' | 'column' | 'message'>): string {
  return `Line ${d.line}:${d.column} - ${d.message}`;
}

/** 0-based index of the line holding `offset`, by binary search of the lines' start offsets. */
export function lineIndexIn(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Line starts of a text, for turning offsets into line and column in O(log n). */
export class LineMap {
  readonly starts: number[];
  constructor(text: string) {
    const starts = [0];
    const n = text.length;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) starts.push(i + 1);
      else if (c === 13) {
        if (i + 1 < n && text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      }
    }
    this.starts = starts;
  }
  /** 0-based line index of an offset. */
  lineIndex(offset: number): number {
    return lineIndexIn(this.starts, offset);
  }
  position(offset: number): { line: number; column: number } {
    const i = this.lineIndex(offset);
    return { line: i + 1, column: offset - this.starts[i]! };
  }
}
