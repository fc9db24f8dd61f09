// The editor's knowledge of its text: the diagnostics are `hub uvl check`'s lines, a rename
// changes the declaration and every reference, and format is the hub's printer.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkUvl, parseUvl, printUvl } from '../../../../packages/uvl/src/index.ts';
import { analyseText, declarationOf, formatText, renameFeature } from './uvl-document.ts';

const MODEL = `features
    Car
        mandatory
            Engine {weight 3, constraint Engine => Car}
        optional
            "Sun roof"
            Radio

constraints
    Radio => Engine
    "Sun roof" | !Radio
    sum(weight) > 2
`;

const apply = (text: string, changes: { from: number; to: number; insert: string }[]) =>
  [...changes].sort((a, b) => b.from - a.from).reduce((t, c) => t.slice(0, c.from) + c.insert + t.slice(c.to), text);

describe('editor document', () => {
  it('gives the diagnostics of hub uvl check, errors and section-9 warnings, at their offsets', () => {
    for (const text of [MODEL, MODEL.replace('Radio => Engine', 'Radio = Engine'), MODEL.replace('Radio => Engine', 'Radio => Wheel'), '']) {
      const doc = analyseText(text);
      const check = checkUvl(text);
      assert.deepEqual(doc.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message), check.errors);
      assert.deepEqual(doc.diagnostics.filter((d) => d.severity === 'warning').map((d) => d.message), check.warnings);
      assert.equal(doc.valid, check.valid);
    }
    const unknown = analyseText(MODEL.replace('Radio => Engine', 'Radio => Wheel')).diagnostics;
    assert.equal(unknown.length, 1);
    assert.equal(MODEL.replace('Radio => Engine', 'Radio => Wheel').slice(unknown[0]!.from, unknown[0]!.to), 'Wheel');
  });

  it('renames a feature at its declaration and every reference, constraint attributes included, and quotes a name that needs it', () => {
    const doc = analyseText(MODEL);
    const result = renameFeature(doc, 'Engine', 'Motor unit');
    assert.equal(result.ok, true);
    const renamed = apply(MODEL, result.ok ? result.changes : []);
    assert.equal(renamed, MODEL.replaceAll('Engine', '"Motor unit"'));
    assert.deepEqual(checkUvl(renamed), { valid: true, errors: [], warnings: [] });
    const back = renameFeature(analyseText(renamed), 'Motor unit', 'Engine');
    assert.equal(apply(renamed, back.ok ? back.changes : []), MODEL);
  });

  it('refuses a rename onto an existing name, of an unknown feature, or in a text with errors', () => {
    assert.deepEqual(renameFeature(analyseText(MODEL), 'Radio', 'Engine'), { ok: false, message: 'A feature Engine exists already.' });
    assert.equal(renameFeature(analyseText(MODEL), 'Wheel', 'Tyre').ok, false);
    assert.equal(renameFeature(analyseText(MODEL.replace('=>', '=')), 'Radio', 'Tuner').ok, false);
  });

  it('goes from a reference to its declaration', () => {
    const doc = analyseText(MODEL);
    const target = declarationOf(doc, MODEL.indexOf('Radio => Engine') + 2);
    assert.equal(target?.from, MODEL.indexOf('Radio'));
    assert.equal(declarationOf(doc, MODEL.indexOf('constraints') + 3), undefined);
  });

  it('formats with the hub\'s printer, and refuses a text with errors', () => {
    const messy = MODEL.replaceAll('    ', '\t').replace('Radio => Engine', 'Radio   =>   Engine');
    const formatted = formatText(analyseText(messy));
    assert.deepEqual(formatted, { ok: true, text: printUvl(parseUvl(messy).model) });
    assert.equal(formatText(analyseText(MODEL.replace('=>', '='))).ok, false);
  });
});
