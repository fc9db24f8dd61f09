// The compiled form stored as bytes and loaded (issue 37, item 1): a loaded form answers every
// query as the compiled one (counts under decisions, commonality, uniform samples, enumeration,
// the d4 file), with TABLE nodes or without; bytes of another model, truncated or of another
// layout are refused (the caller then compiles).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { corpusSkipReason, findCorpus } from '../../../uvl/src/corpus.support.ts';
import type { UvlModel } from '../../../uvl/src/index.ts';
import { parseValid } from '../testing/brute-force.support.ts';
import { randomModelText, seededRandom } from '../testing/generators.support.ts';
import { compileModel, type CompiledModel, type NarrowTables } from './compiled-model.ts';
import { compiledFormBytes, compiledFromBytes, StoredFormError } from './stored-form.ts';

const corpus = findCorpus();

/** The loaded form against the compiled one on a few decisions drawn from the model's features. */
function assertSameAnswers(compiled: CompiledModel, loaded: CompiledModel, label: string): void {
  assert.deepEqual(loaded.names, compiled.names, label);
  assert.equal(loaded.count(), compiled.count(), `${label}: count`);
  const names = compiled.names;
  const decisions = [
    { selected: [names[names.length - 1]!], deselected: [] },
    { selected: [], deselected: [names[Math.floor(names.length / 2)]!] },
    { selected: [names[1] ?? names[0]!], deselected: [names[names.length - 1]!] },
  ];
  for (const d of decisions) {
    assert.equal(loaded.count(d), compiled.count(d), `${label}: count under ${JSON.stringify(d)}`);
    assert.deepEqual(loaded.commonality(d), compiled.commonality(d), `${label}: commonality under ${JSON.stringify(d)}`);
  }
  assert.deepEqual(loaded.sampleUniform(5, 7), compiled.sampleUniform(5, 7), `${label}: a uniform sample`);
  assert.deepEqual(loaded.enumerate(4), compiled.enumerate(4), `${label}: the first configurations`);
  assert.equal(loaded.ignoredConstraints, compiled.ignoredConstraints);
}

function roundTrip(text: string, label: string, narrowTables: NarrowTables = 'wide'): { bytes: Uint8Array; model: UvlModel } {
  const model = parseValid(text);
  const compiled = compileModel(model, { text, narrowTables })!;
  const bytes = compiledFormBytes(compiled);
  // Through a Buffer at an odd offset, as a store's read may give it.
  const copied = Buffer.concat([Buffer.alloc(3), Buffer.from(bytes)]).subarray(3);
  const loaded = compiledFromBytes(model, copied, text);
  assertSameAnswers(compiled, loaded, label);
  if (narrowTables !== 'always') assert.equal(loaded.toD4(), compiled.toD4(), `${label}: the d4 file`);
  return { bytes, model };
}

describe('the compiled form stored and loaded', () => {
  test('answers as the compiled form: random models, with and without TABLE nodes', () => {
    const rand = seededRandom(37);
    for (let i = 0; i < 40; i++) {
      const { text } = randomModelText(rand, { features: 6 + (i % 10), maxConstraints: 5 });
      roundTrip(text, `random model ${i}`, 'never');
      roundTrip(text, `random model ${i} (tables)`, 'always');
    }
  });

  test('answers as the compiled form: corpus models (fm3.uvl has TABLE nodes)', { skip: corpus ? false : corpusSkipReason, timeout: 300_000 }, () => {
    for (const path of ['parser-tests/generated/fm3.uvl', 'real/Feature_Models/Operating_Systems/CDL/gps4020.uvl']) {
      const text = corpus!.read(path);
      const { bytes } = roundTrip(text, path);
      console.log(`# ${path}: stored form ${(bytes.byteLength / 1024).toFixed(0)} KB`);
    }
  });

  test('refuses bytes of another model, truncated, or of another layout', () => {
    const a = 'features\n    A\n        optional\n            B\n            C\n';
    const b = 'features\n    A\n        optional\n            B\n';
    const bytes = compiledFormBytes(compileModel(parseValid(a))!);
    assert.throws(() => compiledFromBytes(parseValid(b), bytes), StoredFormError);
    assert.throws(() => compiledFromBytes(parseValid(a), bytes.subarray(0, bytes.length - 4)), StoredFormError);
    assert.throws(() => compiledFromBytes(parseValid(a), bytes.subarray(0, bytes.length - 1)), StoredFormError);
    const other = bytes.slice();
    other[4] = 99; // the layout's number
    assert.throws(() => compiledFromBytes(parseValid(a), other), StoredFormError);
    assert.equal(compiledFromBytes(parseValid(a), bytes).count(), 4n);
  });
});
