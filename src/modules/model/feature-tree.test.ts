// The model page's opening depth and its search by feature name.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseUvl } from '../../../packages/uvl/src/index.ts';
import { findFeatures, openingDepth, PAGE_SHOWN_LIMIT } from './feature-tree.ts';

/** A root with `width` optional children per feature, `levels` levels below it: names F_i_j_…. */
function regularTree(width: number, levels: number): string {
  const lines = ['features', '    R'];
  const add = (indent: number, prefix: string, level: number) => {
    lines.push(`${' '.repeat(indent)}optional`);
    for (let i = 0; i < width; i++) {
      lines.push(`${' '.repeat(indent + 4)}${prefix}_${i}`);
      if (level < levels) add(indent + 8, `${prefix}_${i}`, level + 1);
    }
  };
  add(8, 'F', 1);
  return `${lines.join('\n')}\n`;
}

const parse = (text: string) => parseUvl(text).model;

describe('the model page opening depth', () => {
  it('keeps the default view while it shows at most the page limit', () => {
    assert.equal(openingDepth(parse(regularTree(3, 4))), undefined, '121 features: everything');
    assert.equal(openingDepth(parse(regularTree(5, 4))), undefined, '781 features, 156 shown at depth 3: the contract\'s view');
  });

  it('opens less deep when depth 3 would show more than the limit, at least one level', () => {
    // 1 + 8 + 64 + 512 shown at depth 3 > 250; 1 + 8 + 64 = 73 at depth 2.
    assert.equal(openingDepth(parse(regularTree(8, 4))), 2);
    // 300 children of the root: even depth 1 is over the limit, and still shown.
    const wide = `features\n    R\n        optional\n${Array.from({ length: 300 }, (_, i) => `            C${i}\n`).join('')}`;
    assert.equal(openingDepth(parse(wide)), 1, 'one level at least');
    assert.ok(PAGE_SHOWN_LIMIT < 300);
  });

  it('measures a subtree when given its root', () => {
    assert.equal(openingDepth(parse(regularTree(8, 4)), 'F_1'), 2, 'the subtree of F_1 shows 585 features at depth 3, 73 at depth 2');
    assert.equal(openingDepth(parse(regularTree(8, 4)), 'F_1_1_1'), undefined, 'a small subtree opens whole');
    assert.equal(openingDepth(parse(regularTree(8, 4)), 'Nope'), undefined, 'an unknown root is left to the diagram to refuse');
  });
});

describe('finding features by name', () => {
  const m = parse('features\n    Car\n        optional\n            Engine\n                optional\n                    "engine mount"\n                    Turbo\n            Carengine\n');

  it('ranks exact names, then prefixes, then the rest, any case, with the path from the root', () => {
    assert.deepEqual(findFeatures(m, 'ENGINE'), [
      { name: 'Engine', path: ['Car'] },
      { name: 'engine mount', path: ['Car', 'Engine'] },
      { name: 'Carengine', path: ['Car'] },
    ]);
    assert.deepEqual(findFeatures(m, 'turbo'), [{ name: 'Turbo', path: ['Car', 'Engine'] }]);
    assert.deepEqual(findFeatures(m, 'car'), [{ name: 'Car', path: [] }, { name: 'Carengine', path: ['Car'] }]);
  });

  it('answers nothing for a blank query or no match, and at most `limit` names', () => {
    assert.deepEqual(findFeatures(m, '  '), []);
    assert.deepEqual(findFeatures(m, 'wheel'), []);
    assert.equal(findFeatures(parse(regularTree(8, 3)), 'F_', 20).length, 20);
  });
});
