// Server-side highlighting of UVL source for the model page: one HTML string per source line, so
// that each line gets its own anchor (#L12) and explanations can link to it. Escaped here: the
// text is an uploaded file. A block comment or string that spans lines is closed at the end of a
// line and reopened on the next, so every line is well-formed HTML on its own.
import { xmlEscape } from './diagram.ts';

const KEYWORDS = new Set([
  'namespace', 'features', 'constraints', 'constraint', 'imports', 'include', 'as',
  'mandatory', 'optional', 'alternative', 'or', 'cardinality', 'true', 'false',
  'Boolean', 'Integer', 'Real', 'String', 'sum', 'avg', 'len', 'floor', 'ceil',
]);
type Kind = 'keyword' | 'name' | 'string' | 'comment' | 'number' | 'operator' | 'plain';

// One global pattern, so the regular expression engine does the scanning (a character loop in
// JavaScript took a second on the largest corpus model): comments, quoted names (double quotes),
// strings (single quotes), numbers, operators, words. Blanks, braces and commas stay plain.
const TOKEN = new RegExp([
  String.raw`(?<comment>\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$))`,
  String.raw`(?<name>"(?:[^"\\\n]|\\.)*"?)`,
  String.raw`(?<string>'(?:[^'\\\n]|\\.)*'?)`,
  String.raw`(?<number>\b\d+(?:\.\d+)?\b)`,
  String.raw`(?<operator><=>|=>|==|!=|<=|>=|\.\.|[&|!<>+\-*/[\]=])`,
  String.raw`(?<word>[A-Za-z_][A-Za-z0-9_]*)`,
].join('|'), 'g');

/** Splits the text into classified runs; the text between matches is plain. */
export function tokenizeUvl(text: string): { kind: Kind; text: string }[] {
  const out: { kind: Kind; text: string }[] = [];
  let last = 0;
  for (const match of text.matchAll(TOKEN)) {
    if (match.index > last) out.push({ kind: 'plain', text: text.slice(last, match.index) });
    const g = match.groups!;
    const kind: Kind = g.comment !== undefined ? 'comment'
      : g.name !== undefined ? 'name'
        : g.string !== undefined ? 'string'
          : g.number !== undefined ? 'number'
            : g.operator !== undefined ? 'operator'
              : KEYWORDS.has(match[0]) ? 'keyword' : 'name';
    out.push({ kind, text: match[0] });
    last = match.index + match[0].length;
  }
  if (last < text.length) out.push({ kind: 'plain', text: text.slice(last) });
  return out;
}

/**
 * A line longer than this is shown as plain text, not highlighted: a constraint of 200 000 terms on
 * one line (1 MB) became 400 000 spans, a page of 14 MB that took the browser half a minute.
 */
export const MAX_HIGHLIGHTED_LINE = 10_000;

/** The highlighted source, one HTML string per line (the line's text without its line break). */
export function highlightLines(text: string): string[] {
  const normal = text.replace(/\r\n?/g, '\n');
  const plain = normal.split('\n').map((line) => line.length > MAX_HIGHLIGHTED_LINE);
  const lines: string[] = [''];
  for (const token of tokenizeUvl(normal)) {
    const parts = token.text.split('\n');
    parts.forEach((part, k) => {
      if (k > 0) lines.push('');
      if (part === '') return;
      const asText = token.kind === 'plain' || plain[lines.length - 1];
      lines[lines.length - 1] += asText ? xmlEscape(part) : `<span class="uvl-${token.kind}">${xmlEscape(part)}</span>`;
    });
  }
  // A final line break ends the last line; it does not start an empty one.
  if (lines.length > 1 && lines[lines.length - 1] === '' && text.endsWith('\n')) lines.pop();
  return lines;
}

/** How many lines highlightLines gives for this text (without highlighting it). */
export function lineCount(text: string): number {
  const normal = text.replace(/\r\n?/g, '\n');
  let breaks = 0;
  for (let at = normal.indexOf('\n'); at >= 0; at = normal.indexOf('\n', at + 1)) breaks++;
  return normal.endsWith('\n') && breaks > 0 ? breaks : breaks + 1;
}

/**
 * The first `count` lines highlighted, as highlightLines(text).slice(0, count) gives them, from
 * that much of the text only: a page shows its first lines without highlighting 20 000 others.
 * Exact because highlighting reads forward only and no token but a block comment crosses a line
 * break; a comment cut at the end of the last line is still a comment on every line shown.
 */
export function highlightFirstLines(text: string, count: number): string[] {
  const normal = text.replace(/\r\n?/g, '\n');
  let end = -1;
  for (let n = 0; n < count; n++) {
    end = normal.indexOf('\n', end + 1);
    if (end < 0) return highlightLines(normal);
  }
  return highlightLines(normal.slice(0, end + 1));
}
