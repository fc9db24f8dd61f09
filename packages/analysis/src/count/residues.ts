// Exact integers held as residues modulo primes below 2^26, in doubles: a product of two
// residues is below 2^52, exact in a double, so the dynamic programming's tables
// (tree-decomposition.ts) can count past 2^53 without big integers, and the count is put
// together from its residues at the end (Chinese remainders, in BigInt).

/** Residues are below 2^26; each prime brings at least 25 bits of the count. */
export const PRIME_BITS = 25;

/** The primes a nonnegative integer below 2^(log2(value) + 2) needs. */
export function residuesFor(value: number): number {
  return Math.ceil((Math.ceil(Math.log2(value)) + 2) / PRIME_BITS);
}

/**
 * a * b mod p for residues below 2^26: the product is exact, and the quotient by way of the
 * prime's reciprocal (cheaper than a division) is off by one at most.
 */
export function mulMod(a: number, b: number, p: number, reciprocal = 1 / p): number {
  const ab = a * b;
  const r = ab - Math.floor(ab * reciprocal) * p;
  return r < 0 ? r + p : r >= p ? r - p : r;
}

export function nextPrimeBelow(limit: number): number {
  for (let q = limit - 1; ; q--) {
    let prime = q > 1;
    for (let d = 2; d * d <= q && prime; d++) if (q % d === 0) prime = false;
    if (prime) return q;
  }
}

/** The integer below the product of the primes with these residues (Garner's mixed radix). */
export function fromResidues(residues: number[], primes: number[]): bigint {
  let value = BigInt(residues[0]!);
  let modulus = BigInt(primes[0]!);
  for (let j = 1; j < primes.length; j++) {
    const p = primes[j]!;
    const bigP = BigInt(p);
    const have = Number(value % bigP);
    const inverse = inverseMod(Number(modulus % bigP), p);
    const step = mulMod((residues[j]! - have + p) % p, inverse, p);
    value += BigInt(step) * modulus;
    modulus *= bigP;
  }
  return value;
}

function inverseMod(a: number, p: number): number {
  let [r0, r1] = [p, a];
  let [t0, t1] = [0, 1];
  while (r1 !== 0) {
    const q = Math.floor(r0 / r1);
    [r0, r1] = [r1, r0 - q * r1];
    [t0, t1] = [t1, t0 - q * t1];
  }
  return ((t0 % p) + p) % p;
}
