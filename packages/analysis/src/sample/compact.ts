// A sample kept compactly (extensions section 10, "Large results as streams"): one bit per
// (configuration, feature) instead of JSON of names. 10 000 configurations of automotive2_4
// (18 616 features) are 23 MB of bits; as JSON of names they were 423 MB, past what one string
// may hold. The JSON answer is rebuilt byte for byte from the parts around `configurations`
// (kept as text) and one row at a time, so a reader never holds more than a row of it.
//
// Layout: MAGIC, the header's length (uint32, little-endian), the header as UTF-8 JSON
// ({prefix, suffix, features, rows}), then `rows` rows of ceil(features / 8) bytes; bit p of a
// row (byte p >> 3, bit p & 7) is set when features[p] is selected.

export const SAMPLE_MAGIC = 'UVLSAMPLE1\n';

export interface SampleHeader {
  /** The answer's JSON up to and including `"configurations":[`. */
  prefix: string;
  /** The answer's JSON from the `]` that closes `configurations`. */
  suffix: string;
  /** Every feature, in the order each configuration lists its selected names (the CSV header). */
  features: string[];
  rows: number;
}

/** Rows of bits, appended one configuration at a time. */
export class BitRows {
  readonly rowBytes: number;
  private bytes: Uint8Array;
  count = 0;

  constructor(readonly width: number, capacity: number) {
    this.rowBytes = Math.ceil(width / 8);
    this.bytes = new Uint8Array(this.rowBytes * Math.max(1, capacity));
  }

  /** One configuration: `selected(p)` tells whether features[p] is in it. */
  add(selected: (p: number) => boolean): void {
    const row = this.next();
    for (let p = 0; p < this.width; p++) if (selected(p)) this.bytes[row + (p >> 3)]! |= 1 << (p & 7);
  }

  /** One configuration given by its features' positions. */
  addPositions(positions: Iterable<number>): void {
    const row = this.next();
    for (const p of positions) this.bytes[row + (p >> 3)]! |= 1 << (p & 7);
  }

  get data(): Uint8Array {
    return this.bytes.subarray(0, this.count * this.rowBytes);
  }

  private next(): number {
    if ((this.count + 1) * this.rowBytes > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, (this.count + 1) * this.rowBytes));
      grown.set(this.bytes);
      this.bytes = grown;
    }
    return this.count++ * this.rowBytes;
  }
}

/** Stands for the configurations while the rest of the answer is written as JSON. */
const MARK = '\u0000configurations\u0000';
const MARKED = `"configurations":${JSON.stringify(MARK)}`;

/**
 * The stored form of an answer whose `configurations` are the rows (the answer's other fields
 * as given, `configurations` at its place among them). In a JSON text every quote inside a
 * string is escaped, so the marked member cannot be matched inside a feature's name.
 */
export function packSample(answer: Record<string, unknown>, features: string[], rows: BitRows): Uint8Array {
  if (rows.width !== features.length) throw new Error('the rows are not as wide as the feature list');
  const text = JSON.stringify({ ...answer, configurations: MARK });
  const at = text.indexOf(MARKED);
  const header: SampleHeader = { prefix: `${text.slice(0, at)}"configurations":[`, suffix: `]${text.slice(at + MARKED.length)}`, features, rows: rows.count };
  const head = new TextEncoder().encode(JSON.stringify(header));
  const magic = new TextEncoder().encode(SAMPLE_MAGIC);
  const data = rows.data;
  const out = new Uint8Array(magic.length + 4 + head.length + data.length);
  out.set(magic, 0);
  new DataView(out.buffer).setUint32(magic.length, head.length, true);
  out.set(head, magic.length + 4);
  out.set(data, magic.length + 4 + head.length);
  return out;
}

/**
 * The rows of configurations given by their selected names (a t-wise sample), or undefined when
 * one lists its names in another order than `features` (the rows could not give it back as it is).
 */
export function rowsOfNames(features: string[], configurations: string[][]): BitRows | undefined {
  const position = new Map(features.map((name, p) => [name, p]));
  const rows = new BitRows(features.length, configurations.length);
  for (const names of configurations) {
    const positions: number[] = [];
    for (const name of names) {
      const p = position.get(name);
      if (p === undefined || (positions.length > 0 && p <= positions[positions.length - 1]!)) return undefined;
      positions.push(p);
    }
    rows.addPositions(positions);
  }
  return rows;
}

/** The header of a stored sample, and where its rows start; undefined while `bytes` holds less than the header. */
export function readSampleHeader(bytes: Uint8Array): { header: SampleHeader; rowsAt: number } | undefined {
  const magic = SAMPLE_MAGIC.length;
  if (bytes.length < magic + 4) return undefined;
  if (new TextDecoder().decode(bytes.subarray(0, magic)) !== SAMPLE_MAGIC) throw new Error('not a stored sample');
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(magic, true);
  if (bytes.length < magic + 4 + length) return undefined;
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(magic + 4, magic + 4 + length))) as SampleHeader;
  return { header, rowsAt: magic + 4 + length };
}

/** A feature name as a CSV field (as sampleCsv writes it). */
export const csvField = (name: string): string => (/[",\n\r]/.test(name) ? `"${name.replace(/"/g, '""')}"` : name);

/** The CSV header line (sampleCsv's first line, with its newline). */
export function csvHeader(features: string[]): string {
  return `${features.map(csvField).join(',')}\n`;
}

const ZERO = 48;
const ONE = 49;
const COMMA = 44;
const NEWLINE = 10;
const ascii = new TextDecoder('latin1');

/** One row as a CSV line of 0/1 with its newline, written as bytes (joining 18 616 cells of text took 3 times as long). */
export function csvRow(width: number, bytes: Uint8Array, at: number): string {
  if (width === 0) return '\n';
  const line = new Uint8Array(2 * width);
  for (let p = 0; p < width; p++) {
    line[2 * p] = (bytes[at + (p >> 3)]! >> (p & 7)) & 1 ? ONE : ZERO;
    line[2 * p + 1] = COMMA;
  }
  line[2 * width - 1] = NEWLINE;
  return ascii.decode(line);
}

/** One row as the JSON array of its selected names; `quoted` holds each name as a JSON string. */
export function jsonRow(quoted: string[], bytes: Uint8Array, at: number): string {
  const names: string[] = [];
  for (let p = 0; p < quoted.length; p++) if ((bytes[at + (p >> 3)]! >> (p & 7)) & 1) names.push(quoted[p]!);
  return `[${names.join(',')}]`;
}

/** The whole answer as JSON text, for a small sample (tests, the command line): what a stream of it sends. */
export function unpackSampleJson(bytes: Uint8Array): string {
  const { header, rowsAt } = readSampleHeader(bytes)!;
  const quoted = header.features.map((name) => JSON.stringify(name));
  const rowBytes = Math.ceil(header.features.length / 8);
  const rows: string[] = [];
  for (let r = 0; r < header.rows; r++) rows.push(jsonRow(quoted, bytes, rowsAt + r * rowBytes));
  return `${header.prefix}${rows.join(',')}${header.suffix}`;
}
