// The tokens of UVL as the scanner (scanner.ts) makes them: their kinds, the keywords, the
// characters of names, and what the parser's messages call each kind. The printers use the same
// tables to decide when a name needs quotes.

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

export const KEYWORDS = new Map<string, TokenKind>([
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
export const HYPHENATED: ReadonlyArray<readonly [string, string, TokenKind]> = [
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
export function isIdStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
export function isIdPart(c: number): boolean {
  return c < 256 && ID_PART[c] === 1;
}
export function isDigit(c: number): boolean {
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

/** The token arrays as the scanner fills them, doubled when full. */
export class TokenBuffer {
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
