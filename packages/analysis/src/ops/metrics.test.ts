// computeMetrics on small hand-written models (each metric's definition, edge cases), and the
// feature and constraint counts against the corpus manifest (flamapy 2.5.0's numbers).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { corpusSkipReason, diskLoader, findCorpus } from '../../../uvl/src/corpus.support.ts';
import { countModel, parseUvl, type UvlModel } from '../../../uvl/src/index.ts';
import { computeMetrics, isSimpleConstraint } from './metrics.ts';

function parse(text: string): UvlModel {
  const { model, diagnostics } = parseUvl(text);
  const errors = diagnostics.filter((d) => d.severity === 'error');
  assert.deepEqual(errors, [], 'the test model parses');
  return model;
}

const CAR = `namespace Car
features
    Car {abstract}
        mandatory
            Engine {power 120, fuel 'diesel'}
                alternative
                    Diesel
                    Petrol {abstract true}
        optional
            Radio {abstract false}
                or
                    FM
                    DAB
            Turbo
        [1..2]
            Red
            Blue
            Green
constraints
    Diesel => !Turbo
    Turbo
    Red | Blue
    FM <=> !DAB
    Red & Blue
    (Diesel | Petrol) => Radio
    Red | Blue | Green
`;

describe('computeMetrics', () => {
  test('counts every metric of a Boolean model', () => {
    const m = computeMetrics(parse(CAR));
    assert.deepEqual(m, {
      features: 11, // Car Engine Diesel Petrol Radio FM DAB Turbo Red Blue Green
      leaf_features: 8, // Diesel Petrol FM DAB Turbo Red Blue Green
      abstract_features: 2, // Car, Petrol ({abstract false} is not)
      compound_features: 3, // Car Engine Radio
      depth: 2, // Car > Engine > Diesel
      groups: { or: 1, alternative: 1, cardinality: 1 },
      constraints: 7,
      simple_constraints: 4, // Diesel => !Turbo, Turbo, Red | Blue, FM <=> !DAB
      complex_constraints: 3, // Red & Blue, (Diesel | Petrol) => Radio, a 3-literal clause
      features_in_constraints: 9, // Diesel Turbo Red Blue FM DAB Petrol Radio Green
      attributes: 2, // power, fuel
      typed_features: 0,
      language_level: 'boolean',
    });
  });

  test('leaf + compound = features; a lone root has depth 0 and is a leaf', () => {
    const m = computeMetrics(parse('features\n    Root\n'));
    assert.equal(m.features, 1);
    assert.equal(m.leaf_features, 1);
    assert.equal(m.compound_features, 0);
    assert.equal(m.depth, 0);
    assert.equal(m.constraints, 0);
    assert.equal(m.language_level, 'boolean');
  });

  test('an empty model has no features', () => {
    const m = computeMetrics(parse(''));
    assert.equal(m.features, 0);
    assert.equal(m.depth, 0);
  });

  test('cardinality groups of every form count as cardinality; mandatory and optional are no groups', () => {
    const m = computeMetrics(
      parse('features\n    R\n        [2]\n            A\n            B\n        [0..1]\n            C\n            D\n        [1..*]\n            E\n        mandatory\n            F\n        optional\n            G\n'),
    );
    assert.deepEqual(m.groups, { or: 0, alternative: 0, cardinality: 3 });
    assert.equal(m.depth, 1);
    assert.equal(m.leaf_features, 7);
  });

  test('typed features, arithmetic and string constraints raise the language level', () => {
    const arithmetic = computeMetrics(parse('features\n    R {price 3}\n        optional\n            A {price 2}\nconstraints\n    A.price + R.price > 4\n    A\n'));
    assert.equal(arithmetic.language_level, 'arithmetic');
    assert.equal(arithmetic.typed_features, 0);
    assert.equal(arithmetic.features_in_constraints, 2, 'attribute references count their features');
    assert.equal(arithmetic.simple_constraints, 1);
    assert.equal(arithmetic.complex_constraints, 1);
    const aggregate = computeMetrics(parse('features\n    R\n        optional\n            A {price 2}\nconstraints\n    sum(price) < 10\n'));
    assert.equal(aggregate.language_level, 'arithmetic');
    assert.equal(aggregate.features_in_constraints, 0, 'an aggregate over an attribute names no feature');
    const typed = computeMetrics(parse('features\n    R\n        optional\n            Integer n\n            String s\n            Boolean b\n            Real r\n'));
    assert.equal(typed.typed_features, 3, 'a written Boolean type is not a typed feature');
    assert.equal(typed.language_level, 'type');
    const strings = computeMetrics(parse('features\n    R\n        optional\n            A {name \'x\'}\nconstraints\n    len(A.name) > 0\n'));
    assert.equal(strings.language_level, 'type');
    const declared = computeMetrics(parse('include\n    Arithmetic.*\nfeatures\n    R\n'));
    assert.equal(declared.language_level, 'arithmetic', 'an include declares a level');
  });

  test('constraint attributes are constraints; abstract is not an attribute', () => {
    const m = computeMetrics(parse('features\n    R {abstract, constraint A => B, constraints [A, B | !A], note \'x\'}\n        optional\n            A\n            B\n'));
    assert.equal(m.constraints, 3);
    assert.equal(m.simple_constraints, 3);
    assert.equal(m.attributes, 1);
    assert.equal(m.abstract_features, 1);
    assert.equal(m.features_in_constraints, 2);
  });

  test('simple constraints: literals, implications and equivalences of literals, 2-literal clauses', () => {
    const constraint = (text: string) => parse(`features\n    A\n        optional\n            B\n            C\nconstraints\n    ${text}\n`).constraints[0]!;
    for (const t of ['A', '!A', 'A => B', '!A => !B', 'A <=> !B', 'A | B', '!A | !B', '(A => B)']) assert.ok(isSimpleConstraint(constraint(t)), t);
    for (const t of ['A & B', 'A | B | C', '!!A', '!(A & B)', 'A => B | C', '(A | B) => C', 'A => (B => C)', 'A.x > 1']) {
      assert.ok(!isSimpleConstraint(constraint(t)), t);
    }
  });

  test('a reference to an imported feature is one node; imported trees are not counted', () => {
    const text = 'imports\n    sub as s\nfeatures\n    R\n        optional\n            s.Sub\n';
    const sub = 'features\n    Sub\n        optional\n            X\n            Y\n';
    const { model } = parseUvl(text, { fileName: '/m/main.uvl', loader: ({ relativePath }) => (relativePath === 'sub.uvl' ? { fileName: '/m/sub.uvl', text: sub } : undefined) });
    assert.ok(model.imports[0]!.resolved, 'the import resolves');
    const m = computeMetrics(model);
    assert.equal(m.features, 2);
    assert.equal(m.features, countModel(model).features);
  });

  test('deep trees and long constraint chains do not overflow the stack', () => {
    const depth = 250;
    const lines = ['features'];
    for (let i = 0; i < depth; i++) {
      lines.push(`${'    '.repeat(1 + 2 * i)}F${i}`);
      if (i < depth - 1) lines.push(`${'    '.repeat(2 + 2 * i)}optional`);
    }
    lines.push('constraints', `    ${Array.from({ length: 50_000 }, (_, i) => `F${i % depth}`).join(' | ')}`);
    const m = computeMetrics(parse(`${lines.join('\n')}\n`));
    assert.equal(m.depth, depth - 1);
    assert.equal(m.features_in_constraints, depth);
    assert.equal(m.complex_constraints, 1);
  });
});

const corpus = findCorpus();

describe('computeMetrics on the corpus', { skip: corpus ? false : corpusSkipReason }, () => {
  test('features and constraints equal the manifest (flamapy 2.5.0) for every valid model', () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const f of corpus!.files) {
      if (!f.valid || f.features === undefined || f.reader_error) continue;
      const { model } = parseUvl(corpus!.read(f.path), { fileName: join(corpus!.dir, f.path), loader: diskLoader });
      const m = computeMetrics(model);
      checked++;
      if (m.features !== f.features || m.constraints !== f.constraints) wrong.push(`${f.path}: manifest ${f.features}/${f.constraints}, metrics ${m.features}/${m.constraints}`);
      const sum = m.leaf_features + m.compound_features;
      if (sum !== m.features || m.simple_constraints + m.complex_constraints !== m.constraints) wrong.push(`${f.path}: parts do not add up`);
      if (m.features_in_constraints > m.features || m.abstract_features > m.features || m.typed_features > m.features) wrong.push(`${f.path}: a part exceeds the whole`);
    }
    assert.deepEqual(wrong, []);
    assert.ok(checked > 300, `only ${checked} models had counts`);
  });
});
