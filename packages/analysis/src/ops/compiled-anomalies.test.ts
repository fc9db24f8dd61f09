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
import { compileEncoded } from '../compile/compiled-model.ts';
import { compileModel } from '../compile/compiled-model.ts';
import { LANES, valuesUnder, weightedTrueSums } from '../compile/form-passes.ts';
import { Deadline } from '../deadline.ts';
import { encodeModel } from '../encode.ts';
import { bruteForceModel, parseValid } from '../testing/brute-force.support.ts';
import { randomModelText, seededRandom } from '../testing/generators.support.ts';
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
      // A budget far beyond need: the compilation's share (25 %) is 150 s, so the compiled path
      // runs on every model that compiles at all, which compileModel checks below.
      const compiled = analyzeModel(model, { text, timeoutMs: 600_000 });
      const sat = analyzeModel(model, { text, timeoutMs: 600_000, useCompiledForm: false });
      if (compiled.timeouts || sat.timeouts) {
        wrong.push(`${f.path}: timeouts ${JSON.stringify(compiled.timeouts)} / ${JSON.stringify(sat.timeouts)}`);
        continue;
      }
      // A void model needs no compilation; any other one compiles.
      if (compiled.satisfiable && compileModel(model, { text, deadline: Deadline.after(150_000) }) === null) wrong.push(`${f.path}: not compiled`);
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

/** Every configuration of a small model, as sets of names, by brute force. */
function configurationsOf(model: UvlModel): Set<string>[] {
  const truth = bruteForceModel(model);
  const configs: Set<string>[] = [];
  for (let mask = 0; mask < 1 << truth.names.length; mask++) {
    const selected = new Set(truth.names.filter((_, k) => mask & (1 << k)));
    if (truth.isConfiguration(selected)) configs.push(selected);
  }
  return configs;
}

describe('form passes', () => {
  test('valuesUnder every feature literal (several lanes a pass) and weightedTrueSums on 150 generated models, against brute force', () => {
    const rand = seededRandom(77);
    const wrong: string[] = [];
    let equalPairs = 0;
    let forcedSeen = 0;
    for (let i = 0; i < 150 && wrong.length < 5; i++) {
      const g = randomModelText(rand, { features: 3 + Math.floor(rand() * 9), maxConstraints: 4 });
      const model = parseValid(g.text);
      const enc = encodeModel(model, g.text);
      const { compiled, literalOf } = compileEncoded(enc, Deadline.none())!;
      const n = enc.featureVars;
      const configs = configurationsOf(model);
      const has = (c: Set<string>, v: number) => c.has(enc.names[v - 1]!);
      // Lane decisions: none, then each feature on and off (signed feature variables).
      const decisions = [0];
      for (let v = 1; v <= n; v++) decisions.push(v, -v);
      for (let from = 0; from < decisions.length; from += LANES) {
        const chunk = decisions.slice(from, from + LANES);
        const values = valuesUnder(compiled.form, chunk.map((d) => (d === 0 ? 0 : d > 0 ? literalOf[d]! : -literalOf[-d]!)));
        chunk.forEach((d, lane) => {
          const matching = configs.filter((c) => d === 0 || has(c, Math.abs(d)) === d > 0);
          for (let v = 1; v <= n; v++) {
            const l = literalOf[v]!;
            const [t, f] = l > 0 ? [values.canBeTrue, values.canBeFalse] : [values.canBeFalse, values.canBeTrue];
            const got = [(t[Math.abs(l)]! >> lane) & 1, (f[Math.abs(l)]! >> lane) & 1].map(Boolean);
            const expected = [matching.some((c) => has(c, v)), matching.some((c) => !has(c, v))];
            if (got[0] !== got[1]) forcedSeen++;
            if (got[0] !== expected[0] || got[1] !== expected[1]) wrong.push(`${enc.names[v - 1]} when ${d}: can be true, false ${got}; brute force ${expected}\n${g.text}`);
          }
        });
      }
      // Two features have equal sums when they are equal in every configuration, and here (a
      // large prime, fixed seed) only then.
      const p = 67108859;
      const { total, trueSum } = weightedTrueSums(compiled.form, p, xorshift32(5));
      const sum = (v: number) => (literalOf[v]! > 0 ? trueSum[literalOf[v]!]! : (total - trueSum[-literalOf[v]!]! + p) % p);
      for (let a = 1; a <= n; a++) {
        for (let b = a + 1; b <= n; b++) {
          const equal = configs.every((c) => has(c, a) === has(c, b));
          if (equal) equalPairs++;
          if (equal !== (sum(a) === sum(b))) wrong.push(`${enc.names[a - 1]}, ${enc.names[b - 1]}: equal ${equal}, sums ${sum(a)}, ${sum(b)}\n${g.text}`);
        }
      }
    }
    assert.deepEqual(wrong, []);
    assert.ok(equalPairs >= 50, `only ${equalPairs} pairs of equal features`);
    assert.ok(forcedSeen >= 500, `only ${forcedSeen} forced values`);
  });
});
