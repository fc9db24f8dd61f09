// Explanation entries quote each constraint exactly as the file writes it: the outer parentheses
// kept, runs of spaces and tabs kept (also inside a quoted name, where they are the name), only
// the surrounding blanks and a trailing comment left out.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { constraintSource, parseUvl } from '../../uvl/src/index.ts';
import { analyzeModel } from './analyze.ts';
import { seededRandom } from './testing/generators.support.ts';

function explanations(text: string) {
  const { model, diagnostics } = parseUvl(text);
  assert.deepEqual(diagnostics.filter((d) => d.severity === 'error').map((d) => d.message), [], 'the model parses');
  const found = analyzeModel(model, { text, skipCount: true }).explanations;
  assert.ok(found !== null, 'the explanations finished');
  return found;
}

describe('explanation text', () => {
  test('(!A) alone on its line, !"a  b", B  =>   A: quoted as written', () => {
    const text = ['features', '    R', '        optional', '            A', '            B', '            "a  b"', 'constraints', '    (!A)', '    !"a  b"   // a comment', '    B  =>   A', ''].join('\n');
    assert.deepEqual(explanations(text).dead, {
      A: ['Line 8: (!A)'],
      'a  b': ['Line 9: !"a  b"'],
      B: ['Line 8: (!A)', 'Line 10: B  =>   A'],
    });
  });

  test('parentheses around the whole constraint, nested and spaced, and a constraint over two lines', () => {
    const text = ['features', '    R', '        optional', '            C', '            D', 'constraints', '    ( ( C ) )  =>  ( !C )', '    (D =>', '      !D)', ''].join('\n');
    assert.deepEqual(explanations(text).dead, { C: ['Line 7: ( ( C ) )  =>  ( !C )'], D: ['Line 8: (D =>\n      !D)'] });
  });

  test('constraintSource widens a span over its own parentheses only', () => {
    const text = 'features\n    R\n        optional\n            A\n            B\nconstraints\n    (A) | (B)\n    ((A | B))\n';
    const { model } = parseUvl(text);
    assert.deepEqual(
      model.constraints.map((c) => constraintSource(text, c.span)),
      [
        { text: '(A) | (B)', line: 7 },
        { text: '((A | B))', line: 8 },
      ],
    );
  });

  test('random formatting: every entry is its line without the surrounding blanks and the comment', () => {
    const random = seededRandom(22);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    const blank = () => pick([' ', '  ', '   ', '\t', ' \t ']);
    const names = ['A', 'B', 'C', '"a  b"', '"x   y z"', '"tab\there"'];
    let checked = 0;
    for (let round = 0; round < 200; round++) {
      const lines = ['features', '    R', '        optional', ...names.map((n) => `            ${n}`), 'constraints'];
      const written = new Map<number, string>();
      const count = 1 + Math.floor(random() * 4);
      for (let i = 0; i < count; i++) {
        const a = pick(names);
        const b = pick(names);
        let constraint = pick([`!${a}`, `${a}${blank()}=>${blank()}!${b}`, `${a}${blank()}=>${blank()}${b}`, `!(${blank()}${a}${blank()}|${blank()}${b})`, `${a}${blank()}<=>${blank()}!${a}`]);
        for (let k = Math.floor(random() * 3); k > 0; k--) constraint = `(${random() < 0.5 ? '' : blank()}${constraint}${random() < 0.5 ? '' : blank()})`;
        const comment = random() < 0.3 ? `${blank()}// why${blank()}it  is` : '';
        lines.push(`    ${constraint}${random() < 0.5 ? blank() : ''}${comment}`);
        written.set(lines.length, constraint);
      }
      const text = `${lines.join('\n')}\n`;
      const why = explanations(text);
      for (const entries of [why.void, ...Object.values(why.dead), ...Object.values(why.false_optional)]) {
        for (const entry of entries) {
          const m = /^Line (\d+): ([^]*)$/.exec(entry)!;
          assert.equal(m[2], written.get(Number(m[1])), `round ${round}: ${entry}\n${text}`);
          checked++;
        }
      }
    }
    assert.ok(checked > 200, `${checked} entries checked`);
  });
});
