// probabilityOf against an exact rational check of "nearest double" (the neighbours of the answer
// are no nearer), formatProbability and probabilityBins on variant features next to 0 and 1.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatProbability, probabilityBins, probabilityOf } from './probability.ts';
import { seededRandom } from './testing/generators.support.ts';

/** A finite non-negative double as an exact fraction num / 2^exp. */
function exact(x: number): { num: bigint; exp: bigint } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  return biased === 0 ? { num: fraction, exp: 1074n } : { num: fraction | (1n << 52n), exp: BigInt(1075 - biased) };
}

function neighbour(x: number, up: boolean): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  view.setBigUint64(0, view.getBigUint64(0) + (up ? 1n : -1n));
  return view.getFloat64(0);
}

/** |part/whole - x| scaled by whole * 2^E (E large enough for every double here), exact. */
function distance(x: number, part: bigint, whole: bigint): bigint {
  const { num, exp } = exact(x);
  const E = 1200n;
  const d = part * (1n << E) - num * (1n << (E - exp)) * whole;
  return d < 0n ? -d : d;
}

function randomBig(random: () => number, bits: number): bigint {
  let n = 0n;
  for (let i = 0; i < bits; i += 30) n = (n << 30n) | BigInt(Math.floor(random() * 2 ** 30));
  return n >> BigInt(Math.max(0, Math.ceil(bits / 30) * 30 - bits));
}

describe('probabilityOf', () => {
  test('is the nearest double to part / whole for 4 000 random pairs of 1 to 3 000 bits', () => {
    const random = seededRandom(7);
    for (let i = 0; i < 4000; i++) {
      const wholeBits = 1 + Math.floor(random() * 3000);
      const whole = randomBig(random, wholeBits) + 1n;
      const part = i % 3 === 0 ? whole - randomBig(random, Math.floor(random() * wholeBits)) : randomBig(random, Math.floor(random() * (wholeBits + 1))) % (whole + 1n);
      if (part < 0n) continue;
      const p = probabilityOf(part, whole);
      const d = distance(p, part, whole);
      if (p > 0) assert.ok(distance(neighbour(p, false), part, whole) >= d, `${part}/${whole}: below is nearer`);
      if (p < 1) assert.ok(distance(neighbour(p, true), part, whole) >= d, `${part}/${whole}: above is nearer`);
    }
  });

  test('the case of the issue: a ratio of 60-digit counts is exact to the last bit, where scaling both to doubles was not', () => {
    const whole = 3n ** 130n + 12345n;
    const part = 3n ** 129n + 7n;
    const p = probabilityOf(part, whole);
    assert.equal(p, 1 / 3);
    assert.equal(probabilityOf(1n, 3n), 1 / 3);
    assert.equal(probabilityOf(2n, 3n), 2 / 3);
    assert.equal(probabilityOf(0n, 5n), 0);
    assert.equal(probabilityOf(5n, 5n), 1);
    assert.equal(probabilityOf(0n, 0n), 0);
    // Ties go to the even last bit: 1 + 2^-53 halfway between 1 and its successor, over 2.
    assert.equal(probabilityOf((1n << 53n) + 1n, 1n << 54n), 0.5);
    assert.equal(probabilityOf((1n << 53n) + 3n, 1n << 54n), 0.5 + 2 ** -52);
  });

  test('subnormal and underflowing ratios', () => {
    assert.equal(probabilityOf(1n, 1n << 1074n), 2 ** -1074);
    assert.equal(probabilityOf(3n, 1n << 1075n), 2 ** -1073);
    assert.equal(probabilityOf(1n, 1n << 1076n), 0);
  });
});

describe('formatProbability', () => {
  test('a variant feature is never written 0 or 1', () => {
    const count = 10n ** 60n;
    assert.equal(formatProbability(21n * 10n ** 15n, count), '2.1 × 10^-44');
    assert.equal(formatProbability(1n, 10n ** 400n), '1.0 × 10^-400');
    assert.equal(formatProbability(count - 1n, count), '> 0.999');
    assert.equal(formatProbability(999n, 1000n), '0.999');
    assert.equal(formatProbability(1n, 1000n), '0.001');
    assert.equal(formatProbability(1n, 1001n), '1.0 × 10^-3');
    assert.equal(formatProbability(994n, 1_000_000n), '9.9 × 10^-4');
    assert.equal(formatProbability(995n, 1_000_000n), '1.0 × 10^-3');
    assert.equal(formatProbability(1n, 3n), '0.333');
    assert.equal(formatProbability(0n, count), '0');
    assert.equal(formatProbability(count, count), '1');
  });
});

describe('probabilityBins', () => {
  test('the end bars hold the dead and core features only', () => {
    const count = 10n ** 60n;
    const bins = probabilityBins([0n, 0n, 1n, count / 2n, count - 1n, count, 21n * 10n ** 15n], count);
    assert.equal(bins[0]!.count, 2);
    assert.equal(bins[1]!.count, 2);
    assert.equal(bins[6]!.count, 1);
    assert.equal(bins[10]!.count, 1);
    assert.equal(bins[11]!.count, 1);
  });
});
