// The pair counts the improvement decides by: after a configuration changes (change down, new
// values, change up) the counts are those of the sample counted afresh, and lostBy names the
// literals of exactly the pairs the change would take from their only configuration.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PairCounts } from './pair-counts.ts';
import { litIndex } from './tuple-bits.ts';

const on = (values: number[]): Int32Array => Int32Array.from(values.map((x, i) => litIndex(x > 0 ? i + 1 : -(i + 1))));

function fresh(samples: number[][], n: number): PairCounts {
  const counts = new PairCounts(n);
  for (const s of samples) counts.add(on(s), 1);
  return counts;
}

function sameCounts(x: PairCounts, y: PairCounts): boolean {
  for (let a = 0; a < x.L; a++) for (let b = a + 1; b < x.L; b++) if (x.of(a, b) !== y.of(a, b)) return false;
  return true;
}

test('changing a configuration keeps the counts those of the sample counted afresh', () => {
  const n = 6;
  const sample = [[1, 1, -1, 1, -1, -1], [-1, 1, 1, -1, 1, -1], [1, -1, 1, 1, 1, 1]];
  const counts = fresh(sample, n);
  const next = [1, -1, -1, 1, 1, -1];
  const changed = [2, 5]; // 1-based features whose value differs between sample[0] and next
  counts.change(on(sample[0]!), changed, -1);
  counts.change(on(next), changed, 1);
  assert.ok(sameCounts(counts, fresh([next, sample[1]!, sample[2]!], n)));
  assert.ok(!sameCounts(counts, fresh(sample, n)), 'the change is seen');
});

test('unique and lostBy find the pairs only one configuration covers', () => {
  const n = 4;
  const a = [1, 1, 1, 1];
  const b = [1, 1, -1, -1];
  const counts = fresh([a, b], n);
  // a alone covers every pair with 3 or 4 selected: (1,3) (1,4) (2,3) (2,4) (3,4).
  assert.equal(counts.unique(on(a), 100).length, 5);
  assert.equal(counts.unique(on(a), 2).length, 2, 'stops at the limit');
  // Flipping feature 1 in a loses (1,3) and (1,4): 1's, 3's and 4's literals must stay; (1,2) is shared.
  assert.deepEqual(counts.lostBy(on(a), [1]).sort(), [litIndex(1), litIndex(3), litIndex(4)].sort());
  const c = fresh([a, b, a], n);
  assert.deepEqual(c.lostBy(on(a), [1, 2, 3]), [], 'nothing is lost when another configuration has every pair');
});
