// The compiled form against an independent oracle: every configuration of a small model listed
// by brute force (testing/brute-force.support.ts reads the model, not the CNF), and from that
// list the counts under decisions, each feature's commonality, the enumeration, and a
// chi-square test of the uniform sampler; the count of larger corpus models against the counter.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { corpusSkipReason, diskLoader, findCorpus } from '../../../uvl/src/corpus.support.ts';
import { parseUvl, type UvlModel } from '../../../uvl/src/index.ts';
import { countConfigurations, satEncoding } from '../analyze.ts';
import { Deadline } from '../deadline.ts';
import { encodeModel } from '../encode.ts';
import { SatSolver } from '../sat/solver.ts';
import { bruteForceModel, parseValid, TooManyFeatures } from '../testing/brute-force.support.ts';
import { randomModelText, seededRandom } from '../testing/generators.support.ts';
import { compileModel, type CompiledModel, type NarrowTables } from './compiled-model.ts';
import { TABLE_KIND } from './decision-dnnf.ts';

const parse = parseValid;

/** Every configuration, as the set of its selected names, listed by brute force over the names. */
function configurations(model: UvlModel): { names: string[]; configs: Set<string>[] } | undefined {
  let truth;
  try {
    truth = bruteForceModel(model, { maxFeatures: 20 });
  } catch (error) {
    if (error instanceof TooManyFeatures) return undefined;
    throw error;
  }
  const configs: Set<string>[] = [];
  const n = truth.names.length;
  for (let mask = 0; mask < 1 << n; mask++) {
    const selected = new Set(truth.names.filter((_, i) => mask & (1 << i)));
    if (truth.isConfiguration(selected)) configs.push(selected);
  }
  assert.equal(BigInt(configs.length), truth.count);
  return { names: truth.names, configs };
}

const key = (names: Iterable<string>): string => [...names].sort().join(',');

/** Counts, commonality and enumeration under no decisions and a few random ones, against the list. */
function checkAgainstList(compiled: CompiledModel, names: string[], configs: Set<string>[], rand: () => number, where: string): void {
  assert.deepEqual([...compiled.names].sort(), [...names].sort(), `${where}: feature names`);
  const decisionSets: { selected: string[]; deselected: string[] }[] = [{ selected: [], deselected: [] }];
  for (let i = 0; i < 4; i++) {
    const selected: string[] = [];
    const deselected: string[] = [];
    const k = 1 + Math.floor(rand() * 3);
    for (let j = 0; j < k; j++) (rand() < 0.5 ? selected : deselected).push(names[Math.floor(rand() * names.length)]!);
    decisionSets.push({ selected, deselected });
  }
  for (const decisions of decisionSets) {
    const matching = configs.filter((c) => decisions.selected.every((s) => c.has(s)) && decisions.deselected.every((d) => !c.has(d)));
    const label = `${where} under ${JSON.stringify(decisions)}`;
    assert.equal(compiled.count(decisions), BigInt(matching.length), `${label}: count`);
    // The same decisions as signed variables.
    const signed = [...decisions.selected.map((s) => compiled.variableOf(s)!), ...decisions.deselected.map((d) => -compiled.variableOf(d)!)];
    assert.equal(compiled.count(signed), BigInt(matching.length), `${label}: count by variables`);
    const commonality = compiled.commonality(decisions);
    assert.equal(commonality.configurations, BigInt(matching.length), `${label}: commonality total`);
    compiled.names.forEach((name, i) => {
      const expected = matching.filter((c) => c.has(name)).length;
      assert.equal(commonality.counts[i], BigInt(expected), `${label}: commonality of ${name}`);
    });
    const listed = compiled.enumerate(matching.length + 5, decisions).map((c) => key(compiled.selectedNames(c)));
    assert.deepEqual(listed.sort(), matching.map((c) => key(c)).sort(), `${label}: enumeration`);
    const valid = new Set(matching.map((c) => key(c)));
    for (const sample of compiled.sampleUniform(20, 7, decisions)) assert.ok(valid.has(key(compiled.selectedNames(sample))), `${label}: a sample is a configuration`);
  }
}

const corpus = findCorpus();

/** Whether the form holds a TABLE node (a narrow component kept as its formula). */
const hasTableNode = (compiled: CompiledModel): boolean => compiled.form.kind.includes(TABLE_KIND);

// Every check twice: with decision nodes only, and with the narrow components (from two
// variables, on any model) as TABLE nodes, which a wide model such as fm3.uvl gets by default.
for (const narrowTables of ['never', 'always'] as NarrowTables[]) {
  describe(`the compiled form against brute force (narrow components as tables: ${narrowTables})`, () => {
    test('every valid corpus model with at most 20 features', { skip: corpus ? false : corpusSkipReason, timeout: 600_000 }, () => {
      const rand = seededRandom(3);
      let checked = 0;
      let withTables = 0;
      for (const f of corpus!.files) {
        if (!f.valid || f.features === undefined || f.features > 20) continue;
        const text = corpus!.read(f.path);
        const model = parse(text, join(corpus!.dir, f.path));
        if (!model.root) continue;
        const truth = configurations(model);
        if (!truth) continue;
        const compiled = compileModel(model, { text, narrowTables });
        assert.ok(compiled, `${f.path} compiles`);
        checkAgainstList(compiled, truth.names, truth.configs, rand, f.path);
        checked++;
        if (hasTableNode(compiled)) withTables++;
      }
      assert.ok(checked >= 100, `only ${checked} corpus models checked`);
      if (narrowTables === 'always') assert.ok(withTables >= 50, `only ${withTables} of ${checked} forms have a TABLE node`);
      else assert.equal(withTables, 0);
    });

    test('300 generated models', { timeout: 600_000 }, () => {
      const rand = seededRandom(11);
      let withTables = 0;
      for (let i = 0; i < 300; i++) {
        const generated = randomModelText(rand, { features: 3 + Math.floor(rand() * 12), maxConstraints: 5 });
        const model = parse(generated.text);
        const truth = configurations(model)!;
        const compiled = compileModel(model, { text: generated.text, narrowTables });
        assert.ok(compiled);
        checkAgainstList(compiled, truth.names, truth.configs, rand, `generated model ${i}:\n${generated.text}\n`);
        if (hasTableNode(compiled)) withTables++;
      }
      if (narrowTables === 'always') assert.ok(withTables >= 60, `only ${withTables} of 300 forms have a TABLE node`);
    });
  });
}

describe('the compiled form', () => {
  test('a void model: no configuration, no sample, a false d4 root', () => {
    const compiled = compileModel(parse('features\n  A\n    optional\n      B\nconstraints\n  B\n  !B\n'))!;
    assert.equal(compiled.count(), 0n);
    assert.deepEqual(compiled.sampleUniform(3, 1), []);
    assert.equal(compiled.commonality().configurations, 0n);
    assert.equal(compiled.toD4(), 'f 1 0\n');
  });

  test('a deadline that has passed gives null, never a partial form', () => {
    // 60 optional features under random 3-literal constraints: hundreds of decisions.
    const rand = seededRandom(9);
    const names = Array.from({ length: 60 }, (_, i) => `F${i}`);
    const literal = () => `${rand() < 0.5 ? '!' : ''}${names[Math.floor(rand() * names.length)]}`;
    const constraints = Array.from({ length: 150 }, () => `  ${literal()} | ${literal()} | ${literal()}`);
    const text = `features\n  R\n    optional\n${names.map((n) => `      ${n}\n`).join('')}constraints\n${constraints.join('\n')}\n`;
    const model = parse(text);
    assert.equal(compileModel(model, { text, deadline: new Deadline(0) }), null);
    const compiled = compileModel(model, { text });
    assert.ok(compiled);
    assert.equal(compiled.count(), countConfigurations(model, satEncoding(model, text), Deadline.none(), text));
  });

  test('contradicting decisions and unknown names', () => {
    const compiled = compileModel(parse('features\n  A\n    optional\n      B\n      C\n'))!;
    assert.equal(compiled.count(), 4n);
    assert.equal(compiled.count({ selected: ['B'], deselected: ['B'] }), 0n);
    assert.throws(() => compiled.count({ selected: ['Nope'] }), /unknown feature: Nope/);
    assert.throws(() => compiled.count([4]), /not a feature variable/);
  });
});

describe('uniform sampling', () => {
  /** Wilson-Hilferty: the chi-square quantile for p = 0.999. */
  const critical = (df: number): number => df * (1 - 2 / (9 * df) + 3.09 * Math.sqrt(2 / (9 * df))) ** 3;

  test('chi-square against the enumerated configurations of small models, with and without decisions', () => {
    const rand = seededRandom(5);
    let tested = 0;
    for (let i = 0; tested < 12; i++) {
      const generated = randomModelText(rand, { features: 6 + Math.floor(rand() * 6), maxConstraints: 2 });
      const model = parse(generated.text);
      // Every other model with its narrow components as TABLE nodes.
      const compiled = compileModel(model, { narrowTables: tested % 3 === 1 ? 'always' : 'never' })!;
      const total = Number(compiled.count());
      if (total < 8 || total > 300) continue;
      tested++;
      const decisions = tested % 2 === 0 ? { selected: [compiled.names[1]!] } : {};
      const configs = compiled.enumerate(total, decisions).map((c) => key(compiled.selectedNames(c)));
      if (configs.length < 2) continue;
      const n = 60 * configs.length;
      const seen = new Map<string, number>(configs.map((c) => [c, 0]));
      for (const sample of compiled.sampleUniform(n, 1000 + i, decisions)) {
        const k = key(compiled.selectedNames(sample));
        assert.ok(seen.has(k), `a sample of model ${i} extends the decisions`);
        seen.set(k, seen.get(k)! + 1);
      }
      const expected = n / configs.length;
      let chi = 0;
      for (const observed of seen.values()) chi += (observed - expected) ** 2 / expected;
      assert.ok(chi < critical(configs.length - 1), `model ${i}: chi-square ${chi.toFixed(1)} over ${configs.length - 1} degrees of freedom\n${generated.text}`);
    }
  });

  test('reproducible for the same seed, different for another', () => {
    const model = parse('features\n  A\n    or\n      B\n      C\n      D\n    optional\n      E\n      F\n');
    for (const narrowTables of ['never', 'always'] as NarrowTables[]) {
      const a = compileModel(model, { narrowTables })!;
      const b = compileModel(model, { narrowTables })!;
      const draw = (m: CompiledModel, seed: number) => m.sampleUniform(50, seed).map((c) => key(m.selectedNames(c)));
      assert.deepEqual(draw(a, 42), draw(b, 42));
      assert.notDeepEqual(draw(a, 42), draw(a, 43));
    }
  });
});

describe('the compiled count against the counter', () => {
  test('every valid corpus model of at most 1 000 features', { skip: corpus ? false : corpusSkipReason, timeout: 1_200_000 }, () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const f of corpus!.files) {
      if (!f.valid || f.features === undefined || f.features > 1000) continue;
      const text = corpus!.read(f.path);
      const model = parseUvl(text, { fileName: join(corpus!.dir, f.path), loader: diskLoader }).model;
      if (!model.root) continue;
      const expected = countConfigurations(model, satEncoding(model, text), Deadline.none(), text);
      const compiled = compileModel(model, { text });
      assert.ok(compiled, `${f.path} compiles`);
      if (compiled.count() !== expected) wrong.push(`${f.path}: ${compiled.count()}, the counter ${expected}`);
      checked++;
    }
    assert.deepEqual(wrong, []);
    assert.ok(checked >= 150, `only ${checked} corpus models checked`);
  });

  test('the automotive models automotive01 and automotive2_4', { skip: corpus ? false : corpusSkipReason, timeout: 600_000 }, () => {
    const paths = corpus!.files.filter((f) => f.valid && /\/(automotive01|automotive2_4)\.uvl$/.test(f.path)).map((f) => f.path);
    assert.equal(paths.length, 2, 'both are in the corpus');
    for (const path of paths) {
      const text = corpus!.read(path);
      const model = parseUvl(text, { fileName: join(corpus!.dir, path), loader: diskLoader }).model;
      const compiled = compileModel(model, { text });
      assert.ok(compiled, `${path} compiles`);
      assert.equal(compiled.count(), countConfigurations(model, satEncoding(model, text), Deadline.none(), text), path);
      const commonality = compiled.commonality();
      assert.equal(commonality.configurations, compiled.count());
      // Samples under a decision are configurations: the model's CNF with every feature fixed as sampled is satisfiable.
      const enc = encodeModel(model, text);
      const solver = new SatSolver(enc.numVars);
      for (const clause of [...enc.tree, ...enc.definitions, ...enc.constraints.flatMap((k) => k.clauses)]) solver.addClause(clause);
      const decision = [-Math.floor(compiled.features / 3)];
      const samples = compiled.sampleUniform(10, 4, decision);
      assert.equal(samples.length, 10, `${path}: some configuration has the decision`);
      for (const sample of samples) {
        assert.equal(sample[-decision[0]! - 1], 0, `${path}: the decision holds`);
        assert.equal(solver.solve(Array.from(sample, (selected, i) => (selected ? i + 1 : -(i + 1)))), 'sat', `${path}: a sample is a configuration`);
      }
      // A feature's commonality is the count under its selection.
      for (const v of [1, 2, Math.floor(compiled.features / 2), compiled.features]) assert.equal(commonality.counts[v - 1], compiled.count([v]), `${path}: feature ${v}`);
    }
  });

  test('a wide model (fm3.uvl) kept with TABLE nodes answers as with decision nodes only', { skip: corpus ? false : corpusSkipReason, timeout: 600_000 }, () => {
    const path = corpus!.files.find((f) => f.valid && f.path.endsWith('generated/fm3.uvl'))!.path;
    const text = corpus!.read(path);
    const model = parse(text, join(corpus!.dir, path));
    const tables = compileModel(model, { text })!;
    const plain = compileModel(model, { text, narrowTables: 'never' })!;
    assert.ok(hasTableNode(tables), 'the default form of a wide model has TABLE nodes');
    assert.ok(!hasTableNode(plain));
    assert.ok(tables.form.nodes * 10 < plain.form.nodes, `${tables.form.nodes} nodes against ${plain.form.nodes}`);
    const rand = seededRandom(8);
    for (let i = 0; i < 6; i++) {
      const decisions = i === 0 ? [] : Array.from({ length: i }, () => (rand() < 0.5 ? -1 : 1) * (1 + Math.floor(rand() * tables.features)));
      assert.equal(tables.count(decisions), plain.count(decisions), `count under ${decisions}`);
      if (i > 2) continue;
      const a = tables.commonality(decisions);
      const b = plain.commonality(decisions);
      assert.equal(a.configurations, b.configurations);
      assert.deepEqual(a.counts, b.counts, `commonality under ${decisions}`);
    }
    // Samples and the first models are configurations (the count with every feature fixed is 1), the models distinct.
    const isConfiguration = (c: Uint8Array): boolean => plain.count(Array.from(c, (selected, i) => (selected ? i + 1 : -(i + 1)))) === 1n;
    const samples = tables.sampleUniform(30, 5, [2]);
    assert.equal(samples.length, 30);
    assert.ok(samples.every((c) => c[1] === 1 && isConfiguration(c)));
    const first = tables.enumerate(25);
    assert.equal(new Set(first.map((c) => c.join(''))).size, 25);
    assert.ok(first.every(isConfiguration));
    // The d4 file is written from decision nodes either way.
    assert.equal(tables.toD4(), plain.toD4());
  });
});
