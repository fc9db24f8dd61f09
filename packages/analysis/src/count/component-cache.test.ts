import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ComponentCache } from './component-cache.ts';

/** A component as the counter lays it out: sorted variables, then sorted clause ids, in one list. */
function layout(vars: number[], clauses: number[]): Int32Array {
  return Int32Array.from([...vars, ...clauses]);
}

describe('ComponentCache', () => {
  test('a hit needs both lists equal, whatever the hash says', () => {
    const cache = new ComponentCache(1 << 20);
    const a = layout([1, 2, 3], [0, 5]);
    cache.set(7, a, 0, 3, 2, 42n);
    assert.equal(cache.get(7, a, 0, 3, 2), 42n);
    // Same hash, other lists: a miss (the hash only picks candidates).
    assert.equal(cache.get(7, layout([1, 2, 4], [0, 5]), 0, 3, 2), undefined);
    assert.equal(cache.get(7, layout([1, 2, 3], [0, 6]), 0, 3, 2), undefined);
    // The same items split differently between variables and clauses: another component.
    assert.equal(cache.get(7, layout([1, 2, 3, 0], [5]), 0, 4, 1), undefined);
    // At an offset in a larger list, as in the counter's arena.
    const arena = Int32Array.from([99, 98, ...a]);
    assert.equal(cache.get(7, arena, 2, 3, 2), 42n);
  });

  test('large gaps between items (several bytes per delta) and clause 0', () => {
    const cache = new ComponentCache(1 << 20);
    const list = layout([1, 200, 70_000, 20_000_000, 2_000_000_000], [0, 1, 300_000, 2_000_000_001]);
    cache.set(-5, list, 0, 5, 4, 10n ** 40n);
    assert.equal(cache.get(-5, list, 0, 5, 4), 10n ** 40n);
    const other = layout([1, 200, 70_000, 20_000_000, 2_000_000_001], [0, 1, 300_000, 2_000_000_001]);
    assert.equal(cache.get(-5, other, 0, 5, 4), undefined);
  });

  test('many entries with colliding hashes; past its size it forgets the older half', () => {
    // About 3 bytes per entry: a 4 000-byte cache keeps between 650 and 1 300 of them.
    const cache = new ComponentCache(4_000);
    const entries = 5_000;
    const listOf = (i: number) => layout([i + 1, i + 2], [i]);
    for (let i = 0; i < entries; i++) cache.set(i % 3, listOf(i), 0, 2, 1, BigInt(i));
    assert.ok(cache.size < entries && cache.size > 500, `${cache.size} entries kept`);
    let kept = 0;
    for (let i = 0; i < entries; i++) {
      const value = cache.get(i % 3, listOf(i), 0, 2, 1);
      if (value === undefined) continue;
      assert.equal(value, BigInt(i));
      kept++;
    }
    assert.equal(kept, cache.size);
    // The newest entry is always kept.
    assert.equal(cache.get((entries - 1) % 3, listOf(entries - 1), 0, 2, 1), BigInt(entries - 1));
  });
});
