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
const OPERATORS = ['<=>', '=>', '==', '!=', '<=', '>=', '..', '&', '|', '!', '<', '>', '+', '-', '*', '/', '[', ']', '='];

type Kind = 'keyword' | 'name' | 'string' | 'comment' | 'number' | 'operator' | 'plain';

/** Splits the text into classified runs (a scanner loop: every step consumes at least one character). */
export function tokenizeUvl(text: string): { kind: Kind; text: string }[] {
  const out: { kind: Kind; text: string }[] = [];
  const push = (kind: Kind, from: number, to: number) => {
    const last = out[out.length - 1];
    if (kind === 'plain' && last?.kind === 'plain') last.text += text.slice(from, to);
    else out.push({ kind, text: text.slice(from, to) });
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const start = i;
    if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end;
      push('comment', start, i);
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 2;
      push('comment', start, i);
    } else if (c === '"' || c === "'") {
      // Double quotes quote a feature name, single quotes a string value.
      i++;
      while (i < text.length && text[i] !== c && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
      if (text[i] === c) i++;
      push(c === '"' ? 'name' : 'string', start, Math.min(i, text.length));
    } else if (/[0-9]/.test(c)) {
      while (i < text.length && /[0-9.]/.test(text[i]!) && !(text[i] === '.' && text[i + 1] === '.')) i++;
      push('number', start, i);
    } else if (/[A-Za-z_]/.test(c)) {
      while (i < text.length && /[A-Za-z0-9_]/.test(text[i]!)) i++;
      push(KEYWORDS.has(text.slice(start, i)) ? 'keyword' : 'name', start, i);
    } else {
      const op = OPERATORS.find((o) => text.startsWith(o, i));
      if (op) {
        i += op.length;
        push('operator', start, i);
      } else {
        i++;
        push('plain', start, i);
      }
    }
  }
  return out;
}

/** The highlighted source, one HTML string per line (the line's text without its line break). */
export function highlightLines(text: string): string[] {
  const lines: string[] = [''];
  for (const token of tokenizeUvl(text.replace(/\r\n?/g, '\n'))) {
    const parts = token.text.split('\n');
    parts.forEach((part, k) => {
      if (k > 0) lines.push('');
      if (part === '') return;
      lines[lines.length - 1] += token.kind === 'plain' ? xmlEscape(part) : `<span class="uvl-${token.kind}">${xmlEscape(part)}</span>`;
    });
  }
  // A final line break ends the last line; it does not start an empty one.
  if (lines.length > 1 && lines[lines.length - 1] === '' && text.endsWith('\n')) lines.pop();
  return lines;
}
