// The pairwise path for large models on corpus models, checked by the independent routine of
// testing/pairwise-check.support.ts: each configuration is a model of the
// formula, every pair no configuration has is proven impossible, and the pairs covered are as
// many as the sampler says (its count goes through compact literals and class sizes). A sample
// missing a configuration is caught by the same check.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { corpusSkipReason, diskLoader, findCorpus } from '../../../uvl/src/corpus.support.ts';
import { parseUvl } from '../../../uvl/src/index.ts';
import { satEncoding } from '../analyze.ts';
import { checkPairwise } from '../testing/pairwise-check.support.ts';
import { twiseSample } from './twise.ts';

const corpus = findCorpus();
// Every pair of uClibc; of automotive01 (12.6 million pairs, 7 minutes on a loaded machine when
// exhaustive) random pairs until 20 000 uncovered ones are proven impossible. automotive01's
// sample is the greedy's: its improvement takes minutes of passes (twise-improve.test.ts tests
// the improvement, and bench:frontier checks the improved sample of the command line).
const MODELS = [
  { path: 'real/Feature_Models/Operating_Systems/KConfig/uClibc.uvl', exhaustive: true, improve: true },
  { path: 'real/Feature_Models/Automotive/Automotive01/automotive01.uvl', exhaustive: false, improve: false },
];

for (const { path, exhaustive, improve } of MODELS) {
  test(`${path.split('/').pop()}: the large path's sample, checked over ${exhaustive ? 'every pair' : 'random pairs'}`, { skip: corpus ? false : corpusSkipReason, timeout: 600_000 }, () => {
    const file = join(corpus!.dir, path);
    const text = corpus!.read(path);
    const { model } = parseUvl(text, { fileName: file, loader: diskLoader });
    const enc = satEncoding(model, text);
    const result = twiseSample(model, { t: 2, seed: 3, text, largeFrom: 0, packed: true, improve });
    assert.equal(result.complete, true);
    const rows = result.packed!;
    assert.equal(rows.count, result.size);
    const column = enc.names.map((name) => result.features.indexOf(name));
    const selected = (c: number, v: number) => ((rows.data[c * rows.rowBytes + (column[v - 1]! >> 3)]! >> (column[v - 1]! & 7)) & 1) === 1;

    const check = checkPairwise(enc, rows.count, selected, { exhaustive, uncoveredToProve: 20_000 });
    assert.deepEqual(check.invalid, [], 'every configuration is valid');
    assert.deepEqual(check.missed, [], 'every uncovered pair is impossible');
    if (exhaustive) assert.equal(check.covered, result.covered, 'the covered pairs the sampler counts');
    else assert.equal(check.provenImpossible, 20_000);
    assert.equal(check.covered + check.provenImpossible, check.pairsChecked);
    assert.ok(result.lower_bound >= 1 && result.lower_bound <= result.size, `lower bound ${result.lower_bound}, size ${result.size}`);

    // Without its last configuration the sample misses pairs, and the check over every pair says so
    // (random pairs seldom meet the few pairs one configuration of a small sample alone covers).
    const fewer = checkPairwise(enc, rows.count - 1, selected, { exhaustive: true });
    assert.ok(fewer.missed.length > 0 && fewer.covered < result.covered, 'a smaller sample misses a pair');
  });
}
