// The analysis from the compiled form against the SAT-based analysis (and the counter) on the
// corpus: every valid model of at most 1 000 features and automotive01 give the same result,
// explanations and sample included. (analyze.test.ts checks the compiled path against brute
// force on generated models; atomic-sets.test.ts the SAT path.) And the two passes the compiled
// path adds (compile/form-passes.ts) against the configurations listed by brute force.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { corpusSkipReason, diskLoader, findCorpus } from '../../../uvl/src/corpus.support.ts';
import { parseUvl, type UvlModel } from '../../../uvl/src/index.ts';
import { analyzeModel } from '../analyze.ts';
import { compileEncoded } from '../compile/compile-encoded.ts';
import { CAN_BE_FALSE, CAN_BE_TRUE, possibleValues, weightedTrueSums } from '../compile/form-passes.ts';
import { Deadline } from '../deadline.ts';
import { encodeModel } from '../encode.ts';
import { bruteForceModel, parseValid, randomModelText, seededRandom } from '../testing/brute-force.support.ts';
import type { AnalysisResult } from '../types.ts';
import { xorshift32 } from './atomic-sets.ts';

const corpus = findCorpus();
const AUTOMOTIVE01 = 'real/Feature_Models/Automotive/Automotive01/automotive01.uvl';

/** The result without its timings (the only part that may differ). */
const comparable = ({ timings_ms: _, ...rest }: AnalysisResult) => rest;

describe('the compiled path against the SAT path', () => {
  test('every valid corpus model of at most 1 000 features, and automotive01', { skip: corpus ? false : corpusSkipReason, timeout: 1_800_000 }, () => {
    const wrong: string[] = [];
    const seen = { models: 0, dead: 0, falseOptional: 0, atomicSets: 0, automotive01: 0 };
    for (const f of corpus!.files) {
      if (!f.valid || f.features === undefined || (f.features > 1000 && f.path !== AUTOMOTIVE01)) continue;
      const text = corpus!.read(f.path);
      const { model } = parseUvl(text, { fileName: join(corpus!.dir, f.path), loader: diskLoader });
      if (!model.root) continue;
      const compiled = analyzeModel(model, { text });
      const sat = analyzeModel(model, { text, useCompiledForm: false });
      if (compiled.timeouts || sat.timeouts) {
        wrong.push(`${f.path}: timeouts ${JSON.stringify(compiled.timeouts)} / ${JSON.stringify(sat.timeouts)}`);
        continue;
      }
      // The compiled path ran (a void model needs no compilation).
      if (compiled.satisfiable && compiled.timings_ms.compile === undefined) wrong.push(`${f.path}: not compiled`);
      try {
        assert.deepEqual(comparable(compiled), comparable(sat));
      } catch {
        for (const k of Object.keys(comparable(sat)) as (keyof AnalysisResult)[]) {
          if (JSON.stringify(compiled[k]) !== JSON.stringify(sat[k])) wrong.push(`${f.path}: ${k} differs`);
        }
      }
      seen.models++;
      if (sat.dead!.length > 0) seen.dead++;
      if (sat.false_optional!.length > 0) seen.falseOptional++;
      if (sat.atomic_sets!.some((s) => s.length > 0 && !sat.core!.includes(s[0]!))) seen.atomicSets++;
      if (f.path === AUTOMOTIVE01) seen.automotive01++;
    }
    assert.deepEqual(wrong, []);
    // Enough of every kind of answer for the comparison to mean something.
    assert.ok(seen.models >= 150, `only ${seen.models} models`);
    for (const k of ['dead', 'falseOptional', 'atomicSets'] as const) assert.ok(seen[k] >= 10, `only ${seen[k]} models with ${k}: ${JSON.stringify(seen)}`);
    assert.equal(seen.automotive01, 1, 'automotive01 compared');
  });
});

/** Per feature variable (1..n), whether it can be true and false in the configurations listed, under the decisions. */
function bruteValues(model: UvlModel, names: readonly string[], decisions: number[]): { canTrue: boolean[]; canFalse: boolean[] } {
  const truth = bruteForceModel(model);
  const canTrue = names.map(() => false);
  const canFalse = names.map(() => false);
  const n = truth.names.length;
  for (let mask = 0; mask < 1 << n; mask++) {
    const selected = new Set(truth.names.filter((_, i) => mask & (1 << i)));
    if (!truth.isConfiguration(selected)) continue;
    if (!decisions.every((d) => selected.has(names[Math.abs(d) - 1]!) === d > 0)) continue;
    names.forEach((name, i) => (selected.has(name) ? (canTrue[i] = true) : (canFalse[i] = true)));
  }
  return { canTrue, canFalse };
}

describe('form passes', () => {
  test('possibleValues under random decisions and weightedTrueSums on 150 generated models, against brute force', () => {
    const rand = seededRandom(77);
    const wrong: string[] = [];
    let equalPairs = 0;
    for (let i = 0; i < 150 && wrong.length < 5; i++) {
      const g = randomModelText(rand, { features: 3 + Math.floor(rand() * 9), maxConstraints: 4 });
      const model = parseValid(g.text);
      const enc = encodeModel(model, g.text);
      const compiledEncoding = compileEncoded(enc, Deadline.none())!;
      const { compiled, literalOf } = compiledEncoding;
      const form = compiled.form;
      const n = enc.featureVars;
      for (let round = 0; round < 3; round++) {
        const decisions = round === 0 ? [] : [1 + Math.floor(rand() * n)].map((v) => (rand() < 0.5 ? v : -v));
        const fixed = new Int8Array(form.vars + 1);
        for (const d of decisions) fixed[Math.abs(literalOf[Math.abs(d)]!)] = (literalOf[Math.abs(d)]! > 0) === d > 0 ? 1 : -1;
        const values = possibleValues(form, fixed);
        const truth = bruteValues(model, enc.names, decisions);
        for (let v = 1; v <= n; v++) {
          const l = literalOf[v]!;
          const bits = values[Math.abs(l)]!;
          const canTrue = (bits & (l > 0 ? CAN_BE_TRUE : CAN_BE_FALSE)) !== 0;
          const canFalse = (bits & (l > 0 ? CAN_BE_FALSE : CAN_BE_TRUE)) !== 0;
          if (canTrue !== truth.canTrue[v - 1] || canFalse !== truth.canFalse[v - 1]) {
            wrong.push(`${enc.names[v - 1]} under ${JSON.stringify(decisions)}: can be true ${canTrue}, false ${canFalse}; brute force ${truth.canTrue[v - 1]}, ${truth.canFalse[v - 1]}\n${g.text}`);
          }
        }
      }
      // Two features have equal sums when they are equal in every configuration, and here (a
      // large prime, fixed seed) only then.
      const p = 67108859;
      const { total, trueSum } = weightedTrueSums(form, p, xorshift32(5));
      const sum = (v: number) => (literalOf[v]! > 0 ? trueSum[literalOf[v]!]! : (total - trueSum[-literalOf[v]!]! + p) % p);
      const truth = bruteForceModel(model);
      const configs: Set<string>[] = [];
      for (let mask = 0; mask < 1 << truth.names.length; mask++) {
        const selected = new Set(truth.names.filter((_, k) => mask & (1 << k)));
        if (truth.isConfiguration(selected)) configs.push(selected);
      }
      for (let a = 1; a <= n; a++) {
        for (let b = a + 1; b <= n; b++) {
          const equal = configs.every((c) => c.has(enc.names[a - 1]!) === c.has(enc.names[b - 1]!));
          if (equal) equalPairs++;
          if (equal !== (sum(a) === sum(b))) wrong.push(`${enc.names[a - 1]}, ${enc.names[b - 1]}: equal ${equal}, sums ${sum(a)}, ${sum(b)}\n${g.text}`);
        }
      }
    }
    assert.deepEqual(wrong, []);
    assert.ok(equalPairs >= 50, `only ${equalPairs} pairs of equal features`);
  });
});
