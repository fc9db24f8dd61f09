// analyzeModel against the brute-force oracle on small models: satisfiable, core, dead,
// variant, false-optional, atomic sets, a valid sample configuration, ignored constraints;
// and every explanation (void, dead, false-optional) checked for sufficiency and minimality
// by enumerating the model with constraints removed.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseUvl, type UvlModel } from '../../uvl/src/index.ts';
import { analyzeModel } from './analyze.ts';
import type { AnalysisResult } from './types.ts';
import { bruteForceModel, keepConstraintLines, type BruteForceModel } from './testing/brute-force.support.ts';
import { randomModelText, seededRandom } from './testing/generators.support.ts';

function parse(text: string): UvlModel {
  const { model, diagnostics } = parseUvl(text);
  assert.deepEqual(diagnostics.filter((d) => d.severity === 'error').map((d) => d.message), [], 'the model parses');
  return model;
}

/** Differences between the engine's anomalies and the oracle's, as readable lines. */
function compare(result: AnalysisResult, truth: BruteForceModel): string[] {
  const out: string[] = [];
  const same = (what: string, a: unknown, b: unknown) => {
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push(`${what}: engine ${JSON.stringify(a)}, brute force ${JSON.stringify(b)}`);
  };
  same('satisfiable', result.satisfiable, truth.satisfiable);
  same('configurations', result.configurations, String(truth.count));
  same('core', result.core, truth.core);
  same('dead', result.dead, truth.dead);
  same('variant', result.variant, truth.variant);
  same('false_optional', result.false_optional, truth.falseOptional);
  same('atomic_sets', result.atomic_sets, truth.atomicSets);
  same('ignored_constraints', result.ignored_constraints, truth.ignoredConstraints);
  same('boolean_only', result.boolean_only, truth.ignoredConstraints === 0);
  same('timeouts', result.timeouts, undefined);
  if (truth.satisfiable) {
    if (!result.sample_configuration) out.push('no sample configuration for a satisfiable model');
    else if (!truth.isConfiguration(result.sample_configuration)) out.push(`sample configuration ${JSON.stringify(result.sample_configuration)} is not a configuration`);
  }
  return out;
}

type Anomaly = { kind: 'void' } | { kind: 'dead' | 'false_optional'; feature: string };

function holds(model: UvlModel, anomaly: Anomaly): boolean {
  const t = bruteForceModel(model);
  if (anomaly.kind === 'void') return !t.satisfiable;
  if (!t.satisfiable) return false;
  return (anomaly.kind === 'dead' ? t.dead : t.falseOptional).includes(anomaly.feature);
}

/**
 * Checks one explanation: each entry is `Line <n>: <the source text of that line>`; keeping only
 * the listed constraints keeps the anomaly (sufficient); keeping only the listed constraints
 * but one, for each one, removes it (minimal). An empty explanation needs the reason 'tree' and
 * the anomaly with no constraint at all.
 *
 * Minimality is of the set with the tree, not of the whole model: when an anomaly has two
 * independent causes (`!F0` and `!F2` with F2 mandatory both make a model void), removing one
 * listed constraint from the whole model cannot remove the anomaly, whatever set is listed.
 */
function checkExplanation(text: string, model: UvlModel, result: AnalysisResult, anomaly: Anomaly, lines: string[] | undefined): string[] {
  const name = anomaly.kind === 'void' ? 'void' : `${anomaly.kind} ${anomaly.feature}`;
  if (lines === undefined) return [`${name}: no explanation`];
  const source = text.split('\n');
  const listed: number[] = [];
  for (const entry of lines) {
    const m = /^Line (\d+): (.+)$/.exec(entry);
    if (!m) return [`${name}: malformed entry ${JSON.stringify(entry)}`];
    const line = Number(m[1]);
    if (source[line - 1]?.trim() !== m[2]) return [`${name}: ${JSON.stringify(entry)} does not quote line ${line} (${JSON.stringify(source[line - 1])})`];
    listed.push(line);
  }
  const key = anomaly.kind === 'void' ? 'void' : anomaly.feature;
  if (listed.length === 0) {
    if (result.reasons?.[key] !== 'tree') return [`${name}: empty explanation without the reason 'tree'`];
    if (!holds(keepConstraintLines(model, () => false), anomaly)) return [`${name}: empty explanation, but the tree alone does not cause it`];
    return [];
  }
  if (result.reasons?.[key] !== undefined) return [`${name}: a reason ${result.reasons[key]} beside a non-empty explanation`];
  if (!holds(keepConstraintLines(model, (l) => listed.includes(l)), anomaly)) return [`${name}: not sufficient: ${JSON.stringify(lines)}`];
  for (const l of listed) {
    if (holds(keepConstraintLines(model, (x) => x !== l && listed.includes(x)), anomaly)) return [`${name}: not minimal: the listed constraints without line ${l} still cause it: ${JSON.stringify(lines)}`];
  }
  return [];
}

function checkAllExplanations(text: string, model: UvlModel, result: AnalysisResult): string[] {
  const out: string[] = [];
  if (result.satisfiable === false) out.push(...checkExplanation(text, model, result, { kind: 'void' }, result.explanations!.void));
  const deadKeys = Object.keys(result.explanations!.dead).sort();
  if (JSON.stringify(deadKeys) !== JSON.stringify(result.dead ?? [])) out.push(`explained dead ${JSON.stringify(deadKeys)} != dead ${JSON.stringify(result.dead)}`);
  const foKeys = Object.keys(result.explanations!.false_optional).sort();
  if (JSON.stringify(foKeys) !== JSON.stringify(result.false_optional ?? [])) out.push(`explained false-optional ${JSON.stringify(foKeys)} != ${JSON.stringify(result.false_optional)}`);
  for (const f of result.dead ?? []) out.push(...checkExplanation(text, model, result, { kind: 'dead', feature: f }, result.explanations!.dead[f]));
  for (const f of result.false_optional ?? []) out.push(...checkExplanation(text, model, result, { kind: 'false_optional', feature: f }, result.explanations!.false_optional[f]));
  return out;
}

describe('anomalies against brute force', () => {
  test('hand-written models', () => {
    const cases = [
      // Dead by a constraint; a false-optional feature; an atomic set.
      'features\n    Car\n        mandatory\n            Engine\n                alternative\n                    Diesel\n                    Petrol\n        optional\n            Turbo\n            Radio\n            Nav\nconstraints\n    Diesel => !Turbo\n    Diesel\n    Engine => Radio\n    Nav <=> Turbo\n',
      // Dead by the tree alone: a group that cannot be met.
      'features\n    R\n        optional\n            G\n                [3]\n                    A\n                    B\n            H\n',
      // Void by the tree alone.
      'features\n    R\n        [2..2]\n            A\n',
      // Void by constraints.
      'features\n    R\n        optional\n            A\nconstraints\n    A\n    !A | !R\n',
      // Duplicate-free, typed features and an ignored constraint.
      'features\n    R {p 1}\n        or\n            Integer A\n            B cardinality [0..3]\nconstraints\n    R.p > 0\n    A => B\n',
    ];
    const wrong: string[] = [];
    for (const text of cases) {
      const model = parse(text);
      const result = analyzeModel(model, { text });
      for (const d of compare(result, bruteForceModel(model))) wrong.push(`${d}\n${text}`);
      for (const d of checkAllExplanations(text, model, result)) wrong.push(`${d}\n${text}`);
    }
    assert.deepEqual(wrong, []);
  });

  test('300 generated models: core, dead, variant, false-optional, atomic sets, sample, explanations', { timeout: 600_000 }, () => {
    const rand = seededRandom(4242);
    const wrong: string[] = [];
    const seen = { void: 0, dead: 0, falseOptional: 0, atomic: 0, treeReason: 0, explained: 0 };
    for (let i = 0; i < 300 && wrong.length < 5; i++) {
      const g = randomModelText(rand, { features: 3 + Math.floor(rand() * 10), maxConstraints: 5 });
      const model = parse(g.text);
      const truth = bruteForceModel(model);
      const result = analyzeModel(model, { text: g.text });
      const diffs = [...compare(result, truth), ...checkAllExplanations(g.text, model, result)];
      if (diffs.length > 0) wrong.push(`${diffs.join('\n')}\n${g.text}`);
      if (!truth.satisfiable) seen.void++;
      if (truth.dead.length > 0) seen.dead++;
      if (truth.falseOptional.length > 0) seen.falseOptional++;
      if (truth.atomicSets.length > 0) seen.atomic++;
      if (result.reasons) seen.treeReason++;
      if (result.explanations!.void.length + Object.values(result.explanations!.dead).flat().length + Object.values(result.explanations!.false_optional).flat().length > 0) seen.explained++;
    }
    assert.deepEqual(wrong, []);
    // The generator must produce every kind of anomaly, or this test proves little.
    for (const [k, v] of Object.entries(seen)) assert.ok(v >= 10, `only ${v} models with ${k}`);
  });

  test('an empty file: void, with an empty explanation and the reason tree (no constraint causes it)', () => {
    const result = analyzeModel(parse(''), { text: '' });
    assert.equal(result.satisfiable, false);
    assert.equal(result.configurations, '0');
    assert.deepEqual(result.explanations?.void, []);
    assert.deepEqual(result.reasons, { void: 'tree' });
  });

  test('the oracle on a model checked by hand', () => {
    const t = bruteForceModel(parse('features\n    Car\n        mandatory\n            Engine\n                alternative\n                    Diesel\n                    Petrol\n        optional\n            Turbo\n            Radio\nconstraints\n    Diesel => !Turbo\n    Turbo\n'));
    assert.equal(t.count, 2n); // Radio free; Petrol forced by Turbo
    assert.deepEqual(t.core, ['Car', 'Engine', 'Petrol', 'Turbo']);
    assert.deepEqual(t.dead, ['Diesel']);
    assert.deepEqual(t.variant, ['Radio']);
    assert.deepEqual(t.falseOptional, ['Petrol', 'Turbo']); // Petrol: whenever Engine is, as Diesel is dead
    assert.deepEqual(t.atomicSets, [['Car', 'Engine', 'Petrol', 'Turbo']]);
    assert.ok(t.isConfiguration(['Car', 'Engine', 'Petrol', 'Turbo']));
    assert.ok(!t.isConfiguration(['Car', 'Engine', 'Diesel', 'Turbo']));
  });
});

describe('results as they come (onProgress)', () => {
  test('a model without its compiled form is counted last: the anomalies and explanations come before the count', () => {
    const text = 'features\n    Car\n        mandatory\n            Engine\n                alternative\n                    Diesel\n                    Petrol\n        optional\n            Turbo\n            Radio\nconstraints\n    Diesel => !Turbo\n    Turbo\n';
    const reports: { partial: AnalysisResult; running: string[] }[] = [];
    const final = analyzeModel(parse(text), { text, useCompiledForm: false, onProgress: (partial, running) => reports.push({ partial, running: [...running] }) });
    assert.deepEqual(reports.map((r) => r.running), [
      ['satisfiable', 'backbone', 'count', 'false_optional', 'atomic_sets', 'explanations'],
      ['false_optional', 'atomic_sets', 'explanations', 'count'],
      ['false_optional', 'atomic_sets', 'explanations', 'count'],
      ['atomic_sets', 'explanations', 'count'],
      ['explanations', 'count'],
      ['count'],
    ]);
    const beforeCount = reports.at(-1)!.partial;
    assert.equal(beforeCount.configurations, null);
    assert.deepEqual(beforeCount.explanations, final.explanations);
    assert.deepEqual(beforeCount.atomic_sets, final.atomic_sets);
    assert.equal(final.configurations, '2');
  });

  test('core and dead are reported before the count, the count before the atomic sets, each with what is still running', () => {
    const text = 'features\n    Car\n        mandatory\n            Engine\n                alternative\n                    Diesel\n                    Petrol\n        optional\n            Turbo\n            Radio\nconstraints\n    Diesel => !Turbo\n    Turbo\n';
    const reports: { partial: AnalysisResult; running: string[] }[] = [];
    const final = analyzeModel(parse(text), { text, onProgress: (partial, running) => reports.push({ partial, running: [...running] }) });
    assert.deepEqual(reports.map((r) => r.running[0]), ['satisfiable', 'count', 'false_optional', 'atomic_sets', 'explanations']);
    const [start, afterBackbone, afterCount, , afterSets] = reports;
    assert.equal(start!.partial.satisfiable, null);
    assert.equal(start!.partial.metrics.features, 6, 'the metrics come first');
    assert.deepEqual([afterBackbone!.partial.core, afterBackbone!.partial.dead, afterBackbone!.partial.configurations], [final.core, final.dead, null]);
    assert.deepEqual([afterCount!.partial.configurations, afterCount!.partial.atomic_sets], ['2', null]);
    assert.ok(afterCount!.running.includes('atomic_sets'));
    assert.deepEqual(afterSets!.partial.atomic_sets, final.atomic_sets);
    assert.deepEqual(afterSets!.partial.explanations!.dead, {}, 'explanations come last');
    // Copies: the engine's later work does not change what was reported.
    assert.notEqual(afterBackbone!.partial.explanations, final.explanations);
  });
});

describe('the estimate when the exact count runs out of time (extensions 6a)', () => {
  // 12 free optional features and a constraint: 2^11 * 3 = 6 144 configurations, above one cell (73).
  const text = `features\n    R\n        optional\n${Array.from({ length: 12 }, (_, i) => `            F${i}\n`).join('')}constraints\n    F0 => F1 | F2\n`;

  test('configurations null, configurations_estimate within (1 + ε) of the count, with its guarantee', () => {
    const model = parse(text);
    const exact = analyzeModel(model, { text });
    assert.equal(exact.configurations, String(2 ** 12 - 2 ** 11 / 4));
    assert.equal(exact.configurations_estimate, undefined, 'no estimate beside an exact count');
    const r = analyzeModel(model, { text, useCompiledForm: false, countBudgetMs: 0, estimateFactor: false });
    assert.equal(r.configurations, null);
    assert.equal(r.configurations_status, 'timeout');
    assert.deepEqual(r.timeouts, ['count']);
    const e = r.configurations_estimate!;
    assert.ok(Number(e.value) <= 3584 * 1.8 && Number(e.value) * 1.8 >= 3584, `estimate ${e.value}`);
    assert.equal(e.epsilon, 0.8);
    assert.equal(e.delta, 0.2);
    assert.match(e.method, /ApproxMC/);
    assert.ok(Math.abs(e.log10 - Math.log10(Number(e.value))) < 0.01);
    // Everything else is still there.
    assert.deepEqual(r.core, ['R']);
    assert.equal(r.variant!.length, 12);
  });
  test('the estimate counts the components it can: when that is all of them, the count is exact after all, not an estimate', () => {
    const model = parse(text);
    const r = analyzeModel(model, { text, useCompiledForm: false, countBudgetMs: 0 });
    assert.equal(r.configurations, '3584');
    assert.equal(r.configurations_status, 'exact');
    assert.equal(r.configurations_estimate, undefined);
    assert.equal(r.timeouts, undefined, 'nothing ran out in the end');
  });
});

describe('a constraint on one huge line', () => {
  test('a disjunction of 200 000 terms (a 1 MB line) is analysed, not a call stack overflow', () => {
    const terms = Array.from({ length: 200_000 }, (_, i) => `F${i % 3}`).join(' | ');
    const text = `features\n    Root\n        optional\n            F0\n            F1\n            F2\nconstraints\n    ${terms}\n`;
    const r = analyzeModel(parse(text), { text });
    assert.equal(r.configurations, '7');
    assert.deepEqual(r.core, ['Root']);
  });
});
