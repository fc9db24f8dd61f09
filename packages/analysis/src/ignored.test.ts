// The constraints the Boolean analysis leaves out, one by one: line, source text and reason,
// beside their number (ignored_constraints, the contract of extensions section 1).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMapLoader, parseUvl } from '../../uvl/src/index.ts';
import { analyzeModel } from './analyze.ts';

test('ignored constraints say which lines and why', () => {
  const text = ['features', '    R {price 3}', '        optional', '            A {price 2}', '            B', 'constraints', '    C  |  D', '    (A.price + R.price > 4)', '    A | B', ''].join('\n');
  const result = analyzeModel(parseUvl(text).model, { text });
  assert.equal(result.ignored_constraints, 2);
  assert.equal(result.boolean_only, false);
  assert.deepEqual(result.ignored, [
    { line: 7, constraint: 'C  |  D', reason: '`C` is not a feature' },
    { line: 8, constraint: '(A.price + R.price > 4)', reason: 'arithmetic, aggregate or string constraint: the Boolean analysis cannot express it' },
  ]);
});

test('an imported constraint is named by its text and model, without a line of this file', () => {
  const loader = createMapLoader({ 'parts.uvl': 'features\n    Engine\n        optional\n            Turbo\nconstraints\n    Turbo => Ghost\n' });
  const text = 'imports\n    parts as p\nfeatures\n    Car\n        mandatory\n            p.Engine\n';
  const { model } = parseUvl(text, { loader });
  const result = analyzeModel(model, { text });
  assert.deepEqual(result.ignored, [{ line: null, constraint: 'Turbo => Ghost (from imported model p)', reason: '`Ghost` is not a feature' }]);
});

test('a model without ignored constraints has an empty list', () => {
  const text = 'features\n    R\n        optional\n            A\nconstraints\n    R => A\n';
  assert.deepEqual(analyzeModel(parseUvl(text).model, { text }).ignored, []);
});
