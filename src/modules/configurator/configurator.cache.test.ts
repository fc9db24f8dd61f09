// The stored results kept in memory: a result remembered twice (two requests that missed it at
// once) is counted once, so the budget is never used up by bodies that are no longer kept.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createResultCache } from './configurator.cache.ts';

describe('the stored results kept in memory', () => {
  it('counts a result remembered by several requests at once only once: it stays kept', () => {
    const cache = createResultCache((error) => { throw error; });
    // 39 MB: below a third of the 160 MB budget, so it is kept; five counts of it would pass the budget.
    const json = JSON.stringify('x'.repeat(39 * 1024 * 1024));
    const first = cache.remember('commonality:1', json);
    for (let i = 0; i < 4; i++) assert.equal(cache.remember('commonality:1', json), first, 'the body kept is answered');
    assert.equal(cache.get('commonality:1'), first);
    // Room is left for others: three more results of that size fit beside it.
    for (const key of ['a', 'b', 'c']) cache.remember(key, json);
    assert.ok(cache.get('commonality:1') && cache.get('a') && cache.get('b') && cache.get('c'), 'four results of 39 MB are kept within 160 MB');
  });
});
