// The loss report grouped by kind (loss-report.ts): repeated sentences become one line with a
// count and the names that differ; names common to a group stay in its sentence. Pure.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { groupLosses } from './loss-report.ts';

const FEATURES = ['Bread', 'Cheese', 'Ham', 'Salami'];

describe('loss report grouping', () => {
  it('turns a sentence repeated per feature into one kind with its count and the features', () => {
    const losses = FEATURES.flatMap((f) => [
      `unit \`kcal\` of attribute \`Calories\` of \`${f}\` dropped: UVL attributes have no unit`,
      `unit \`EUR\` of attribute \`Price\` of \`${f}\` dropped: UVL attributes have no unit`,
    ]);
    losses.push('<comments> dropped: UVL keeps no comments from another format');
    assert.deepEqual(groupLosses(losses).map((g) => [g.count, g.kind, g.names.join(', ')]), [
      [4, 'unit `kcal` of attribute `Calories` of `…` dropped: UVL attributes have no unit', 'Bread, Cheese, Ham, Salami'],
      [4, 'unit `EUR` of attribute `Price` of `…` dropped: UVL attributes have no unit', 'Bread, Cheese, Ham, Salami'],
      [1, '<comments> dropped: UVL keeps no comments from another format', ''],
    ]);
  });

  it('keeps renames together, each with its old and new name, and a single loss as written', () => {
    const groups = groupLosses([
      'feature `a.b` renamed to `a_b`: UVL names hold no dot, double quote or line break, and are unique',
      'feature `c.d` renamed to `c_d`: UVL names hold no dot, double quote or line break, and are unique',
      "description of constraint 3 dropped: UVL constraints carry no text ('why')",
    ]);
    assert.equal(groups.length, 2);
    assert.equal(groups[0]!.kind, 'feature `…` renamed to `…`: UVL names hold no dot, double quote or line break, and are unique');
    assert.deepEqual(groups[0]!.names, ['a.b / a_b', 'c.d / c_d']);
    assert.equal(groups[1]!.count, 1);
    assert.equal(groups[1]!.first, "description of constraint 3 dropped: UVL constraints carry no text ('why')");
    assert.deepEqual(groupLosses([]), []);
  });
});
