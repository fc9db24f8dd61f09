// t-wise samples against brute force: on generated models (t = 1, 2, 3) and small corpus models
// (t = 2), every valid interaction (some configuration has all its literals, enumerated) is in a
// sampled configuration, every sampled configuration is valid, the number of valid interactions
// is right, the lower bound is at most the size, and the same seed gives the same sample.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { corpusSkipReason, findCorpus } from '../../../uvl/src/corpus.support.ts';
import { parseUvl, type UvlModel } from '../../../uvl/src/index.ts';
import { Deadline } from '../deadline.ts';
import { bruteForceModel, type BruteForceModel } from '../testing/brute-force.support.ts';
import { randomModelText, seededRandom } from '../testing/generators.support.ts';
import { smallCorpusModels } from '../testing/corpus-models.support.ts';
import { twiseSample, type TwiseOptions } from './twise.ts';

function parse(text: string): UvlModel {
  const { model, diagnostics } = parseUvl(text);
  assert.deepEqual(diagnostics.filter((d) => d.severity === 'error').map((d) => d.message), [], 'the model parses');
  return model;
}

/** Keys of the t-literal interactions a configuration mask contains (literal 2i: names[i] on, 2i+1: off). */
function interactionsOf(mask: number, n: number, t: number, into: Set<number>): void {
  const lits: number[] = [];
  for (let i = 0; i < n; i++) lits.push(2 * i + ((mask >>> i) & 1 ? 0 : 1));
  const pick = (start: number, key: number, left: number): void => {
    if (left === 0) {
      into.add(key);
      return;
    }
    for (let i = start; i < lits.length; i++) pick(i + 1, key * 64 + lits[i]! + 1, left - 1);
  };
  pick(0, 0, t);
}

function checkSample(model: UvlModel, truth: BruteForceModel, t: 1 | 2 | 3, seed: number, more: Partial<TwiseOptions> = {}): string[] {
  const out: string[] = [];
  const n = truth.names.length;
  const result = twiseSample(model, { t, seed, ...more });
  const valid = new Set<number>();
  for (const m of truth.configurations) interactionsOf(m, n, t, valid);
  const covered = new Set<number>();
  for (const config of result.configurations) {
    if (!truth.isConfiguration(config)) out.push(`t=${t}: not a configuration: ${config}`);
    let mask = 0;
    for (const name of config) mask |= 1 << truth.names.indexOf(name);
    interactionsOf(mask, n, t, covered);
  }
  const missed = [...valid].filter((k) => !covered.has(k)).length;
  if (missed > 0) out.push(`t=${t}: ${missed} valid interactions not covered`);
  if (!result.complete || result.interactions !== valid.size || result.covered !== valid.size) {
    out.push(`t=${t}: complete ${result.complete}, interactions ${result.interactions}, covered ${result.covered}, brute force ${valid.size}`);
  }
  if (result.lower_bound > result.size) out.push(`t=${t}: lower bound ${result.lower_bound} above size ${result.size}`);
  if (valid.size > 0 && result.lower_bound < 1) out.push(`t=${t}: lower bound ${result.lower_bound}`);
  if (JSON.stringify(twiseSample(model, { t, seed, ...more }).configurations) !== JSON.stringify(result.configurations)) out.push(`t=${t}: not reproducible`);
  return out;
}

const corpus = findCorpus();

describe('t-wise sampling against brute force', () => {
  test('200 generated models, t = 1, 2, 3', { timeout: 600_000 }, () => {
    const rand = seededRandom(3131);
    const wrong: string[] = [];
    for (let i = 0; i < 200 && wrong.length < 5; i++) {
      const g = randomModelText(rand, { features: 3 + Math.floor(rand() * 9), maxConstraints: 4 });
      const model = parse(g.text);
      const truth = bruteForceModel(model);
      for (const t of [1, 2, 3] as const) {
        const diffs = checkSample(model, truth, t, i);
        if (diffs.length > 0) wrong.push(`${diffs.join('\n')}\n${g.text}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  // The path for large models (compact literals without core, dead and equivalent features,
  // chunked tables), forced onto small ones: the same checks.
  test('200 generated models and the small corpus models, pairwise on the large path', { timeout: 600_000 }, () => {
    const rand = seededRandom(4242);
    const wrong: string[] = [];
    for (let i = 0; i < 200 && wrong.length < 5; i++) {
      const g = randomModelText(rand, { features: 2 + Math.floor(rand() * 10), maxConstraints: 5 });
      const model = parse(g.text);
      const diffs = checkSample(model, bruteForceModel(model), 2, i, { largeFrom: 0 });
      if (diffs.length > 0) wrong.push(`${diffs.join('\n')}\n${g.text}`);
    }
    if (corpus) {
      for (const { path, model, truth } of smallCorpusModels(corpus)) {
        if (truth.configurations.length > 20_000) continue;
        for (const d of checkSample(model, truth, 2, 1, { largeFrom: 0 })) wrong.push(`${path}: ${d}`);
      }
    }
    assert.deepEqual(wrong.slice(0, 5), []);
  });

  test('corpus models with at most 20 features, t = 2', { skip: corpus ? false : corpusSkipReason, timeout: 600_000 }, () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const { path, model, truth } of smallCorpusModels(corpus!)) {
      if (truth.configurations.length > 20_000) continue; // enumerating their interactions would be slow
      checked++;
      for (const d of checkSample(model, truth, 2, 1)) wrong.push(`${path}: ${d}`);
    }
    assert.ok(checked >= 20, `only ${checked} corpus models checked`);
    assert.deepEqual(wrong.slice(0, 5), []);
  });

  test('a void model has no interaction; a past deadline gives an incomplete answer', () => {
    const voidModel = parse('features\n    R\n        mandatory\n            A\nconstraints\n    !A\n');
    const r = twiseSample(voidModel, { t: 2 });
    assert.deepEqual([r.size, r.interactions, r.covered, r.complete], [0, 0, 0, true]);
    const text = 'features\n    R\n        optional\n            A\n            B\n            C\n';
    const late = twiseSample(parse(text), { t: 2, deadline: new Deadline(Date.now() - 1) });
    assert.equal(late.complete, false);
    assert.equal(late.interactions, null);
  });

  test('a model too large for the coverage table is refused, and says so', () => {
    const text = 'features\n    R\n        optional\n            A\n            B\n            C\n';
    const r = twiseSample(parse(text), { t: 3, maxBits: 100 });
    assert.equal(r.complete, false);
    assert.match(r.note ?? '', /not sampled/);
    // Not "no valid interaction": the model has valid interactions, none was looked at.
    assert.deepEqual([r.lower_bound, r.lower_bound_method], [0, 'none: not sampled']);
  });
});
