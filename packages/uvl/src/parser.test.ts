// The language, the diagnostics and the converters' formats on small hand-written models.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkUvl, countModel, createMapLoader, parseUvl, printUvl, toCnf, toGlencoe, toSplot, UvlExportError, type Expression } from './index.ts';

const FULL = `namespace Shop.Main

include
    Boolean.*
    Arithmetic.aggregate-function
    Type

imports
    sub.Payment as pay

features
    Shop {abstract, price 10, tags ['a', 'b'], nested {deep true, ratio 0.5}, constraint Shop => Catalog}
        mandatory
            Catalog cardinality [1..3]
            String "Shop name"
            pay.Payment
        optional
            Integer Stock {unit 'pcs', constraints [Stock > 0, Catalog | Search]}
            Real Discount
            Search
        [1..*]
            A
            B
        [2]
            C
            D
            E
constraints
    Catalog & !Search | A => (B <=> C)
    sum(price) + 2 * 3 >= len("Shop name") / 2 - 1
    avg(Shop, price) != floor(Discount) | ceil(Discount) < 3.5
    "Shop name" == 'acme'
`;

describe('parser', () => {
  test('the whole language parses into the typed model', () => {
    const { model, diagnostics } = parseUvl(FULL);
    assert.deepEqual(diagnostics, []);
    assert.equal(model.namespace?.name, 'Shop.Main');
    assert.deepEqual(model.includes.map((l) => `${l.major}${l.minor ? `.${l.minor}` : ''}`), ['Boolean.*', 'Arithmetic.aggregate-function', 'Type']);
    assert.equal(model.imports[0]!.prefix, 'pay');
    const root = model.root!;
    assert.equal(root.name, 'Shop');
    assert.deepEqual(root.groups.map((g) => g.kind), ['mandatory', 'optional', 'cardinality', 'cardinality']);
    assert.deepEqual(root.groups[2]!.cardinality, { min: 1, max: '*' });
    assert.deepEqual(root.groups[3]!.cardinality, { min: 2, max: 2 });
    const catalog = root.groups[0]!.children[0]!;
    assert.deepEqual(catalog.cardinality, { min: 1, max: 3 });
    assert.equal(root.groups[0]!.children[1]!.name, 'Shop name');
    assert.equal(root.groups[0]!.children[1]!.type, 'String');
    assert.equal(root.attributes.length, 5);
    assert.equal(root.attributes[4]!.kind, 'constraint');
    const c0 = model.constraints[0]!;
    // & binds tighter than |, | tighter than =>, => tighter than <=>
    assert.equal(c0.kind, 'implies');
    assert.equal((c0 as Extract<Expression, { kind: 'implies' }>).left.kind, 'or');
    assert.equal(model.constraints[1]!.kind, 'compare');
    assert.equal(model.constraints[0]!.span.line, 29);
    assert.equal(model.constraints[0]!.span.column, 4);
    assert.deepEqual(countModel(model), { features: 12, constraints: 7 });
  });

  test('the canonical printer round-trips the whole language', () => {
    const { model } = parseUvl(FULL);
    const printed = printUvl(model);
    const again = parseUvl(printed);
    assert.deepEqual(again.diagnostics, []);
    assert.equal(printUvl(again.model), printed);
  });

  test('CRLF, tabs, blank lines and comments anywhere', () => {
    const text = '// head\r\nfeatures\r\n\tA // tail\r\n\r\n\t\t/* block\r\n comment */\r\n\t\toptional\r\n\t\t\tB\r\n\t\t\t// line\r\n\t\t\tC\r\nconstraints\r\n\tB => C // x\r\n';
    const r = parseUvl(text);
    assert.deepEqual(r.diagnostics, []);
    assert.deepEqual(r.model.root!.groups[0]!.children.map((c) => c.name), ['B', 'C']);
    // As in the reference lexer, a block comment runs to the last */ of the text.
    const greedy = parseUvl('features\n    A /* one */\n        optional\n            B /* two */\n');
    assert.deepEqual(greedy.diagnostics, []);
    assert.deepEqual(greedy.model.root!.groups, []);
  });

  test('errors are "Line l:c - message", point at the culprit, and do not cascade', () => {
    const r = checkUvl('features\n    A\n        optional\n            B &\n            C\n            D {x 1,}\nconstraints\n    B =>\n    C | \n    D\n');
    assert.equal(r.valid, false);
    assert.deepEqual(r.errors, [
      "Line 4:14 - expected end of line after feature 'B', found '&'",
      "Line 6:19 - expected an attribute name, found '}'",
      "Line 8:8 - expected a feature name, a number, a string, an aggregate function, '(' or '!', found end of line",
      "Line 9:8 - expected a feature name, a number, a string, an aggregate function, '(' or '!', found end of line",
    ]);
  });

  test('the reference grammar\'s rejections', () => {
    const bad = [
      ['features\n    A\n    mandatory\n        B\n', 3], // group not under its feature
      ['features\n    "Fun.Fun"\n', 2], // dot in a quoted name
      ['features\n    A {Type 1}\n', 2], // keyword as a name
      ['features\n    A\nconstraints\n    A == B == C\n', 4], // chained comparison
      ['features\n    A\nconstraints\n    A + 1\n', 4], // arithmetic is not a constraint
      ['features\n    A\nconstraints\n    (A & A) + 1 == 2\n', 4], // boolean operand of +
      ['features\n    A\nconstraints\n    A-1 == 0\n', 4], // -1 is a number token
      ['features\n    A\nconstraints\n    true\n', 4], // no boolean literals in constraints
      ['// comment\nnamespace N\nfeatures\n    A\n', 2], // namespace must be first
      ['features\n    A\nfeatures\n    B\n', 3], // twice
      ['constraints\n    A\nfeatures\n    A\n', 3], // order
      ['features\n    A\n        optional\n            B\n            C\n                D\n', 6], // child without group
      ['features\n    A {v [1]}\n', 2], // [1] is a cardinality token, not a vector
      ["features\n    A {s ''}\n", 2], // empty string
    ] as const;
    for (const [text, line] of bad) {
      const r = parseUvl(text);
      const errors = r.diagnostics.filter((d) => d.severity === 'error');
      assert.ok(errors.length > 0, `accepted: ${JSON.stringify(text)}`);
      assert.equal(errors[0]!.line, line, `${JSON.stringify(text)}: ${errors[0]!.message}`);
    }
    const good = [
      '',
      'namespace N',
      'features\n    A',
      'features\n    "or"\n        optional\n            "a b-c"\n',
      'features\n    A {v [1 ], w [], x [1, 2.5, true], y {}}\n',
      'features\n    A\nconstraints\n    !A == 1\n    (A) + 1 == 2\n    A - -1 > 0\n',
      'features\n    A\n        optional\n            B\n\n\n            C\n',
      'features\n    A {a 1,\n       b 2}\n',
    ];
    for (const text of good) assert.deepEqual(parseUvl(text).diagnostics, [], JSON.stringify(text));
  });

  test('indentation problems on tab-indented lines are warnings (tab hint)', () => {
    const withTabs = checkUvl('features\n\tA\n\t\toptional\n\t\t\tB\nconstraints\n\tA\n\t\tB\n');
    assert.equal(withTabs.valid, true);
    assert.equal(withTabs.warnings.length, 1);
    assert.match(withTabs.warnings[0]!, /^Line 7:2 - .*tab hint/);
    const withSpaces = checkUvl('features\n    A\n        optional\n            B\nconstraints\n    A\n        B\n');
    assert.equal(withSpaces.valid, false);
  });

  test('imports resolve through the caller\'s loader, and problems are warnings', () => {
    const files = {
      'models/main.uvl': 'imports\n    sub.Pay as p\n    missing\nfeatures\n    Shop\n        optional\n            p.Pay\nconstraints\n    Shop => p.Card\n',
      'models/sub/Pay.uvl': 'features\n    Pay\n        alternative\n            Card\n            Cash\nconstraints\n    Pay => Card | Cash\n',
    };
    const r = parseUvl(files['models/main.uvl'], { fileName: 'models/main.uvl', loader: createMapLoader(files) });
    assert.equal(r.diagnostics.filter((d) => d.severity === 'error').length, 0);
    assert.equal(r.diagnostics.length, 1);
    assert.equal(r.diagnostics[0]!.code, 'import-not-found');
    assert.ok(r.model.imports[0]!.resolved);
    assert.deepEqual(countModel(r.model), { features: 2, constraints: 1 });
    assert.deepEqual(countModel(r.model, { expandImports: true }), { features: 4, constraints: 2 });
    const cnf = toCnf(r.model);
    assert.match(cnf, /^c 3 p\.Card$/m);
    // Without the loader the imported features are unknown: the export says which one.
    const alone = parseUvl(files['models/main.uvl']).model;
    assert.throws(() => toCnf(alone), (e: unknown) => e instanceof UvlExportError && e.featureName === 'p.Card' && /p\.Card/.test(e.message));
  });
});

describe('converters', () => {
  const MODEL = 'features\n    Car\n        mandatory\n            Engine\n        optional\n            Radio\n        alternative\n            Petrol\n            Electric\n        [1..2]\n            X\n            Y\n            Z\nconstraints\n    Electric => !Radio\n    Engine.power > 100\n';

  test('DIMACS: p line, one c line per feature in flamapy order, clauses ending in 0', () => {
    const text = toCnf(parseUvl(MODEL).model);
    const lines = text.split('\n');
    assert.match(lines[0]!, /^p cnf \d+ \d+$/);
    assert.deepEqual(lines.slice(1, 9), ['c 1 Car', 'c 2 Engine', 'c 3 Radio', 'c 4 Petrol', 'c 5 Electric', 'c 6 X', 'c 7 Y', 'c 8 Z']);
    assert.equal(lines[9], 'c left out (not expressible in CNF): Engine.power > 100');
    assert.ok(lines.includes('1 0'), 'root unit clause');
    assert.ok(lines.includes('-1 2 0') && lines.includes('-2 1 0'), 'mandatory');
    assert.ok(lines.includes('-3 1 0'), 'optional');
    assert.ok(lines.includes('-5 -3 0'), 'Electric => !Radio');
    const [, vars, count] = /^p cnf (\d+) (\d+)$/.exec(lines[0]!)!;
    assert.equal(lines.filter((l) => / 0$/.test(l) || l === '0').length, Number(count));
    assert.ok(Number(vars) >= 8);
  });

  test('SPLOT: SXFM tree, groups with their cardinality, clauses, an XML comment for what it cannot say', () => {
    const text = toSplot(parseUvl(MODEL).model);
    assert.equal(
      text,
      [
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
        '<feature_model name="Car">',
        '<feature_tree>',
        ':r Car (Car)',
        '\t:m Engine (Engine)',
        '\t:o Radio (Radio)',
        '\t:g [1,1]',
        '\t\t: Petrol (Petrol)',
        '\t\t: Electric (Electric)',
        '\t:g [1,2]',
        '\t\t: X (X)',
        '\t\t: Y (Y)',
        '\t\t: Z (Z)',
        '</feature_tree>',
        '<constraints>',
        '\t<!-- left out (SXFM cannot express arithmetic, aggregate or string constraints): Engine.power > 100 -->',
        '\tC1: ~Electric or ~Radio',
        '</constraints>',
        '</feature_model>',
      ].join('\n'),
    );
  });

  test('Glencoe: flamapy\'s JSON with sorted features, the tree, constraint terms and a note', () => {
    const json = JSON.parse(toGlencoe(parseUvl(MODEL).model));
    assert.equal(json.id, 'FM_Car');
    assert.deepEqual(Object.keys(json.features), ['Car', 'Electric', 'Engine', 'Petrol', 'Radio', 'X', 'Y', 'Z']);
    assert.deepEqual(json.features.Engine, { name: 'Engine', optional: false, type: 'FEATURE', note: '' });
    assert.deepEqual(json.features.Car, { name: 'Car', optional: true, type: 'XOR', note: '' });
    assert.deepEqual(json.tree.children.map((c: { id: string }) => c.id), ['Electric', 'Engine', 'Petrol', 'Radio', 'X', 'Y', 'Z']);
    assert.deepEqual(json.constraints['Constraint 0'], {
      type: 'ImpliesTerm',
      operands: [{ type: 'FeatureTerm', operands: ['Electric'] }, { type: 'NotTerm', operands: [{ type: 'FeatureTerm', operands: ['Radio'] }] }],
    });
    assert.match(json.note, /Engine\.power > 100/);
    assert.match(toGlencoe(parseUvl(MODEL).model), /^\{\n {4}"id": "FM_Car",\n/);
  });

  test('Glencoe ids: every character outside [A-Za-z0-9_] becomes _, colliding ids get a numeric suffix', () => {
    const text = [
      'features',
      '    "My Shop"',
      '        optional',
      '            "Credit Card"',
      '            "Credit-Card"',
      '            Credit_Card',
      '            "Über:Größe"',
      'constraints',
      '    "Credit Card" => !"Credit-Card" & Credit_Card',
      '',
    ].join('\n');
    const { model, diagnostics } = parseUvl(text);
    assert.deepEqual(diagnostics, []);
    const json = JSON.parse(toGlencoe(model));
    assert.equal(json.id, 'FM_My_Shop');
    // Credit_Card needs no change and keeps its id; the two renamed ones get suffixes in tree order.
    assert.deepEqual(Object.keys(json.features), ['Credit_Card', 'Credit_Card_1', 'Credit_Card_2', 'My_Shop', '_ber_Gr__e']);
    assert.deepEqual(json.features.Credit_Card_1, { name: 'Credit_Card_1', optional: true, type: 'FEATURE', note: '' });
    assert.deepEqual(json.tree.children.map((c: { id: string }) => c.id), ['Credit_Card', 'Credit_Card_1', 'Credit_Card_2', '_ber_Gr__e']);
    assert.deepEqual(json.constraints['Constraint 0'], {
      type: 'ImpliesTerm',
      operands: [
        { type: 'FeatureTerm', operands: ['Credit_Card_1'] },
        { type: 'AndTerm', operands: [{ type: 'NotTerm', operands: [{ type: 'FeatureTerm', operands: ['Credit_Card_2'] }] }, { type: 'FeatureTerm', operands: ['Credit_Card'] }] },
      ],
    });
  });
});
