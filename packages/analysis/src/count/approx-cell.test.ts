// A cell's count (models found, each standing for its class of free-variable completions) against
// brute force: random tree-shaped formulas (each variable implies its parent; random clauses on
// top), random XOR rows, the solutions of both counted exactly when fewer than the limit.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Deadline } from '../deadline.ts';
import { Cell, freeVariables } from './approx-cell.ts';
import { generator, Hash } from './approx.ts';

function treeFormula(random: () => number, n: number): number[][] {
  const clauses: number[][] = [[1]];
  for (let v = 2; v <= n; v++) if (random() % 5 !== 0) clauses.push([-v, 1 + (random() % (v - 1))]);
  const extra = random() % 4;
  for (let i = 0; i < extra; i++) {
    const a = 1 + (random() % n);
    const b = 1 + (random() % n);
    clauses.push([random() % 2 ? a : -a, random() % 2 ? b : -b]);
  }
  return clauses;
}

const satisfiesRow = (row: Uint32Array, n: number, x: number, support: number[]): boolean => {
  let p = (row[n >>> 5]! >>> (n & 31)) & 1;
  for (let i = 0; i < n; i++) if ((row[i >>> 5]! >>> (i & 31)) & 1 && (x >> (support[i]! - 1)) & 1) p ^= 1;
  return p === 0;
};

/** The assignments of variables 1..n that satisfy the clauses and every row: the cell's size by brute force. */
function bruteForceCell(n: number, clauses: number[][], rows: Uint32Array[], support: number[]): number {
  let size = 0;
  for (let x = 0; x < 1 << n; x++) {
    const val = (l: number) => (((x >> (Math.abs(l) - 1)) & 1) === 1) === l > 0;
    if (clauses.every((c) => c.some(val)) && rows.every((r) => satisfiesRow(r, n, x, support))) size++;
  }
  return size;
}

/** The k-th random case: a tree formula of 3 to 13 variables, a hash over all of them, its first m rows, the cell's size by brute force. */
function randomCell(random: () => number, k: number) {
  const n = 3 + (k % 11);
  const clauses = treeFormula(random, n);
  const support = Array.from({ length: n }, (_, i) => i + 1);
  const hash = new Hash(n, random);
  const m = random() % (n + 1);
  const rows = hash.first(m);
  return { n, clauses, support, hash, m, rows, expected: bruteForceCell(n, clauses, rows, support) };
}

describe('a cell of the approximate counter', () => {
  test('counts exactly what brute force counts (1 500 random formulas and hashes, 3 to 13 variables)', () => {
    const random = generator(3);
    let withFree = 0;
    let withClasses = 0;
    for (let k = 0; k < 1500; k++) {
      const { n, clauses, support, hash, m, rows, expected } = randomCell(random, k);
      if (freeVariables(n, clauses, support).length > 0) withFree++;
      const cell = new Cell(n, clauses, support, rows, n);
      const found = cell.count(1 << 20, Deadline.none());
      assert.equal(found, expected, `formula ${k}: ${JSON.stringify(clauses)}, ${m} rows`);
      if (cell.models < expected) withClasses++;
      // Up to a limit: the limit when there are more.
      assert.equal(new Cell(n, clauses, support, rows, n).count(3, Deadline.none()), Math.min(3, expected));
    }
    assert.ok(withFree > 1000, `${withFree} formulas with free variables`);
    assert.ok(withClasses > 300, `${withClasses} cells where a model counted for more than itself`);
  });

  test('seeded with the models of other cells of the hash, a cell still counts what brute force counts (600 random formulas)', () => {
    const random = generator(7);
    let seeded = 0;
    for (let k = 0; k < 600; k++) {
      const { n, clauses, support, hash, m, rows, expected } = randomCell(random, k);
      // Models of the cells with fewer and more rows (some outside this cell, some in one class), twice over.
      const seeds: Int8Array[] = [];
      for (const other of [Math.max(0, m - 2), Math.min(n, m + 1), 0]) {
        const cell = new Cell(n, clauses, support, hash.first(other), n);
        cell.count(1 << 20, Deadline.none());
        seeds.push(...cell.found, ...cell.found);
      }
      const inCell = (model: Int8Array) => {
        let x = 0;
        for (let v = 1; v <= n; v++) if (model[v]! > 0) x |= 1 << (v - 1);
        return rows.every((r) => satisfiesRow(r, n, x, support));
      };
      const cell = new Cell(n, clauses, support, rows, n);
      assert.equal(cell.count(1 << 20, Deadline.none(), seeds, inCell), expected, `formula ${k}: ${JSON.stringify(clauses)}, ${m} rows`);
      if (seeds.some(inCell)) seeded++;
      assert.equal(new Cell(n, clauses, support, rows, n).count(3, Deadline.none(), seeds, inCell), Math.min(3, expected));
    }
    assert.ok(seeded > 300, `${seeded} cells with a seed inside`);
  });

  test('free variables: one polarity, no clause shared with another', () => {
    // 2 and 3 are leaves under the root 1 (not in the support); 4 is only negative but shares a
    // clause with 3; 5 occurs both ways.
    const clauses = [[1], [-2, 1], [-3, 1], [-4, -3], [5, 1], [-5, 1]];
    assert.deepEqual(freeVariables(5, clauses, [2, 3, 4, 5]), [2]);
    assert.deepEqual(freeVariables(5, clauses, [1, 2, 3, 4, 5]), []);
  });
});
