// The model page's cache: most recently used kept, bounded by the text it holds, diagrams drawn once.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseUvl } from '../../../packages/uvl/src/index.ts';
import { createModelCache, type DerivedModel } from './model.cache.ts';

const derived = (): DerivedModel => ({ model: parseUvl('features\n    A\n').model, errors: [], warnings: { shown: [], more: 0 }, diagrams: new Map() });

describe('model cache', () => {
  it('evicts the least recently used entries beyond its size and skips an entry larger than it', () => {
    const cache = createModelCache(10);
    const [a, b, c] = [derived(), derived(), derived()];
    cache.set('a', 4, a);
    cache.set('b', 4, b);
    assert.equal(cache.get('a'), a, 'a is now the most recent');
    cache.set('c', 4, c);
    assert.equal(cache.get('b'), undefined, 'b was the least recently used');
    assert.equal(cache.get('a'), a);
    assert.equal(cache.get('c'), c);
    cache.set('huge', 11, derived());
    assert.equal(cache.get('huge'), undefined);
    assert.equal(cache.get('a'), a);
  });

  it('keys by content and draws a diagram once per key', () => {
    const cache = createModelCache();
    assert.equal(cache.keyOf('features\n    A\n'), cache.keyOf('features\n    A\n'));
    assert.notEqual(cache.keyOf('features\n    A\n'), cache.keyOf('features\n    B\n'));
    const value = derived();
    let draws = 0;
    const draw = () => { draws++; return '<svg/>'; };
    assert.equal(cache.diagram(value, 'k', draw), '<svg/>');
    assert.equal(cache.diagram(value, 'k', draw), '<svg/>');
    cache.diagram(value, 'other', draw);
    assert.equal(draws, 2);
  });
});
