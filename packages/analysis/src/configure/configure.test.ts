// The configurator against the brute-force oracle: on random decisions over generated models and
// small corpus models, every feature's state, the remaining count and consistency equal what the
// enumerated configurations say; each conflict and each `why` is sufficient and minimal, checked
// by enumerating the model with only the constraint lines they name.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { corpusSkipReason, findCorpus } from '../../../uvl/src/corpus.support.ts';
import { modelConstraints, parseUvl, type UvlModel } from '../../../uvl/src/index.ts';
import { bruteForceModel, keepConstraintLines, type BruteForceModel } from '../testing/brute-force.support.ts';
import { randomModelText, seededRandom } from '../testing/generators.support.ts';
import { smallCorpusModels } from '../testing/corpus-models.support.ts';
import { Configurator, UnknownFeatureError } from './configurator.ts';
import { compiledCounter } from './counter.ts';
import { Deadline } from '../deadline.ts';
import type { Decisions } from './types.ts';

function parse(text: string): UvlModel {
  const { model, diagnostics } = parseUvl(text);
  assert.deepEqual(diagnostics.filter((d) => d.severity === 'error').map((d) => d.message), [], 'the model parses');
  return model;
}

/** The configurations (bit masks over truth.names) that extend the decisions. */
function extensions(truth: BruteForceModel, d: Decisions): number[] {
  const bit = (name: string) => 1 << truth.names.indexOf(name);
  let on = 0;
  let off = 0;
  for (const s of d.selected) on |= bit(s);
  for (const s of d.deselected) off |= bit(s);
  return truth.configurations.filter((m) => (m & on) === on && (m & off) === 0);
}

/** Parses "selected A" / "deselected A" back into decisions. */
function toDecisions(items: string[]): Decisions {
  const d: Decisions = { selected: [], deselected: [] };
  for (const item of items) {
    const [kind, name] = [item.slice(0, item.indexOf(' ')), item.slice(item.indexOf(' ') + 1)];
    (kind === 'selected' ? d.selected : d.deselected).push(name);
  }
  return d;
}

const lineOf = (label: string) => Number(/^Line (\d+):/.exec(label)![1]);

/** The oracle of the model with only the given constraint lines. */
function withLines(model: UvlModel, labels: string[]): BruteForceModel {
  const lines = new Set(labels.map(lineOf));
  return bruteForceModel(keepConstraintLines(model, (l) => lines.has(l)));
}

function randomDecisions(rand: () => number, names: string[], k: number): Decisions {
  const d: Decisions = { selected: [], deselected: [] };
  for (let i = 0; i < k; i++) (rand() < 0.5 ? d.selected : d.deselected).push(names[Math.floor(rand() * names.length)]!);
  return d;
}

const seen = { conflicts: 0, forced: 0, excluded: 0, tree: 0, explainedByDecision: 0 };

/** Differences between the configurator's answers and the oracle's for one set of decisions. */
function check(model: UvlModel, truth: BruteForceModel, c: Configurator, d: Decisions): string[] {
  // The oracle switches off only the constraints section's own lines: with constraint attributes
  // or imported constraints (always on there) minimality cannot be checked line by line.
  const linesSelectable = model.imports.length === 0 && modelConstraints(model).every((k) => k.origin === 'constraints');
  const out: string[] = [];
  const ext = extensions(truth, d);
  const result = c.configure(d);
  if (result.consistent !== ext.length > 0) return [`consistent ${result.consistent}, extensions ${ext.length}`];
  if (!result.consistent) {
    seen.conflicts++;
    const sub = toDecisions(result.conflict.decisions);
    if (extensions(truth, sub).length > 0) out.push(`conflict decisions ${result.conflict.decisions} have an extension`);
    result.conflict.decisions.forEach((_, i) => {
      const fewer = toDecisions(result.conflict.decisions.filter((__, k) => k !== i));
      if (extensions(truth, fewer).length === 0) out.push(`conflict not minimal: without #${i} still none`);
    });
    if (extensions(withLines(model, result.conflict.constraints), sub).length > 0) out.push(`conflict lines ${result.conflict.constraints} do not suffice`);
    if (linesSelectable) result.conflict.constraints.forEach((_, i) => {
      const lines = result.conflict.constraints.filter((__, k) => k !== i);
      if (extensions(withLines(model, lines), sub).length === 0) out.push(`conflict lines not minimal: without #${i} still none`);
    });
    return out;
  }
  if (result.remaining !== String(ext.length)) out.push(`remaining ${result.remaining}, brute force ${ext.length}`);
  truth.names.forEach((name, i) => {
    const on = ext.filter((m) => m & (1 << i)).length;
    const expected = d.selected.includes(name)
      ? 'selected'
      : d.deselected.includes(name)
        ? 'deselected'
        : on === ext.length
          ? 'forced'
          : on === 0
            ? 'excluded'
            : 'open';
    if (result.features[name] !== expected) out.push(`${name}: ${result.features[name]}, brute force ${expected}`);
    if (expected === 'forced' || expected === 'excluded') out.push(...checkWhy(model, c, d, name, expected, linesSelectable));
  });
  return out;
}

function checkWhy(model: UvlModel, c: Configurator, d: Decisions, name: string, state: 'forced' | 'excluded', linesSelectable: boolean): string[] {
  seen[state]++;
  const answer = c.why(d, name)!;
  if (answer.state !== state || answer.why === null) return [`why ${name}: state ${answer.state}`];
  const items = answer.why[0] === 'tree' ? [] : answer.why;
  if (items.length === 0) seen.tree++;
  if (items.some((x) => !x.startsWith('Line '))) seen.explainedByDecision++;
  const decisions = items.filter((x) => !x.startsWith('Line '));
  const lines = items.filter((x) => x.startsWith('Line '));
  const implies = (ds: string[], ls: string[]) => {
    const truth = withLines(model, ls);
    const bit = 1 << truth.names.indexOf(name);
    return extensions(truth, toDecisions(ds)).every((m) => ((m & bit) !== 0) === (state === 'forced'));
  };
  const out: string[] = [];
  if (!implies(decisions, lines)) out.push(`why ${name} (${state}): ${items} does not imply it`);
  decisions.forEach((_, i) => {
    if (implies(decisions.filter((__, k) => k !== i), lines)) out.push(`why ${name}: not minimal without ${decisions[i]}`);
  });
  if (linesSelectable) lines.forEach((_, i) => {
    if (implies(decisions, lines.filter((__, k) => k !== i))) out.push(`why ${name}: not minimal without ${lines[i]}`);
  });
  return out;
}

const corpus = findCorpus();

describe('configurator against brute force', () => {
  test('a model checked by hand: states, remaining, conflict, why', () => {
    const text = 'features\n    Car\n        mandatory\n            Engine\n                alternative\n                    Diesel\n                    Petrol\n        optional\n            Turbo\n            Radio\nconstraints\n    Diesel => !Turbo\n    Turbo => Radio\n';
    const c = new Configurator(parse(text), { text });
    const r = c.configure({ selected: ['Diesel'], deselected: [] });
    assert.ok(r.consistent);
    assert.equal(r.remaining, '2');
    assert.deepEqual(r.features, { Car: 'forced', Engine: 'forced', Diesel: 'selected', Petrol: 'excluded', Turbo: 'excluded', Radio: 'open' });
    assert.deepEqual(c.why({ selected: ['Diesel'], deselected: [] }, 'Turbo'), { feature: 'Turbo', state: 'excluded', why: ['selected Diesel', 'Line 12: Diesel => !Turbo'] });
    assert.deepEqual(c.why({ selected: ['Diesel'], deselected: [] }, 'Petrol')?.why, ['selected Diesel']);
    assert.deepEqual(c.why({ selected: [], deselected: [] }, 'Engine')?.why, ['tree']);
    assert.deepEqual(c.why({ selected: [], deselected: [] }, 'Radio'), { feature: 'Radio', state: 'open', why: null });
    const bad = c.configure({ selected: ['Diesel', 'Turbo', 'Radio'], deselected: [] });
    assert.deepEqual(bad.consistent ? null : bad.conflict, { decisions: ['selected Diesel', 'selected Turbo'], constraints: ['Line 12: Diesel => !Turbo'] });
    assert.throws(() => c.configure({ selected: ['Boat'], deselected: [] }), UnknownFeatureError);
    assert.throws(() => c.why({ selected: [], deselected: [] }, 'Boat'), UnknownFeatureError);
  });

  test('a model with an ignored constraint is configured over its Boolean part and says so', () => {
    const text = 'features\n    R {p 1}\n        optional\n            A\n            B\nconstraints\n    R.p > 0\n    A => B\n';
    const c = new Configurator(parse(text), { text });
    const r = c.configure({ selected: ['A'], deselected: [] });
    assert.equal(r.boolean_only, false);
    assert.equal(r.ignored_constraints, 1);
    assert.ok(r.consistent && r.features.B === 'forced');
  });

  test('300 generated models, random decisions: states, remaining, conflicts and why', { timeout: 600_000 }, () => {
    const rand = seededRandom(2207);
    const wrong: string[] = [];
    for (let i = 0; i < 300 && wrong.length < 5; i++) {
      const g = randomModelText(rand, { features: 3 + Math.floor(rand() * 10), maxConstraints: 5 });
      const model = parse(g.text);
      const truth = bruteForceModel(model);
      // Every other model counts what remains on its compiled form (the hub's and the CLI's counter).
      const c = new Configurator(model, { text: g.text, counter: i % 2 === 1 ? compiledCounter(model, g.text, Deadline.after(60_000)) : undefined });
      for (let k = 0; k < 4; k++) {
        const diffs = check(model, truth, c, randomDecisions(rand, truth.names, k));
        if (diffs.length > 0) wrong.push(`${diffs.join('\n')}\n${g.text}`);
      }
    }
    assert.deepEqual(wrong, []);
    // The cases must all occur, or this test proves little.
    for (const [k, v] of Object.entries(seen)) assert.ok(v >= 10, `only ${v} cases of ${k}`);
  });

  test('corpus models with at most 20 features, random decisions', { skip: corpus ? false : corpusSkipReason, timeout: 600_000 }, () => {
    const rand = seededRandom(99);
    const wrong: string[] = [];
    let checked = 0;
    for (const { path, text, model, truth } of smallCorpusModels(corpus!)) {
      const c = new Configurator(model, { text, counter: checked % 2 === 1 ? compiledCounter(model, text, Deadline.after(60_000)) : undefined });
      checked++;
      for (let k = 0; k < 3; k++) {
        const diffs = check(model, truth, c, randomDecisions(rand, truth.names, 1 + k));
        if (diffs.length > 0) wrong.push(`${path}: ${diffs.join('\n')}`);
      }
    }
    assert.ok(checked >= 20, `only ${checked} corpus models checked`);
    assert.deepEqual(wrong.slice(0, 5), []);
  });
});
