// Warnings of extensions section 9 (a valid model that is probably not what its author meant),
// a file that is not text (one error), and long lists cut to 20 entries. The verdicts stay the
// official parser's: every corpus file keeps its manifest verdict under checkUvl.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkUvl, checkUvlBytes, limitDiagnostics, NOT_TEXT_ERROR } from './check.ts';
import { corpusSkipReason, diskLoader, findCorpus } from './corpus.support.ts';
import { EMPTY_MODEL_WARNING, modelWarnings } from './warnings.ts';
import { parseUvl } from './parser.ts';

const lines = (...l: string[]) => `${l.join('\n')}\n`;

describe('model warnings', () => {
  test('a constraint naming something that is not a feature: valid, with a warning at the name', () => {
    const r = checkUvl(lines('features', '    A', '        optional', '            B', 'constraints', '    C | D', '    A => B'));
    assert.deepEqual(r, { valid: true, errors: [], warnings: ['Line 6:4 - `C` is not a feature: the constraint is left out of the analysis'] });
  });

  test('an attribute constraint and a nested reference are checked too; arithmetic is no warning', () => {
    const r = checkUvl(lines('features', '    A {price 3, constraint !(B & Ghost)}', '        optional', '            B', 'constraints', '    A.price > 2'));
    assert.deepEqual(r.warnings, ['Line 2:33 - `Ghost` is not a feature: the constraint is left out of the analysis']);
  });

  test('an empty model and a model with only a namespace', () => {
    assert.deepEqual(checkUvl(''), { valid: true, errors: [], warnings: [`Line 1:0 - ${EMPTY_MODEL_WARNING}`] });
    assert.deepEqual(checkUvl('namespace N\n').warnings, [`Line 1:0 - ${EMPTY_MODEL_WARNING}`]);
  });

  test('a feature name declared twice, at the second declaration', () => {
    const r = checkUvl(lines('features', '    R', '        optional', '            X', '            Y', '                mandatory', '                    X'));
    assert.deepEqual(r.warnings, ['Line 7:20 - `X` is declared twice (first on line 4): the analysis takes both as one feature']);
  });

  test('a group cardinality no selection meets, or written below zero, at the group', () => {
    const group = (card: string) => checkUvl(lines('features', '    R', `        ${card}`, '            A', '            B', '            C')).warnings;
    assert.deepEqual(group('[3..1]'), ['Line 3:8 - the group cardinality of `R` [3..1] has its upper bound below its lower bound: the parent can never be selected']);
    assert.deepEqual(group('[4..5]'), ['Line 3:8 - the group cardinality of `R` [4..5] asks for at least 4 of its 3 features: the parent can never be selected']);
    assert.deepEqual(group('[-5..3]'), ['Line 3:8 - the group cardinality of `R` [-5..3] has a bound below zero, read as zero']);
    assert.deepEqual(group('[3]'), []);
    assert.deepEqual(group('[1..*]'), []);
  });

  test('warnings in source order, the parser warnings among them', () => {
    const text = lines('features', '    R', '        optional', '            X', '            X', 'constraints', '    Nope');
    const diagnostics = modelWarnings(parseUvl(text).model);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.line]),
      [
        ['duplicate-feature', 5],
        ['unknown-feature', 7],
      ],
    );
  });

  test('a model with syntax errors gets its errors, not guesses about what it lacks', () => {
    const r = checkUvl(lines('features', '    R', '        optional', '            X', 'constraints', '    X => (Nope'));
    assert.equal(r.valid, false);
    assert.deepEqual(r.warnings, []);
  });

  test('a clean model has no warning', () => {
    assert.deepEqual(checkUvl(lines('features', '    R', '        optional', '            X', 'constraints', '    R => X')).warnings, []);
  });
});

describe('bytes and long lists', () => {
  test('a binary file gets one error, not UTF-8 text', () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, ...Array(5000).fill(0xff)]);
    assert.deepEqual(checkUvlBytes(png), { valid: false, errors: [NOT_TEXT_ERROR], warnings: [] });
    assert.equal(NOT_TEXT_ERROR, 'Line 1:0 - not UTF-8 text');
    // Invalid UTF-8 without a NUL byte (Latin-1 text) is not UTF-8 text either.
    assert.deepEqual(checkUvlBytes(Uint8Array.from([0x66, 0x65, 0x61, 0x74, 0xe9, 0x0a])).errors, [NOT_TEXT_ERROR]);
  });

  test('UTF-8 bytes are checked as their text, a byte order mark dropped', () => {
    const text = 'features\n    "Übung 数据"\n';
    const bytes = new TextEncoder().encode(`\uFEFF${text}`);
    assert.deepEqual(checkUvlBytes(bytes), checkUvl(text));
    assert.equal(checkUvlBytes(bytes).valid, true);
  });

  test('limitDiagnostics: at most 20 entries and the number of the rest', () => {
    const many = Array.from({ length: 26140 }, (_, i) => `Line ${i + 1}:0 - error ${i}`);
    const { shown, more } = limitDiagnostics(many);
    assert.equal(shown.length, 20);
    assert.equal(shown[19], many[19]);
    assert.equal(more, 26120);
    assert.deepEqual(limitDiagnostics(['a', 'b'], 20), { shown: ['a', 'b'], more: 0 });
    assert.deepEqual(limitDiagnostics(['a', 'b', 'c'], 2), { shown: ['a', 'b'], more: 1 });
  });
});

const corpus = findCorpus();
test('the verdicts stay the official parser\'s on every corpus file, and missingreference.uvl warns', { skip: corpus ? false : corpusSkipReason }, () => {
  let warned = 0;
  for (const entry of corpus!.files) {
    const path = `${corpus!.dir}/${entry.path}`;
    const r = checkUvl(corpus!.read(entry.path), { fileName: path, loader: diskLoader });
    assert.equal(r.valid, entry.valid, entry.path);
    if (r.warnings.length > 0) warned++;
    if (entry.path.endsWith('faulty/missingreference.uvl')) {
      assert.deepEqual(r.warnings, ['Line 7:4 - `C` is not a feature: the constraint is left out of the analysis']);
    }
  }
  assert.ok(warned > 0);
});
