import { test } from 'node:test';
import assert from 'node:assert/strict';
import { featureName, featureNames } from './feature-names.ts';

test('plain lists: comma-separated, trimmed, empty parts ignored', () => {
  assert.deepEqual(featureNames('A,B'), ['A', 'B']);
  assert.deepEqual(featureNames(' A , ,B,'), ['A', 'B']);
  assert.deepEqual(featureNames(''), []);
  assert.deepEqual(featureNames(undefined), []);
  assert.deepEqual(featureNames('Sun  Roof'), ['Sun  Roof']);
});

test('quoted names as in a UVL file: commas and outer spaces kept, quotes dropped', () => {
  assert.deepEqual(featureNames('"a,b",B'), ['a,b', 'B']);
  assert.deepEqual(featureNames('B, "a,b" ,"c"'), ['B', 'a,b', 'c']);
  assert.deepEqual(featureNames('" padded "'), [' padded ']);
  assert.deepEqual(featureNames('"Sun  Roof"'), ['Sun  Roof']);
});

test('one name, quoted or not', () => {
  assert.equal(featureName('"Sun  Roof"'), 'Sun  Roof');
  assert.equal(featureName('Turbo'), 'Turbo');
  assert.equal(featureName('a,b'), 'a,b');
});
