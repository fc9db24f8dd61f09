// The exact number of configurations against independent references: brute-force enumeration
// of the model (every corpus model with at most 20 features, a few hundred generated models of
// every group kind and operator) and, for big constraint-free models, a product/sum formula
// over the tree written here.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { corpusSkipReason, findCorpus } from '../../uvl/src/corpus.support.ts';
import { analyzeModel } from './analyze.ts';
import { bruteForceModel, parseValid, TooManyFeatures } from './testing/brute-force.support.ts';
import { GROUP_FORMS, randomModelText, seededRandom } from './testing/generators.support.ts';

const parse = parseValid;

const corpus = findCorpus();

describe('count against brute force', () => {
  test('every valid corpus model with at most 20 features', { skip: corpus ? false : corpusSkipReason, timeout: 600_000 }, () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const f of corpus!.files) {
      if (!f.valid || f.features === undefined || f.features > 20) continue;
      const path = join(corpus!.dir, f.path);
      const text = corpus!.read(f.path);
      const model = parse(text, path);
      if (!model.root) continue;
      let truth;
      try {
        truth = bruteForceModel(model);
      } catch (error) {
        if (error instanceof TooManyFeatures) continue; // imports can make it larger than the manifest says
        throw error;
      }
      checked++;
      const result = analyzeModel(model, { text, timeoutMs: 60_000 });
      if (result.configurations !== String(truth.count) || result.configurations_status !== 'exact') {
        wrong.push(`${f.path}: ${result.configurations} (${result.configurations_status}), brute force ${truth.count}`);
      }
      if (result.satisfiable !== truth.satisfiable) wrong.push(`${f.path}: satisfiable ${result.satisfiable}, brute force ${truth.satisfiable}`);
      if (result.ignored_constraints !== truth.ignoredConstraints) wrong.push(`${f.path}: ignored_constraints ${result.ignored_constraints}, brute force ${truth.ignoredConstraints}`);
    }
    assert.deepEqual(wrong, []);
    assert.ok(checked >= 100, `only ${checked} corpus models checked`);
  });

  test('400 generated models covering every group form and operator', { timeout: 600_000 }, () => {
    const rand = seededRandom(8);
    const wrong: string[] = [];
    const forms = new Set<string>();
    const operators = new Set<string>();
    const counts = new Set<string>();
    for (let i = 0; i < 400 && wrong.length < 5; i++) {
      const g = randomModelText(rand, { features: 3 + Math.floor(rand() * 16) });
      g.groupForms.forEach((x) => forms.add(x));
      g.operators.forEach((x) => operators.add(x));
      const model = parse(g.text);
      const truth = bruteForceModel(model);
      const result = analyzeModel(model, { text: g.text });
      counts.add(result.configurations ?? 'null');
      if (result.configurations !== String(truth.count)) wrong.push(`count ${result.configurations}, brute force ${truth.count}:\n${g.text}`);
      if (result.satisfiable !== truth.satisfiable) wrong.push(`satisfiable ${result.satisfiable}, brute force ${truth.satisfiable}:\n${g.text}`);
    }
    assert.deepEqual(wrong, []);
    assert.deepEqual([...forms].sort(), [...GROUP_FORMS].sort());
    assert.deepEqual([...operators].sort(), ['!', '&', '()', '<=>', '=>', '|'].sort());
    assert.ok(counts.size > 50, `only ${counts.size} different counts`);
  });

  test('hand-checked counts of each group form', () => {
    const group = (head: string, k: number) => `features\n    R\n        ${head}\n${Array.from({ length: k }, (_, i) => `            C${i}\n`).join('')}`;
    const cases: [string, string][] = [
      [group('mandatory', 3), '1'],
      [group('optional', 3), '8'],
      [group('or', 3), '7'],
      [group('alternative', 3), '3'],
      [group('[2]', 4), '6'],
      [group('[1..2]', 4), '10'],
      [group('[2..*]', 4), '11'],
      [group('[0..0]', 2), '1'],
      [group('[5]', 4), '0'],
      [`${group('optional', 2)}constraints\n    C0 <=> !C1\n`, '2'],
      [`${group('optional', 2)}constraints\n    C0 & !C0\n`, '0'],
      // Typed features are selectable; feature cardinality is ignored; arithmetic is left out.
      ['features\n    R {p 1}\n        optional\n            Integer I\n            S cardinality [0..5]\nconstraints\n    R.p > 3\n', '4'],
    ];
    for (const [text, expected] of cases) {
      const result = analyzeModel(parse(text), { text });
      assert.equal(result.configurations, expected, text);
      assert.equal(String(bruteForceModel(parse(text)).count), expected, `the oracle agrees: ${text}`);
    }
  });
});

// ------------------------------------------------------------------ the tree formula

interface Node {
  name: string;
  groups: { kind: string; min: number; max: number; kids: Node[] }[];
}

/**
 * Configurations of the subtree below a selected feature, by recursion: a group multiplies in
 * the number of ways to pick its children (product for mandatory, product of (1 + x) for
 * optional, and for a [min..max] group the coefficients t^min..t^max of prod(1 + x_i t)).
 */
function treeCount(node: Node): bigint {
  let total = 1n;
  for (const g of node.groups) {
    const x = g.kids.map(treeCount);
    if (g.kind === 'mandatory') for (const v of x) total *= v;
    else if (g.kind === 'optional') for (const v of x) total *= 1n + v;
    else {
      let poly = [1n];
      for (const v of x) {
        const next = new Array<bigint>(poly.length + 1).fill(0n);
        poly.forEach((c, k) => {
          next[k]! += c;
          next[k + 1]! += c * v;
        });
        poly = next;
      }
      let ways = 0n;
      for (let k = g.min; k <= Math.min(g.max, x.length); k++) ways += poly[k] ?? 0n;
      total *= ways;
    }
  }
  return total;
}

function bigTree(seed: number, size: number): { text: string; root: Node } {
  const rand = seededRandom(seed);
  const root: Node = { name: 'N0', groups: [] };
  const open: { n: Node; d: number }[] = [{ n: root, d: 0 }];
  let made = 1;
  while (made < size) {
    // Prefer recent nodes (trees of some depth, not only a wide root), at most 12 levels deep.
    const at = Math.max(0, open.length - 1 - Math.floor(rand() * Math.min(open.length, 40)));
    const { n: parent, d } = open[at]!;
    const k = Math.min(1 + Math.floor(rand() * 6), size - made);
    const form = Math.floor(rand() * 6);
    const kids: Node[] = [];
    for (let i = 0; i < k; i++) kids.push({ name: `N${made++}`, groups: [] });
    if (d + 1 < 12) for (const kid of kids) open.push({ n: kid, d: d + 1 });
    if (form === 0) parent.groups.push({ kind: 'mandatory', min: k, max: k, kids });
    else if (form === 1) parent.groups.push({ kind: 'optional', min: 0, max: k, kids });
    else if (form === 2) parent.groups.push({ kind: 'or', min: 1, max: k, kids });
    else if (form === 3) parent.groups.push({ kind: 'alternative', min: 1, max: 1, kids });
    else if (form === 4) {
      const min = Math.floor(rand() * (k + 1));
      const max = min + Math.floor(rand() * (k - min + 1));
      parent.groups.push({ kind: min === max && rand() < 0.5 ? `[${min}]` : `[${min}..${max}]`, min, max, kids });
    } else {
      const min = Math.floor(rand() * (k + 1));
      parent.groups.push({ kind: `[${min}..*]`, min, max: k, kids });
    }
  }
  const lines = ['features'];
  const visit = (n: Node, d: number) => {
    lines.push(`${'    '.repeat(1 + 2 * d)}${n.name}`);
    for (const g of n.groups) {
      lines.push(`${'    '.repeat(2 + 2 * d)}${g.kind}`);
      for (const kid of g.kids) visit(kid, d + 1);
    }
  };
  visit(root, 0);
  return { text: `${lines.join('\n')}\n`, root };
}

describe('count against the tree formula on big constraint-free models', () => {
  for (const [seed, size] of [
    [1, 2_000],
    [2, 3_000],
  ] as const) {
    test(`${size} features through analyzeModel (seed ${seed})`, { timeout: 300_000 }, () => {
      const { text, root } = bigTree(seed, size);
      const model = parse(text);
      const expected = treeCount(root);
      assert.ok(expected > 10n ** 100n, `a big number: ${String(expected).length} digits`);
      const result = analyzeModel(model, { text });
      assert.equal(result.metrics.features, size);
      assert.equal(result.configurations_status, 'exact');
      assert.equal(result.configurations, String(expected));
    });
  }

  test('2 000 features with one harmless constraint: the component counter gives the formula\'s count', { timeout: 300_000 }, () => {
    const { text: tree, root } = bigTree(4, 2_000);
    const text = `${tree}constraints\n    N0 | N1\n`; // N0 is the root: always true
    const result = analyzeModel(parse(text), { text });
    assert.equal(result.configurations_status, 'exact');
    assert.equal(result.configurations, String(treeCount(root)));
  });

  test('the formula itself agrees with brute force on small trees', () => {
    for (let seed = 100; seed < 130; seed++) {
      const { text, root } = bigTree(seed, 6 + (seed % 12));
      assert.equal(treeCount(root), bruteForceModel(parse(text)).count, text);
    }
  });
});
