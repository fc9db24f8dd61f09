// A feature's probability (its commonality divided by the model's count) from the two exact big
// integers. Scaling both down to doubles first loses the low bits of each (a relative error near
// 10^-10 was seen on automotive2_4), and a ratio far below 10^-16 of 1 or 0 must still be shown
// as neither 1 nor 0 when the feature is variant: the display works on the integers too.

const bitLength = (n: bigint): number => (n === 0n ? 0 : n.toString(2).length);

/** The smallest exponent of a double's last bit (subnormals): 2^-1074. */
const MIN_EXPONENT = 1074;

/**
 * The double nearest to `part / whole` (ties to even), exactly: one big-integer division with its
 * remainder deciding the last bit. 0 when `whole` is 0 (a void model has no configuration).
 */
export function probabilityOf(part: bigint, whole: bigint): number {
  if (whole <= 0n || part <= 0n) return 0;
  // q = floor(part * 2^k / whole) gets 53 significant bits (or fewer below 2^-1022).
  let k = 53 + bitLength(whole) - bitLength(part);
  k = Math.min(k, MIN_EXPONENT);
  let scaled = k >= 0 ? part << BigInt(k) : part >> BigInt(-k);
  let q = scaled / whole;
  if (bitLength(q) > 53) {
    k -= 1;
    scaled = k >= 0 ? part << BigInt(k) : part >> BigInt(-k);
    q = scaled / whole;
  }
  // k < 0 only when part > whole, which a probability never is; the shifts stay exact otherwise.
  const twice = 2n * (scaled - q * whole);
  if (twice > whole || (twice === whole && (q & 1n) === 1n)) q += 1n;
  return Number(q) * 2 ** -k;
}

/** `m × 10^e` with two significant digits, from the integers (so never 0 for a positive ratio). */
function powerOfTen(part: bigint, whole: bigint): string {
  let k = whole.toString().length - part.toString().length + 1;
  const rounded = (shift: number) => (2n * part * 10n ** BigInt(shift) + whole) / (2n * whole);
  let q = rounded(k);
  while (q < 10n) q = rounded(++k);
  while (q >= 100n) q = rounded(--k);
  const text = q.toString();
  return `${text[0]}.${text[1]} × 10^${1 - k}`;
}

/**
 * A probability for people: `0` and `1` only for a dead or core feature (part 0 or equal to
 * whole), a power of ten below 0.001 (`2.1 × 10^-44`), `> 0.999` above 0.999, else three decimals.
 */
export function formatProbability(part: bigint, whole: bigint): string {
  if (whole <= 0n || part <= 0n) return '0';
  if (part >= whole) return '1';
  if (part * 1000n < whole) return powerOfTen(part, whole);
  if (part * 1000n > whole * 999n) return '> 0.999';
  return probabilityOf(part, whole).toFixed(3);
}

export interface ProbabilityBin { label: string; count: number }

/**
 * Features per probability, for a histogram: the end bars hold exactly the dead (`0`) and core
 * (`1`) features, decided on the integers, and the tenths between hold every variant feature,
 * however close to 0 or 1 (a variant one below 10^-16 is in the first tenth, not in `0`).
 */
export function probabilityBins(commonalities: readonly bigint[], whole: bigint): ProbabilityBin[] {
  const bins: ProbabilityBin[] = [{ label: '0', count: 0 }];
  for (let i = 0; i < 10; i++) bins.push({ label: `.${i}`, count: 0 });
  bins.push({ label: '1', count: 0 });
  for (const part of commonalities) {
    if (part <= 0n || whole <= 0n) bins[0]!.count++;
    else if (part >= whole) bins[11]!.count++;
    else bins[1 + Number((part * 10n) / whole)]!.count++;
  }
  return bins;
}
