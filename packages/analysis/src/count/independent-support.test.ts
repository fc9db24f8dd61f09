// The independent support against enumeration: on every corpus model of at most 16 features
// and on generated models, the configurations listed by the SAT solver differ on the support
// (so it determines the other features), and it is no larger than the variant features.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { corpusSkipReason, findCorpus } from '../../../uvl/src/corpus.support.ts';
import { parseUvl } from '../../../uvl/src/index.ts';
import { satEncoding } from '../analyze.ts';
import { modelClauses, type EncodedModel } from '../encode.ts';
import { SatSolver } from '../sat/solver.ts';
import { randomModelText, seededRandom } from '../testing/generators.support.ts';
import { independentSupport } from './independent-support.ts';

/** Every configuration, as its feature values (a string of 0/1 per feature). */
function configurations(enc: EncodedModel): string[] {
  const solver = new SatSolver(enc.numVars);
  for (const c of modelClauses(enc)) solver.addClause(c);
  const out: string[] = [];
  while (solver.solve() === 'sat') {
    const m = solver.model();
    let key = '';
    const block: number[] = [];
    for (let v = 1; v <= enc.featureVars; v++) {
      key += m[v]! > 0 ? '1' : '0';
      block.push(m[v]! > 0 ? -v : v);
    }
    out.push(key);
    if (!solver.addClause(block)) break;
  }
  return out;
}

/** Problems with the support of one model, in words. */
function check(text: string, label: string): string[] {
  const { model } = parseUvl(text);
  if (!model.root) return [];
  const enc = satEncoding(model, text);
  if (enc.featureVars > 16) return [];
  const all = Array.from({ length: enc.featureVars }, (_, i) => i + 1);
  const support = independentSupport(enc.numVars, modelClauses(enc), all.reverse(), { featureVars: enc.featureVars });
  const seen = new Set<string>();
  for (const c of configurations(enc)) {
    const key = support.map((v) => c[v - 1]).join('');
    if (seen.has(key)) return [`${label}: two configurations agree on the support ${support.map((v) => enc.names[v - 1]).join(', ')}`];
    seen.add(key);
  }
  return [];
}

describe('independent support', () => {
  test('corpus models of at most 16 features: configurations differ on the support', { skip: findCorpus() ? false : corpusSkipReason }, () => {
    const corpus = findCorpus()!;
    const problems: string[] = [];
    let checked = 0;
    for (const f of corpus.files.filter((f) => f.valid && (f.features ?? 99) <= 16)) {
      problems.push(...check(corpus.read(f.path), f.path));
      checked++;
    }
    assert.ok(checked > 20);
    assert.deepEqual(problems, []);
  });

  test('300 generated models', () => {
    const random = seededRandom(11);
    const problems: string[] = [];
    for (let i = 0; i < 300; i++) problems.push(...check(randomModelText(random).text, `model ${i}`));
    assert.deepEqual(problems, []);
  });

  test('a mandatory child and the last child of an alternative are left out', () => {
    const text = 'features\n    R\n        mandatory\n            M\n        alternative\n            A\n            B\n            C\n';
    const enc = satEncoding(parseUvl(text).model, text);
    const variant = ['A', 'B', 'C'].map((n) => enc.names.indexOf(n) + 1);
    const support = independentSupport(enc.numVars, modelClauses(enc), variant, { featureVars: enc.featureVars });
    assert.equal(support.length, 2);
  });
});
