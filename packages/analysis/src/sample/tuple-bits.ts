// Interactions of t literals kept as bits. Literals are numbered 0..L-1 (L = 2 * features):
// 2(v-1) for feature v selected, 2(v-1)+1 for it deselected. An interaction is stored once, with
// its literals in increasing order: the first t-1 of them (the prefix) choose a row, the last one
// a bit of that row. A row is a bit set over all L literals in W 32-bit words, so that marking
// a configuration's interactions is an OR of its literal set into the rows of its prefixes.

export const litIndex = (dimacs: number): number => (dimacs > 0 ? 2 * (dimacs - 1) : 2 * (-dimacs - 1) + 1);
export const litDimacs = (index: number): number => (index & 1 ? -((index >> 1) + 1) : (index >> 1) + 1);

export class TupleBits {
  readonly t: number;
  /** Literals: twice the features. */
  readonly L: number;
  /** Words per row. */
  readonly W: number;
  readonly words: Uint32Array;

  constructor(t: number, L: number) {
    this.t = t;
    this.L = L;
    this.W = Math.ceil(L / 32);
    this.words = new Uint32Array(TupleBits.rows(t, L) * this.W);
  }

  static rows(t: number, L: number): number {
    return t === 1 ? 1 : t === 2 ? L : L * L;
  }

  /** Bits needed for t-wise interactions over L literals (the caller refuses what is too big). */
  static bitsFor(t: number, L: number): number {
    return TupleBits.rows(t, L) * Math.ceil(L / 32) * 32;
  }

  /** The row of a prefix of t-1 increasing literal indices. */
  row(prefix: ArrayLike<number>): number {
    return this.t === 1 ? 0 : this.t === 2 ? prefix[0]! : prefix[0]! * this.L + prefix[1]!;
  }

  has(row: number, bit: number): boolean {
    return (this.words[row * this.W + (bit >>> 5)]! & (1 << (bit & 31))) !== 0;
  }

  set(row: number, bit: number): void {
    this.words[row * this.W + (bit >>> 5)]! |= 1 << (bit & 31);
  }

  orRow(row: number, mask: Uint32Array): void {
    const base = row * this.W;
    for (let w = 0; w < this.W; w++) this.words[base + w]! |= mask[w]!;
  }

  /** Bits of the row above `after` (the interactions whose prefix is that row). */
  countAbove(row: number, after: number): number {
    let total = 0;
    const base = row * this.W;
    for (let w = (after + 1) >>> 5; w < this.W; w++) {
      let x = this.words[base + w]!;
      if (w === (after + 1) >>> 5) x &= ~0 << ((after + 1) & 31);
      total += popcount(x);
    }
    return total;
  }
}

export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** A bit set of the given literal indices, W words. */
export function literalMask(indices: ArrayLike<number>, W: number): Uint32Array {
  const mask = new Uint32Array(W);
  for (let i = 0; i < indices.length; i++) mask[indices[i]! >>> 5]! |= 1 << (indices[i]! & 31);
  return mask;
}
