// Edit classes against brute force: both versions enumerated over the union of their features
// (a feature a version lacks is deselected), on hand-written edits and on generated pairs.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseUvl, type UvlModel } from '../../uvl/src/index.ts';
import { Deadline } from './deadline.ts';
import { classifyEdit, type EditKind } from './ops/edit-class.ts';
import { bruteForceModel, keepConstraintLines, type BruteForceModel } from './testing/brute-force.support.ts';
import { randomModelText, seededRandom } from './testing/generators.support.ts';

function parse(text: string): UvlModel {
  const { model, diagnostics } = parseUvl(text);
  assert.deepEqual(diagnostics.filter((d) => d.severity === 'error').map((d) => d.message), [], 'the model parses');
  return model;
}

/** The configurations of a model over `names`, as sorted-name keys. */
function configurations(truth: BruteForceModel, names: string[]): Set<string> {
  const own = new Set(truth.names);
  const out = new Set<string>();
  for (let mask = 0; mask < 1 << names.length; mask++) {
    const selected = names.filter((_, i) => (mask >> i) & 1);
    if (selected.some((n) => !own.has(n))) continue;
    if (truth.isConfiguration(selected)) out.add(selected.join(','));
  }
  return out;
}

function expectedKind(before: UvlModel, after: UvlModel): { kind: EditKind; onlyBefore: Set<string>; onlyAfter: Set<string> } {
  const a = bruteForceModel(before);
  const b = bruteForceModel(after);
  const names = [...new Set([...a.names, ...b.names])].sort();
  const ca = configurations(a, names);
  const cb = configurations(b, names);
  const onlyBefore = new Set([...ca].filter((c) => !cb.has(c)));
  const onlyAfter = new Set([...cb].filter((c) => !ca.has(c)));
  const kind = onlyBefore.size === 0 && onlyAfter.size === 0 ? 'refactoring'
    : onlyBefore.size === 0 ? 'generalization' : onlyAfter.size === 0 ? 'specialization' : 'arbitrary';
  return { kind, onlyBefore, onlyAfter };
}

function check(before: UvlModel, after: UvlModel, label: string): EditKind {
  const got = classifyEdit(before, after);
  const want = expectedKind(before, after);
  assert.equal(got.kind, want.kind, label);
  if (got.onlyBefore) assert.ok(want.onlyBefore.has(got.onlyBefore.join(',')), `${label}: ${got.onlyBefore} is a configuration of the old version only`);
  else assert.equal(want.onlyBefore.size, 0, label);
  if (got.onlyAfter) assert.ok(want.onlyAfter.has(got.onlyAfter.join(',')), `${label}: ${got.onlyAfter} is a configuration of the new version only`);
  else assert.equal(want.onlyAfter.size, 0, label);
  return got.kind;
}

const phone = `features
    Phone
        mandatory
            Screen
        optional
            Camera
            GPS
        alternative
            Basic
            Smart
constraints
    GPS => Smart
`;

describe('classifyEdit', () => {
  test('adding one optional feature is a generalization that lists the feature', () => {
    const after = phone.replace('            GPS\n', '            GPS\n            NFC\n');
    const result = classifyEdit(parse(phone), parse(after));
    assert.equal(result.kind, 'generalization');
    assert.deepEqual(result.addedFeatures, ['NFC']);
    assert.deepEqual(result.removedFeatures, []);
    assert.ok(result.onlyAfter?.includes('NFC'));
    assert.equal(result.onlyBefore, null);
    check(parse(phone), parse(after), 'optional feature added');
  });

  test('reordering children and groups is a refactoring', () => {
    const reordered = `features
    Phone
        alternative
            Smart
            Basic
        optional
            GPS
            Camera
        mandatory
            Screen
constraints
    !Smart => !GPS
`;
    assert.equal(classifyEdit(parse(phone), parse(reordered)).kind, 'refactoring');
    assert.equal(check(parse(phone), parse(reordered), 'reordered'), 'refactoring');
  });

  test('a new constraint specializes, dropping one generalizes, a renamed feature is arbitrary', () => {
    const stricter = phone.replace('    GPS => Smart\n', '    GPS => Smart\n    Camera => GPS\n');
    assert.equal(check(parse(phone), parse(stricter), 'constraint added'), 'specialization');
    assert.equal(check(parse(stricter), parse(phone), 'constraint dropped'), 'generalization');
    const renamed = phone.replaceAll('Camera', 'Cam');
    const result = classifyEdit(parse(phone), parse(renamed));
    assert.equal(result.kind, 'arbitrary');
    assert.deepEqual(result.addedFeatures, ['Cam']);
    assert.deepEqual(result.removedFeatures, ['Camera']);
    check(parse(phone), parse(renamed), 'renamed');
  });

  test('a mandatory feature made optional generalizes; an or-group made alternative specializes', () => {
    const optionalScreen = phone.replace('        mandatory\n            Screen\n', '        optional\n            Screen\n');
    assert.equal(check(parse(phone), parse(optionalScreen), 'mandatory to optional'), 'generalization');
    const orGroup = phone.replace('alternative', 'or');
    assert.equal(check(parse(orGroup), parse(phone), 'or to alternative'), 'specialization');
  });

  test('a large alternative group (counter encoding) against its pairwise-sized sibling', () => {
    const kids = (n: number) => Array.from({ length: n }, (_, i) => `            K${i}\n`).join('');
    const big = `features\n    Root\n        alternative\n${kids(600)}`;
    const bigOr = `features\n    Root\n        or\n${kids(600)}`;
    assert.equal(classifyEdit(parse(big), parse(bigOr)).kind, 'generalization');
    assert.equal(classifyEdit(parse(bigOr), parse(big)).kind, 'specialization');
    assert.equal(classifyEdit(parse(big), parse(big)).kind, 'refactoring');
    // The same counters are recognised across the versions, so this is decided without search.
    const shuffled = `features\n    Root\n        alternative\n${kids(600).split('\n').reverse().join('\n')}`;
    assert.equal(classifyEdit(parse(shuffled), parse(big), { deadline: Date.now() + 60_000 }).kind, 'refactoring');
  });

  test('generated pairs agree with brute force', () => {
    const rand = seededRandom(8128);
    const kinds = new Map<string, number>();
    for (let i = 0; i < 300; i++) {
      const a = randomModelText(rand, { features: 3 + Math.floor(rand() * 7) });
      const modelA = parse(a.text);
      let modelB: UvlModel;
      const mode = i % 3;
      if (mode === 0) {
        // The same tree with a random subset of the constraints.
        modelB = keepConstraintLines(modelA, () => rand() < 0.5);
      } else if (mode === 1) {
        modelB = parse(randomModelText(rand, { features: a.features.length }).text);
      } else {
        // Another model over a few more or fewer features.
        modelB = parse(randomModelText(rand, { features: Math.max(2, a.features.length + Math.floor(rand() * 5) - 2) }).text);
      }
      const kind = check(modelA, modelB, `pair ${i}\n${a.text}`);
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
    for (const kind of ['refactoring', 'generalization', 'specialization', 'arbitrary']) {
      assert.ok((kinds.get(kind) ?? 0) > 0, `the generated pairs include a ${kind} (${JSON.stringify([...kinds])})`);
    }
  });

  test('an expired deadline answers unknown, never a guess', () => {
    const stricter = phone.replace('    GPS => Smart\n', '    GPS => Smart\n    Camera => GPS\n');
    const result = classifyEdit(parse(phone), parse(stricter), { deadline: new Deadline(Date.now() - 1) });
    assert.equal(result.kind, 'unknown');
    assert.equal(result.onlyAfter, null);
  });
});
