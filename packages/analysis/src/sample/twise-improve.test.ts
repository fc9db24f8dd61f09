// The pairwise improvement on samples that are far from small (every configuration of a model):
// what it returns is valid, covers every pair the input covers, is never larger, and is much
// smaller; with the host solved again keeping its own pairs (rounds) as with its phases only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseUvl } from '../../../uvl/src/index.ts';
import { satEncoding } from '../analyze.ts';
import { Deadline } from '../deadline.ts';
import { randomModelText, seededRandom } from '../testing/generators.support.ts';
import { improvePairwise } from './twise-improve.ts';
import { improveInPasses } from './twise-improve-run.ts';
import { everyConfiguration, missingPairs, validity } from './twise-sample.support.ts';
import { satSolver } from './twise.ts';

function setUp(text: string) {
  const enc = satEncoding(parseUvl(text).model, text);
  const solver = satSolver(enc);
  const n = enc.featureVars;
  return { solver, n, all: everyConfiguration(solver, n) };
}

const SMALL = 'features\n    R\n        optional\n            A\n            B\n            C\n            D\n            E\n        or\n            F\n            G\nconstraints\n    A => B\n';

for (const rounds of [1, 3]) {
  test(`the improvement (${rounds} solve${rounds > 1 ? 's' : ''} per host) shrinks the sample of every configuration and keeps its pairs`, () => {
    const { solver, n, all } = setUp(SMALL);
    const improved = improvePairwise({ solver, n, models: all, deadline: Deadline.none(), random: seededRandom(7), rounds });
    assert.deepEqual(validity(solver, n, improved), [], 'every configuration is valid');
    assert.deepEqual(missingPairs(all, improved, n), [], 'no pair is lost');
    assert.ok(all.length >= 40, `${all.length} configurations to start from`);
    assert.ok(improved.length <= 12, `${improved.length} configurations left of ${all.length}`);
  });
}

test('on generated models the schedule of passes keeps every pair, every configuration valid, and never grows', () => {
  const rand = seededRandom(2024);
  let shrunk = 0;
  for (let i = 0; i < 40; i++) {
    const { text } = randomModelText(rand, { features: 6 + Math.floor(rand() * 6), maxConstraints: 4 });
    const { solver, n, all } = setUp(text);
    if (all.length < 2) continue;
    // Every configuration, and a thinner start: every third one (it covers fewer pairs, all of which must stay).
    for (const start of [all, all.filter((_, k) => k % 3 === 0)]) {
      const improved = improveInPasses({ solver, n, models: start, deadline: Deadline.none(), random: seededRandom(i) });
      assert.ok(improved.length <= start.length, `${improved.length} of ${start.length}\n${text}`);
      assert.deepEqual(validity(solver, n, improved), [], text);
      assert.deepEqual(missingPairs(start, improved, n), [], text);
      if (improved.length < start.length) shrunk++;
    }
  }
  assert.ok(shrunk >= 10, `only ${shrunk} samples shrunk`);
});

test('the same seed gives the same improved sample', () => {
  const { solver, n, all } = setUp(SMALL);
  const run = () => improveInPasses({ solver, n, models: all, deadline: Deadline.none(), random: seededRandom(11) }).map((m) => Array.from(m.subarray(1, n + 1)).join(''));
  assert.deepEqual(run(), run());
});
