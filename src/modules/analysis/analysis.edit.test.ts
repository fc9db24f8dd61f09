// The edit classifier's worker: classes decided by the engine, "unknown" when the budget runs out
// (never a guess), "invalid" for text that is not UVL; a caller that does not wait gets "pending"
// and the answer later, decided once per pair of texts.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createEditClassifier } from './analysis.edit.ts';

const model = (children: string[], constraints: string[] = []) =>
  `features\n    Root\n        optional\n${children.map((c) => `            ${c}\n`).join('')}${constraints.length ? `\nconstraints\n${constraints.map((c) => `    ${c}\n`).join('')}` : ''}`;

describe('edit classifier (analysis worker)', () => {
  const edits = createEditClassifier(20_000);
  after(() => edits.stop());
  const m = (text: string) => ({ name: 'm.uvl', text });
  const WAIT = 60_000;

  it('decides refactoring, generalization, specialization and arbitrary', async () => {
    assert.equal(await edits.classify(m(model(['A', 'B'])), m(model(['B', 'A'])), WAIT), 'refactoring');
    assert.equal(await edits.classify(m(model(['A'])), m(model(['A', 'B'])), WAIT), 'generalization');
    assert.equal(await edits.classify(m(model(['A', 'B'])), m(model(['A', 'B'], ['A => B'])), WAIT), 'specialization');
    assert.equal(await edits.classify(m(model(['A', 'B'], ['A => B'])), m(model(['A', 'B'], ['B => A'])), WAIT), 'arbitrary');
  });

  it('answers invalid for text that is not UVL', async () => {
    assert.equal(await edits.classify(m('features\n    Root {{{\n'), m(model(['A'])), WAIT), 'invalid');
  });

  it('answers pending to a caller that does not wait, then the class, decided once', async () => {
    const before = m(model(['P', 'Q']));
    const after = m(model(['P', 'Q', 'R']));
    assert.equal(await edits.classify(before, after, 0), 'pending');
    assert.equal(await edits.classify(before, after, WAIT), 'generalization');
    assert.equal(await edits.classify(before, after, 0), 'generalization', 'kept: no wait the second time');
  });

  it('answers unknown when the budget is spent, without deciding', async () => {
    const tight = createEditClassifier(1);
    try {
      // A model large enough that parsing alone outlasts a 1 ms budget.
      const names = Array.from({ length: 4000 }, (_, i) => `F${i}`);
      const big = model(names, names.slice(1, 2000).map((n, i) => `${n} => F${i + 2001} | F${(i * 7) % 4000}`));
      assert.equal(await tight.classify(m(big), m(big.replace('F1 =>', 'F3 =>')), WAIT), 'unknown');
    } finally {
      tight.stop();
    }
  });
});
