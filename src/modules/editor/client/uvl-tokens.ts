// The editor's UVL tokenizer, line by line for CodeMirror's StreamLanguage. It follows the hub's
// scanner (packages/uvl/src/scanner.ts, scanner-lexemes.ts): the same keywords (hyphenated ones win over the name
// before the hyphen), name characters, quoted names, strings, numbers, cardinalities and
// operators. What the scanner would report as an error is styled 'invalid' here. Two differences,
// both for speed while typing: a block comment ends at its first `*/` (the scanner, like the
// reference grammar, runs to the last one in the text), and indentation is left to the parser.
import { KEYWORD_TEXTS } from '../../../../packages/uvl/src/index.ts';

/** The part of CodeMirror's StringStream the tokenizer uses (a test drives it with its own). */
export interface TokenStream {
  pos: number;
  string: string;
  eol(): boolean;
  peek(): string | undefined;
  next(): string | void;
  match(pattern: RegExp, consume?: boolean): unknown;
  skipToEnd(): void;
  eatSpace(): boolean;
}

export interface UvlTokenState {
  /** Inside a block comment that started on an earlier line. */
  comment: boolean;
}

export type UvlTokenStyle =
  | 'keyword' | 'typeName' | 'bool' | 'variableName' | 'string' | 'number' | 'comment'
  | 'operator' | 'bracket' | 'punctuation' | 'invalid';

const TYPE_KEYWORDS = new Set(['String', 'Boolean', 'Integer', 'Real']);
const NAME = /^[a-zA-Z][a-zA-Z0-9_#§%?\\'äüöß;]*/;
const HYPHENATED = /^(group-cardinality|feature-cardinality|aggregate-function|string-constraints)/;
const CARDINALITY = /^\[(0|[1-9][0-9]*)(\.\.(0|[1-9][0-9]*|\*))?\]/;
const NUMBER = /^-?([0-9]*\.[0-9]+|0|[1-9][0-9]*)/;
const OPERATOR = /^(<=>|=>|==|!=|<=|>=|[<>!&|+*\/-])/;

export function startState(): UvlTokenState {
  return { comment: false };
}

function blockComment(stream: TokenStream, state: UvlTokenState): UvlTokenStyle {
  const rest = stream.string.slice(stream.pos);
  const close = rest.indexOf('*/');
  if (close < 0) {
    stream.skipToEnd();
    state.comment = true;
  } else {
    stream.pos += close + 2;
    state.comment = false;
  }
  return 'comment';
}

/** A quoted name or string: closed on its line, not empty, a name without a dot (scanner rules). */
function quoted(stream: TokenStream, quote: string): UvlTokenStyle {
  const start = stream.pos;
  stream.next();
  const rest = stream.string.slice(stream.pos);
  const close = rest.indexOf(quote);
  if (close < 0) {
    stream.skipToEnd();
    return 'invalid';
  }
  stream.pos += close + 1;
  const inner = stream.string.slice(start + 1, stream.pos - 1);
  if (inner.length === 0 || (quote === '"' && inner.includes('.'))) return 'invalid';
  return quote === '"' ? 'variableName' : 'string';
}

function word(stream: TokenStream): UvlTokenStyle {
  if (stream.match(HYPHENATED)) return 'keyword';
  const m = stream.match(NAME) as RegExpMatchArray;
  const text = m[0];
  if (text === 'true' || text === 'false') return 'bool';
  if (TYPE_KEYWORDS.has(text)) return 'typeName';
  return KEYWORD_TEXTS.has(text) ? 'keyword' : 'variableName';
}

export function token(stream: TokenStream, state: UvlTokenState): UvlTokenStyle | null {
  if (state.comment) return blockComment(stream, state);
  if (stream.eatSpace()) return null;
  const ch = stream.peek()!;
  if (ch === '/' && stream.match(/^\/\//)) {
    stream.skipToEnd();
    return 'comment';
  }
  if (ch === '/' && stream.match(/^\/\*/)) return blockComment(stream, state);
  if (ch === '"' || ch === "'") return quoted(stream, ch);
  if (/[a-zA-Z]/.test(ch)) return word(stream);
  if (ch === '[' && stream.match(CARDINALITY)) return 'number';
  if (stream.match(NUMBER)) return 'number';
  if (stream.match(OPERATOR)) return 'operator';
  if (stream.match(/^[()[\]{}]/)) return 'bracket';
  if (stream.match(/^[,.]/)) return 'punctuation';
  // A run of characters no token starts with, as the scanner reports it.
  stream.next();
  stream.match(/^[^\s a-zA-Z0-9/*(){}[\],&|+!=<>"'.-]*/);
  return 'invalid';
}
