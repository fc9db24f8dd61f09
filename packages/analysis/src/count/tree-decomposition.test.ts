// The tree-decomposition counter on its own: exact counts beyond 2^53 (the residue path),
// against an independent count (the search counter, or a closed form), and its refusals.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { countCnf } from './counter.ts';
import { TreeDecompositionCounter, type NarrowFormula } from './tree-decomposition.ts';
import { bruteForceCnf } from '../testing/brute-force-cnf.support.ts';
import { seededRandom } from '../testing/generators.support.ts';

/** DIMACS clauses over 1..vars as the counter's local formula (variable v is v - 1). */
function narrow(vars: number, clauses: number[][]): NarrowFormula {
  const clauseStart = new Int32Array(clauses.length + 1);
  const lits: number[] = [];
  clauses.forEach((c, i) => {
    clauseStart[i] = lits.length;
    for (const d of c) lits.push(d > 0 ? (d - 1) << 1 : ((-d - 1) << 1) | 1);
  });
  clauseStart[clauses.length] = lits.length;
  return { vars, clauseStart, lits: Int32Array.from(lits), clauses: clauses.length };
}

/** Clauses over variables that lie within `band` of each other: an elimination of width below band. */
function bandedCnf(rand: () => number, vars: number, band: number, clauses: number): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < clauses; i++) {
    const base = 1 + Math.floor(rand() * (vars - band + 1));
    const size = 2 + Math.floor(rand() * Math.min(3, band - 1));
    const picked = new Set<number>();
    while (picked.size < size) picked.add(base + Math.floor(rand() * band));
    out.push([...picked].map((v) => (rand() < 0.5 ? v : -v)));
  }
  return out;
}

describe('counting by dynamic programming over a tree decomposition', () => {
  test('a path of "at least one of two neighbours" has Fibonacci many models, past 2^53 too', () => {
    const counter = new TreeDecompositionCounter();
    const fibonacci = [0n, 1n];
    for (let i = 2; i < 200; i++) fibonacci.push(fibonacci[i - 1]! + fibonacci[i - 2]!);
    for (const vars of [2, 3, 10, 70, 90, 150, 190]) {
      const clauses = Array.from({ length: vars - 1 }, (_, i) => [i + 1, i + 2]);
      // Assignments of a path with no two neighbours both false: F(vars + 2).
      assert.equal(counter.count(narrow(vars, clauses), 4, 1 << 12), fibonacci[vars + 2], `${vars} variables`);
    }
    assert.ok(fibonacci[192]! > 2n ** 53n);
  });

  test('300 random banded formulas of 20 to 160 variables: the same count as the search', () => {
    const rand = seededRandom(2026);
    const counter = new TreeDecompositionCounter();
    let beyondDoubles = 0;
    let zero = 0;
    for (let i = 0; i < 300; i++) {
      const vars = 20 + Math.floor(rand() * 141);
      const band = 3 + Math.floor(rand() * 5);
      const clauses = bandedCnf(rand, vars, band, Math.floor(vars * (0.5 + rand() * 3)));
      // Variables in no clause count twice each, in both counters.
      const expected = countCnf(vars, clauses.map((c) => [...c]));
      const got = counter.count(narrow(vars, clauses), 12, 1 << 20);
      assert.equal(got, expected, `${vars} variables, band ${band}: ${JSON.stringify(clauses)}`);
      if (expected! >= 2n ** 53n) beyondDoubles++;
      if (expected === 0n) zero++;
    }
    // Both paths and both verdicts, or the test proves little.
    assert.ok(beyondDoubles > 50, `${beyondDoubles} counts past 2^53`);
    assert.ok(zero > 5, `${zero} formulas without a model`);
  });

  test('small random formulas against brute force, with empty and unit clauses', () => {
    const rand = seededRandom(99);
    const counter = new TreeDecompositionCounter();
    for (let i = 0; i < 500; i++) {
      const vars = 1 + Math.floor(rand() * 10);
      const clauses = bandedCnf(rand, vars + 4, 4, Math.floor(rand() * 12))
        .map((c) => c.filter((d) => Math.abs(d) <= vars))
        .filter((c) => c.length > 0 || rand() < 0.1);
      if (rand() < 0.2) clauses.push([1 + Math.floor(rand() * vars)]);
      const truth = bruteForceCnf({ numVars: vars, clauses });
      assert.equal(counter.count(narrow(vars, clauses), 12, 1 << 20), truth.count, JSON.stringify(clauses));
    }
  });

  test('refuses a formula wider than asked or costing more table entries than allowed', () => {
    const counter = new TreeDecompositionCounter();
    // One clause over 12 variables: a bag of 12, width 11.
    const wide = narrow(12, [Array.from({ length: 12 }, (_, i) => i + 1)]);
    assert.equal(counter.count(wide, 10, 1 << 20), null);
    assert.equal(counter.count(wide, 11, 1 << 20), 2n ** 12n - 1n);
    assert.equal(counter.count(wide, 11, 1 << 10), null);
  });
});
