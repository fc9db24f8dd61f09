// Generated extreme models: one group of 10 000 and 50 000 features, and deep chains.
// Every converter must answer correct results on them and nothing may overflow the call
// stack (the tree walks are iterative). Results are asserted, never times; the figures
// are in `npm run bench:uvl`.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildCnf, checkUvl, countModel, MAX_DEPTH, parseUvl, printUvl, toCnf, toGlencoe, toSplot, type Feature, type GroupKind, type UvlModel } from './index.ts';
import { readModelFile, toFeatureIde } from './formats/index.ts';

/** Root with one group of n features F0..F(n-1), in canonical UVL (printUvl gives it back as is). */
function wideModel(n: number, group: string): string {
  const lines = ['features', '    Root', `        ${group}`];
  for (let i = 0; i < n; i++) lines.push(`            F${i}`);
  return `${lines.join('\n')}\n`;
}

/** A chain F0 > F1 > ... of n features, each the only child of an optional group of the one above. */
function chainText(n: number, indent: string): string {
  const lines = ['features'];
  for (let i = 0; i < n; i++) {
    lines.push(`${indent.repeat(1 + 2 * i)}F${i}`);
    if (i < n - 1) lines.push(`${indent.repeat(2 + 2 * i)}optional`);
  }
  return `${lines.join('\n')}\n`;
}

/** The same chain built as a syntax tree, past the parser's depth limit (the library API accepts any tree). */
function chainModel(n: number): UvlModel {
  const span = { offset: 0, length: 0, line: 1, column: 0 };
  const feature = (name: string): Feature => ({ name, reference: { name, parts: [name], span }, attributes: [], groups: [], span });
  const root = feature('F0');
  let current = root;
  for (let i = 1; i < n; i++) {
    const child = feature(`F${i}`);
    current.groups.push({ kind: 'optional', children: [child], span });
    current = child;
  }
  return { includes: [], imports: [], constraints: [], root };
}

const count = (text: string, part: string) => text.split(part).length - 1;

const GROUPS: { group: string; kind: GroupKind; relation: (n: number) => string; glencoeType: string }[] = [
  { group: 'mandatory', kind: 'mandatory', relation: () => ':m', glencoeType: 'FEATURE' },
  { group: 'optional', kind: 'optional', relation: () => ':o', glencoeType: 'FEATURE' },
  { group: 'or', kind: 'or', relation: (n) => `:g [1,${n}]`, glencoeType: 'OR' },
  { group: 'alternative', kind: 'alternative', relation: () => ':g [1,1]', glencoeType: 'XOR' },
  { group: '[2..5]', kind: 'cardinality', relation: () => ':g [2,5]', glencoeType: 'GENOR' },
];

describe('one group of many features', () => {
  // 50 000 for a group of one relation per feature (mandatory) and one of a single relation (or).
  const cases = [...GROUPS.map((g) => [10_000, g] as const), ...GROUPS.filter((g) => g.kind === 'mandatory' || g.kind === 'or').map((g) => [50_000, g] as const)];
  for (const [n, g] of cases) {
    {
      test(`${n} features in one ${g.group} group: parse, check and every converter`, () => {
        const text = wideModel(n, g.group);
        const { model, diagnostics } = parseUvl(text);
        assert.deepEqual(diagnostics, []);
        assert.deepEqual(checkUvl(text), { valid: true, errors: [], warnings: [] });
        assert.equal(model.root!.groups[0]!.kind, g.kind);
        assert.equal(countModel(model).features, n + 1);

        assert.equal(printUvl(model), text, 'the canonical text comes back unchanged');

        const cnf = buildCnf(model);
        assert.equal(cnf.featureVariables, n + 1);
        assert.deepEqual([cnf.names[0], cnf.names[1], cnf.names[n]], ['Root', 'F0', `F${n - 1}`]);
        const dimacs = toCnf(model);
        assert.match(dimacs, new RegExp(`^p cnf ${cnf.variables} ${cnf.clauses.length}\n`));
        assert.match(dimacs, new RegExp(`\nc ${n + 1} F${n - 1}\n`));
        const clauses = new Set(cnf.clauses.map((c) => c.join(' ')));
        // Each child implies the root in every kind of group.
        for (const v of [2, n + 1]) assert.ok(clauses.has(`-${v} 1`), `child ${v} implies the root`);
        if (g.kind === 'mandatory') {
          assert.equal(cnf.clauses.length, 1 + 2 * n);
          assert.ok(clauses.has(`-1 ${n + 1}`));
        }
        if (g.kind === 'or' || g.kind === 'alternative') assert.ok(clauses.has(['-1', ...Array.from({ length: n }, (_, i) => i + 2)].join(' ')));

        const splot = toSplot(model).split('\n');
        assert.equal(splot.filter((l) => /^\t+:[mog]/.test(l)).length, g.kind === 'mandatory' || g.kind === 'optional' ? n : 1);
        assert.ok(splot.includes(`\t${g.relation(n)}${g.kind === 'mandatory' || g.kind === 'optional' ? ` F${n - 1} (F${n - 1})` : ''}`));
        if (g.kind !== 'mandatory' && g.kind !== 'optional') assert.equal(splot.filter((l) => l.startsWith('\t\t: F')).length, n);

        const glencoe = JSON.parse(toGlencoe(model));
        assert.equal(Object.keys(glencoe.features).length, n + 1);
        assert.equal(glencoe.features.Root.type, g.glencoeType);
        assert.equal(glencoe.features.Root.optional, true);
        for (const name of ['F0', `F${n - 1}`]) assert.equal(glencoe.features[name].optional, g.kind !== 'mandatory', name);
        if (g.kind === 'cardinality') assert.deepEqual([glencoe.features.Root.min, glencoe.features.Root.max], [2, 5]);
        assert.equal(glencoe.tree.children.length, n);
        assert.deepEqual(glencoe.tree.children.slice(0, 3).map((c: { id: string }) => c.id), ['F0', 'F1', 'F10'], 'children sorted by name');
      });
    }
  }
});

describe('deep chains', () => {
  test(`a chain as deep as the parser allows (${MAX_DEPTH} features) is valid and converts`, () => {
    const text = chainText(MAX_DEPTH, '    ');
    const { model, diagnostics } = parseUvl(text);
    assert.deepEqual(diagnostics, []);
    assert.equal(countModel(model).features, MAX_DEPTH);
    assert.equal(printUvl(model), text);
    const cnf = buildCnf(model);
    assert.equal(cnf.featureVariables, MAX_DEPTH);
    assert.equal(cnf.clauses.length, MAX_DEPTH, 'the root, then each feature implies its parent');
    assert.ok(toSplot(model).includes(`\n${'\t'.repeat(MAX_DEPTH - 1)}:o F${MAX_DEPTH - 1} (F${MAX_DEPTH - 1})\n`));
    let node = JSON.parse(toGlencoe(model)).tree;
    for (let i = 1; i < MAX_DEPTH; i++) node = node.children[0];
    assert.deepEqual(node, { id: `F${MAX_DEPTH - 1}` });
  });

  for (const indent of [' ', '\t']) {
    test(`a chain of 5 000 features (${indent === ' ' ? 'spaces' : 'tabs'}) is one syntax error, never a stack overflow`, () => {
      const text = chainText(5_000, indent);
      const line = 2 + 2 * MAX_DEPTH; // the line of feature F<MAX_DEPTH>
      const { diagnostics } = parseUvl(text);
      assert.deepEqual(diagnostics.map((d) => [d.severity, d.code, d.line]), [['error', 'too-deep', line]]);
      // With tabs too: too deep is an error, not a tab-hint warning that would pass a truncated model as valid.
      const check = checkUvl(text);
      assert.equal(check.valid, false);
      assert.deepEqual(check.warnings, []);
      assert.match(check.errors[0]!, new RegExp(`^Line ${line}:\\d+ - feature tree nested more than ${MAX_DEPTH} levels deep$`));
    });
  }

  test('3 000 nested parentheses are a valid constraint (as for the reference parser) that every walk handles', () => {
    const wrapped = (inner: string, n: number) => `${'('.repeat(n)}${inner}${')'.repeat(n)}`;
    const text = `features\n    A\n        optional\n            B\n            C\nconstraints\n    ${wrapped('A', 3_000)}\n    ${wrapped(`B => ${wrapped('!C | A', 3_000)}`, 3_000)}\n`;
    const { model, diagnostics } = parseUvl(text);
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(checkUvl(text), { valid: true, errors: [], warnings: [] });
    // Parentheses add no node: the tree is as shallow as the operators make it.
    assert.deepEqual(model.constraints.map((c) => c.kind), ['ref', 'implies']);
    assert.equal(printUvl(model).split('constraints\n')[1], '    A\n    B => !C | A\n');
    assert.match(toCnf(model), /^p cnf /m);
    assert.ok(toSplot(model).includes('C1: A\n\tC2: ~B or ~C or A'));
    assert.deepEqual(Object.keys(JSON.parse(toGlencoe(model)).constraints).length, 2);
  });

  test('operators nested deeper than MAX_DEPTH inside any number of parentheses: one too-deep error, never an overflow', () => {
    const n = 3_000;
    const text = `features\n    A\nconstraints\n    ${'(A & '.repeat(n)}A${')'.repeat(n)}\n    ${'!('.repeat(n)}A${')'.repeat(n)}\n`;
    const { diagnostics } = parseUvl(text);
    assert.deepEqual(diagnostics.map((d) => [d.code, d.line]), [['too-deep', 4], ['too-deep', 5]]);
  });

  test('a syntax tree 5 000 features deep converts to CNF, SPLOT and UVL without overflowing', () => {
    const n = 5_000;
    const model = chainModel(n);
    assert.equal(countModel(model).features, n);
    const cnf = buildCnf(model);
    assert.equal(cnf.featureVariables, n);
    assert.equal(cnf.clauses.length, n);
    assert.ok(toCnf(model).endsWith(`\n-${n} ${n - 1} 0`));
    const splot = toSplot(model);
    assert.equal(count(splot, ':o '), n - 1);
    assert.ok(splot.includes(`\n${'\t'.repeat(n - 1)}:o F${n - 1} (F${n - 1})\n`));
    const uvl = printUvl(model).split('\n');
    assert.equal(uvl.length, 1 + n + (n - 1) + 1);
    assert.equal(uvl.at(-2), `${'    '.repeat(2 * n - 1)}F${n - 1}`);
  });

  test('a syntax tree 2 500 features deep converts to Glencoe without overflowing', () => {
    // Glencoe's indented JSON grows with the square of the depth (2 500 levels: 125 MB of
    // text, 5 000: 500 MB, near the longest string V8 allows); 2 500 is already past the
    // depth at which JSON.stringify, which recurses, overflows the stack.
    const n = 2_500;
    const glencoe = toGlencoe(chainModel(n));
    assert.ok(glencoe.startsWith('{\n    "id": "FM_F0",\n    "name": "FM_F0",\n    "features": {\n'));
    assert.equal(count(glencoe, '"children": ['), n - 1);
    assert.equal(count(glencoe, '"optional": true'), n);
    assert.ok(glencoe.includes(`\n${'    '.repeat(2 * n)}"id": "F${n - 1}"\n`));
    assert.ok(glencoe.endsWith('\n    },\n    "constraints": {}\n}'));
  });
});

// Extensions section 10 ("Limits said at the door"): the shapes the hub's tests stage and show
// (model.extreme.test.ts) go through every writer and back through every reader here.
describe('the extremes of the hub: 150 000 children, 20 000 levels', () => {
  test('a root with 150 000 children parses, prints and converts to every format and back', () => {
    const n = 150_000;
    const text = wideModel(n, 'optional');
    const { model, diagnostics } = parseUvl(text);
    assert.deepEqual(diagnostics, []);
    assert.equal(printUvl(model), text);
    assert.equal(buildCnf(model).featureVariables, n + 1);
    assert.match(toCnf(model), new RegExp(`\nc ${n + 1} F${n - 1}\n`));
    const splot = toSplot(model);
    const glencoe = toGlencoe(model);
    const featureIde = toFeatureIde(model).xml;
    for (const [name, written] of [['m.sxfm', splot], ['m.json', glencoe], ['m.xml', featureIde]] as const) {
      const read = readModelFile(name, written);
      assert.deepEqual(read.errors, [], name);
      assert.equal(countModel(parseUvl(read.uvl!).model).features, n + 1, name);
    }
  });

  test('a syntax tree 20 000 features deep counts and converts to CNF, SPLOT and FeatureIDE without overflowing', () => {
    // (UVL's and Glencoe's indented texts of it pass the longest string V8 allows; the parser
    // refuses any text nested deeper than MAX_DEPTH with one error, so no stored model is this deep.)
    const n = 20_000;
    const model = chainModel(n);
    assert.equal(countModel(model).features, n);
    assert.ok(toCnf(model).endsWith(`\n-${n} ${n - 1} 0`));
    assert.equal(count(toSplot(model), ':o '), n - 1);
    const xml = toFeatureIde(model).xml;
    assert.ok(xml.includes('\t\t<and mandatory="true" name="F0">\n'));
    assert.equal(count(xml, '<and name="F'), n - 2);
    assert.ok(xml.includes(`\n${'\t'.repeat(n + 1)}<feature name="F${n - 1}"/>\n`));
  });
});
