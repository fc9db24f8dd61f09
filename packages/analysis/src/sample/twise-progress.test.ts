// twiseSample's progress (issue 37, item 6): while the greedy builds configurations it reports the
// interactions covered of the total known so far; the covered count never falls, never passes the
// total, and the sample is the same with or without a listener.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseUvl } from '../../../uvl/src/index.ts';
import { twiseSample } from './twise.ts';

/** Or-groups of 4 chained by exclusions. */
function chained(groups: number): string {
  const lines = ['features', '    Root', '        optional'];
  for (let g = 0; g < groups; g++) {
    lines.push(`            G${g}`, '                or');
    for (let k = 0; k < 4; k++) lines.push(`                    F${g}_${k}`);
  }
  lines.push('constraints');
  for (let g = 0; g + 1 < groups; g++) lines.push(`    F${g}_0 => !F${g + 1}_1`);
  return `${lines.join('\n')}\n`;
}

test('reports covered of total interactions while the greedy runs, without changing the sample', () => {
  const text = chained(60);
  const model = parseUvl(text).model!;
  const reports: { covered: number; total: number; configurations: number }[] = [];
  const watched = twiseSample(model, { t: 2, seed: 5, text, improve: false, progressMs: 0, onProgress: (p) => reports.push(p) });
  // progressMs 0: one report per configuration the greedy built.
  assert.equal(reports.length, watched.greedy_size);
  for (const [i, r] of reports.entries()) {
    assert.ok(r.covered > 0 && r.covered <= r.total, JSON.stringify(r));
    assert.ok(r.total >= watched.covered, 'the total known never falls below what is finally covered');
    if (i > 0) assert.ok(r.covered >= reports[i - 1]!.covered && r.configurations > reports[i - 1]!.configurations);
  }
  const plain = twiseSample(model, { t: 2, seed: 5, text, improve: false });
  assert.deepEqual(plain.configurations, watched.configurations);
});
