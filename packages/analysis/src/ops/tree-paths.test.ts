// Tree paths beside the explanations (issue 25, item 9), on a hand-made model where every kind of
// path occurs: below an excluded feature, beside a required alternative, above an excluded
// mandatory child, above a required descendant, the last child a group can choose; and none
// where the constraints name the feature. The explanations keep their lines-only form.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseUvl } from '../../../uvl/src/index.ts';
import { analyzeModel } from '../analyze.ts';

const text = [
  'features',
  '    Van',
  '        mandatory',
  '            Motor',
  '                alternative',
  '                    Diesel',
  '                    Petrol',
  '                        optional',
  '                            Injector',
  '        optional',
  '            Trailer',
  '                mandatory',
  '                    Hook',
  '            Sport',
  '                optional',
  '                    Spoiler',
  '            Radio',
  '                alternative',
  '                    Fm',
  '                    Dab',
  '            Roof',
  '                optional',
  '                    Rack',
  '                        optional',
  '                            Box',
  'constraints',
  '    Diesel',
  '    Hook => !Van',
  '    Van => Spoiler',
  '    !Fm',
  '    !Rack',
  '',
].join('\n');

test('tree paths: how constraints that never name a feature reach it', () => {
  const result = analyzeModel(parseUvl(text).model, { text });
  assert.deepEqual(result.dead, ['Box', 'Fm', 'Hook', 'Injector', 'Petrol', 'Rack', 'Trailer']);
  assert.deepEqual(result.false_optional, ['Dab', 'Diesel', 'Spoiler', 'Sport']);
  assert.deepEqual(result.explanation_paths, {
    dead: {
      Box: ['Box is a child of Rack, which the constraint excludes'],
      Injector: ['Injector is a child of Petrol', 'Petrol is an alternative to Diesel, which the constraint requires'],
      Petrol: ['Petrol is an alternative to Diesel, which the constraint requires'],
      Trailer: ['Trailer has the mandatory child Hook, which the constraint excludes'],
    },
    false_optional: {
      Sport: ['Spoiler is a child of Sport, so Sport is selected whenever Spoiler is, and the constraint selects Spoiler whenever Van is selected'],
      Dab: ['Dab is the only child of the group of Radio that can be selected: the constraint excludes Fm'],
    },
  });
  // The explanations themselves are lines only (extensions section 1).
  for (const entries of [...Object.values(result.explanations!.dead), ...Object.values(result.explanations!.false_optional)]) {
    for (const entry of entries) assert.match(entry, /^Line \d+: /);
  }
  assert.deepEqual(result.explanations!.dead.Box, ['Line 31: !Rack']);
});

test('tree paths: a deeper chain reads from the feature up to the excluded ancestor', () => {
  const deep = 'features\n    R\n        optional\n            A\n                optional\n                    B\n                        optional\n                            C\nconstraints\n    !A\n';
  const result = analyzeModel(parseUvl(deep).model, { text: deep });
  assert.deepEqual(result.explanation_paths!.dead, {
    B: ['B is a child of A, which the constraint excludes'],
    C: ['C is a child of B', 'B is a child of A, which the constraint excludes'],
  });
});

test('tree paths: none for a model without anomalies, empty maps', () => {
  const plain = 'features\n    R\n        optional\n            A\n';
  assert.deepEqual(analyzeModel(parseUvl(plain).model, { text: plain }).explanation_paths, { dead: {}, false_optional: {} });
});
