// A narrow component's queries on its own (narrow-leaf.ts), against every assignment listed by
// brute force: the count under fixed values, each variable's true count, model number i for
// every i, and the uniform draw (its fast path in doubles and its exact path alone).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { NarrowFormula } from '../count/tree-decomposition.ts';
import { SeededRandom } from '../sample/prng.ts';
import { seededRandom } from '../testing/generators.support.ts';
import { leafCount, leafDraw, leafTables, leafTrueCounts, leafUnrank, localFixed, makeLeaf, type NarrowLeaf } from './narrow-leaf.ts';

/** Random clauses of 1 (rarely) to 3 literals over variables 0..vars-1 within `band` of each other (narrow). */
function randomLeaf(rand: () => number, vars: number, band: number, clauses: number): NarrowLeaf {
  const starts = [0];
  const lits: number[] = [];
  for (let c = 0; c < clauses; c++) {
    const base = Math.floor(rand() * Math.max(1, vars - band + 1));
    const size = rand() < 0.1 ? 1 : 2 + Math.floor(rand() * 2);
    const picked = new Set<number>();
    while (picked.size < Math.min(size, band, vars)) picked.add(Math.min(vars - 1, base + Math.floor(rand() * band)));
    for (const v of picked) lits.push((v << 1) | (rand() < 0.5 ? 1 : 0));
    starts.push(lits.length);
  }
  const formula: NarrowFormula = { vars, clauses, clauseStart: Int32Array.from(starts), lits: Int32Array.from(lits) };
  // The form's variables of the leaf: 1..vars in a shuffled order (the leaf maps them back).
  const order = Array.from({ length: vars }, (_, i) => i + 1).sort(() => rand() - 0.5);
  return makeLeaf(formula, order, 0);
}

/** Every assignment of the leaf's local variables (bit i: variable i true) that satisfies it. */
function models(leaf: NarrowLeaf, localFixedValues: Int8Array | null): number[] {
  const f = leaf.formula;
  const out: number[] = [];
  for (let m = 0; m < 1 << f.vars; m++) {
    let ok = true;
    for (let i = 0; i < f.vars && ok; i++) {
      const value = localFixedValues?.[i] ?? 0;
      if (value !== 0 && ((m >> i) & 1) !== (value > 0 ? 1 : 0)) ok = false;
    }
    for (let c = 0; c < f.clauses && ok; c++) {
      let satisfied = false;
      for (let k = f.clauseStart[c]!; k < f.clauseStart[c + 1]! && !satisfied; k++) {
        const l = f.lits[k]!;
        satisfied = ((m >> (l >> 1)) & 1) === (l & 1 ? 0 : 1);
      }
      ok = satisfied;
    }
    if (ok) out.push(m);
  }
  return out;
}

/** Random fixed values of the form's variables 1..vars (a few fixed, most open). */
function randomFixed(rand: () => number, vars: number): Int8Array {
  const fixed = new Int8Array(vars + 1);
  const k = Math.floor(rand() * 3);
  for (let i = 0; i < k; i++) fixed[1 + Math.floor(rand() * vars)] = rand() < 0.5 ? 1 : -1;
  return fixed;
}

const asMask = (local: Int8Array): number => local.reduce((m, v, i) => (v === 1 ? m | (1 << i) : m), 0);

function localStart(leaf: NarrowLeaf, fixed: Int8Array): Int8Array {
  return Int8Array.from(leaf.vars, (v) => fixed[v]!);
}

describe('a narrow component answered by its tables', () => {
  test('count, true counts and every model by number equal brute force on 300 random formulas', () => {
    const rand = seededRandom(22);
    let withModels = 0;
    for (let i = 0; i < 300; i++) {
      const vars = 2 + Math.floor(rand() * 13);
      const leaf = randomLeaf(rand, vars, 2 + Math.floor(rand() * 4), Math.floor(vars * (0.5 + rand() * 1.5)));
      const fixed = randomFixed(rand, vars);
      const local = localFixed(leaf, fixed);
      const expected = models(leaf, local);
      const where = `formula ${i} (${vars} variables, fixed ${Array.from(local ?? [])})`;
      assert.equal(leafCount(leaf, fixed), BigInt(expected.length), `${where}: count`);
      const exact = leafTables(leaf, fixed, 'total');
      assert.equal(exact.total, BigInt(expected.length), `${where}: tables' total`);
      const trueIn = leafTrueCounts(exact, local);
      for (let v = 0; v < vars; v++) {
        assert.equal(trueIn[v], BigInt(expected.filter((m) => (m >> v) & 1).length), `${where}: variable ${v} true`);
      }
      const max = leafTables(leaf, fixed, 'max');
      const listed: number[] = [];
      for (let k = 0; k < expected.length; k++) {
        const values = localStart(leaf, fixed);
        leafUnrank(max, BigInt(k), values);
        assert.ok(values.every((x) => x !== 0), `${where}: model ${k} assigns every variable`);
        listed.push(asMask(values));
      }
      assert.deepEqual([...listed].sort((a, b) => a - b), expected, `${where}: models by number, each once`);
      if (expected.length > 0) withModels++;
    }
    assert.ok(withModels > 150, `only ${withModels} formulas with a model`);
  });

  test('counts past 2^53: a long path, with its true counts against a closed form', () => {
    // At least one of each two neighbours on a path of 120 variables: Fibonacci many models.
    const vars = 120;
    const starts = [0];
    const lits: number[] = [];
    for (let v = 0; v + 1 < vars; v++) {
      lits.push(v << 1, (v + 1) << 1);
      starts.push(lits.length);
    }
    const leaf = makeLeaf({ vars, clauses: vars - 1, clauseStart: Int32Array.from(starts), lits: Int32Array.from(lits) }, Array.from({ length: vars }, (_, i) => i + 1), 0);
    const fib = [0n, 1n];
    for (let i = 2; i < vars + 5; i++) fib.push(fib[i - 1]! + fib[i - 2]!);
    const fixed = new Int8Array(vars + 1);
    assert.equal(leafCount(leaf, fixed), fib[vars + 2]);
    // Variable i false forces both neighbours: F(i + 1) ways on the left, F(vars - i) on the right.
    const trueIn = leafTrueCounts(leafTables(leaf, fixed, 'total'), null);
    for (const i of [0, 1, 57, 118, 119]) {
      const left = i === 0 ? 1n : fib[i + 1]!;
      const right = i === vars - 1 ? 1n : fib[vars - i]!;
      assert.equal(trueIn[i], fib[vars + 2]! - left * right, `variable ${i}`);
    }
    assert.ok(fib[vars + 2]! > 2n ** 53n);
  });

  for (const [label, margin] of [
    ['the doubles', undefined],
    ['the exact path alone', 1],
  ] as const) {
    test(`uniform draws by ${label}: chi-square against the listed models`, () => {
      const rand = seededRandom(31);
      let tested = 0;
      for (let i = 0; tested < 10 && i < 500; i++) {
        const vars = 5 + Math.floor(rand() * 6);
        const leaf = randomLeaf(rand, vars, 3, vars + Math.floor(rand() * vars));
        const fixed = randomFixed(rand, vars);
        const expected = models(leaf, localFixed(leaf, fixed));
        if (expected.length < 4 || expected.length > 120) continue;
        tested++;
        const doubles = leafTables(leaf, fixed, 'doubles');
        const random = new SeededRandom(100 + i);
        const seen = new Map<number, number>(expected.map((m) => [m, 0]));
        const n = 60 * expected.length;
        for (let s = 0; s < n; s++) {
          const values = localStart(leaf, fixed);
          leafDraw(doubles, values, random, () => leafTables(leaf, fixed, 'max'), margin);
          const m = asMask(values);
          assert.ok(seen.has(m), `formula ${i}: a draw is a model`);
          seen.set(m, seen.get(m)! + 1);
        }
        const mean = n / expected.length;
        let chi = 0;
        for (const observed of seen.values()) chi += (observed - mean) ** 2 / mean;
        const df = expected.length - 1;
        const critical = df * (1 - 2 / (9 * df) + 3.09 * Math.sqrt(2 / (9 * df))) ** 3;
        assert.ok(chi < critical, `formula ${i}: chi-square ${chi.toFixed(1)} over ${df} degrees of freedom`);
      }
      assert.equal(tested, 10);
    });
  }
});
