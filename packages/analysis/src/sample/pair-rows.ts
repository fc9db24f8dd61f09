// A square table of bits, one row of W 32-bit words per literal, for pairwise coverage of models
// whose table does not fit one typed array (automotive2_4: 33 658 literals after core, dead and
// equivalent features are taken out, 1.1 billion bits per table). The rows are split into chunks
// of at most CHUNK_WORDS words, each a typed array of its own, allocated when a row of it is first
// written: a row never written reads as zeros and costs nothing.

/** Words per chunk: 2^26 words, 256 MB, 2^31 bits. */
export const CHUNK_WORDS = 2 ** 26;

export class PairRows {
  /** Rows (and bits per row): literals. */
  readonly L: number;
  /** Words per row. */
  readonly W: number;
  /** Rows per chunk. */
  readonly rowsPerChunk: number;
  private readonly chunks: (Uint32Array | undefined)[];
  private static readonly zeros = new Map<number, Uint32Array>();

  constructor(L: number, chunkWords = CHUNK_WORDS) {
    this.L = L;
    this.W = Math.max(1, Math.ceil(L / 32));
    this.rowsPerChunk = Math.max(1, Math.floor(chunkWords / this.W));
    this.chunks = new Array(Math.ceil(L / this.rowsPerChunk)).fill(undefined);
  }

  /** Bits the whole table holds when every chunk is allocated (a number, may exceed 2^32). */
  get bits(): number {
    return this.L * this.W * 32;
  }

  /** Chunks allocated so far. */
  get allocatedChunks(): number {
    return this.chunks.filter((c) => c !== undefined).length;
  }

  /** Which chunk holds a row, and where the row starts in it (in words). */
  locate(row: number): { chunk: number; offset: number } {
    const chunk = Math.floor(row / this.rowsPerChunk);
    return { chunk, offset: (row - chunk * this.rowsPerChunk) * this.W };
  }

  /** The row's words, writable (its chunk is allocated). */
  rowWords(row: number): Uint32Array {
    const { chunk, offset } = this.locate(row);
    let words = this.chunks[chunk];
    if (words === undefined) {
      const rows = Math.min(this.rowsPerChunk, this.L - chunk * this.rowsPerChunk);
      words = this.chunks[chunk] = new Uint32Array(rows * this.W);
    }
    return words.subarray(offset, offset + this.W);
  }

  /** The row's words for reading: a shared row of zeros when its chunk was never written. */
  readRow(row: number): Uint32Array {
    const { chunk, offset } = this.locate(row);
    const words = this.chunks[chunk];
    if (words === undefined) {
      let zero = PairRows.zeros.get(this.W);
      if (!zero) PairRows.zeros.set(this.W, (zero = new Uint32Array(this.W)));
      return zero;
    }
    return words.subarray(offset, offset + this.W);
  }

  has(row: number, bit: number): boolean {
    return (this.readRow(row)[bit >>> 5]! & (1 << (bit & 31))) !== 0;
  }

  set(row: number, bit: number): void {
    this.rowWords(row)[bit >>> 5]! |= 1 << (bit & 31);
  }
}
