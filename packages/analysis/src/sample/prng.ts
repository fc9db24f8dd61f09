// A seeded pseudo-random generator of our own, so that a sample depends only on the model, the
// decisions, N and the seed (never on the platform's Math.random): xoshiro128** (Blackman and
// Vigna), its 128-bit state filled from the seed by splitmix32.

export class SeededRandom {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** Any safe integer seed; its low and high 32 bits both matter. */
  constructor(seed: number) {
    if (!Number.isSafeInteger(seed)) throw new RangeError(`not a safe integer seed: ${seed}`);
    let state = (seed >>> 0) ^ Math.imul(Math.floor(seed / 4294967296) >>> 0, 0x9e3779b9);
    const next = (): number => {
      state = (state + 0x9e3779b9) | 0;
      let z = state;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    if ((this.a | this.b | this.c | this.d) === 0) this.d = 1;
  }

  /** 32 uniform bits, as an unsigned integer. */
  nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result;
  }

  /** A uniform integer in [0, 2^53). */
  nextUint53(): number {
    return (this.nextUint32() >>> 11) * 4294967296 + this.nextUint32();
  }

  /** A uniform BigInt in [0, 2^bits). */
  nextBits(bits: number): bigint {
    if (bits <= 0) return 0n;
    const words = Math.ceil(bits / 32);
    let hex = '';
    for (let i = 0; i < words; i++) hex += this.nextUint32().toString(16).padStart(8, '0');
    return BigInt('0x' + hex) >> BigInt(words * 32 - bits);
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}
