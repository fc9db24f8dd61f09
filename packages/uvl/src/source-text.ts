// A constraint's text exactly as the file writes it. The parser gives parentheses no node, so an
// expression's span starts inside a constraint's outer parentheses: `(!A)` has the span of `!A`.
// The source text is the span widened over every pair of parentheses that encloses exactly it,
// with nothing changed inside (runs of spaces, also inside quoted names, are the name).

import type { Span } from './ast.ts';

const isBlank = (ch: string | undefined): boolean => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';

/**
 * The source of the constraint whose root expression has `span`, with its own parentheses, and
 * the line (from 1) on which that source begins.
 */
export function constraintSource(text: string, span: Span): { text: string; line: number } {
  let start = span.offset;
  let end = span.offset + span.length;
  for (;;) {
    let before = start - 1;
    while (before >= 0 && isBlank(text[before])) before--;
    let after = end;
    while (after < text.length && isBlank(text[after])) after++;
    // The root's span is the whole constraint but for parentheses that add no node, so a '('
    // just before it and a ')' just after it are a matching pair.
    if (text[before] !== '(' || text[after] !== ')') break;
    start = before;
    end = after + 1;
  }
  let line = span.line;
  for (let i = start; i < span.offset; i++) if (text[i] === '\n') line--;
  return { text: text.slice(start, end), line };
}
