// The estimate split into exactly counted components and a hashed rest (count/approx-factor.ts):
// the exact factor is the exact count when every component is counted (automotive2_4 included:
// before the split it had no estimate within 600 s), and with the larger components hashed the
// product keeps the guarantee, checked statistically against exact counts over many seeds.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { corpusSkipReason, findCorpus } from '../../../uvl/src/corpus.support.ts';
import { parseUvl } from '../../../uvl/src/index.ts';
import { countConfigurations, modelBackbone, satEncoding } from '../analyze.ts';
import { Deadline } from '../deadline.ts';
import { estimateConfigurations } from '../estimate.ts';
import { countCnf } from './counter.ts';
import { factorFormula } from './approx-factor.ts';

const corpus = findCorpus();

function load(path: string) {
  const text = corpus!.read(path);
  const { model } = parseUvl(text, { fileName: path });
  const enc = satEncoding(model!, text);
  const exact = countConfigurations(model!, enc, Deadline.none(), text)!;
  const backbone = modelBackbone(enc, Deadline.none())!.value;
  return { enc, exact, backbone };
}

const within = (estimate: bigint, exact: bigint, epsilon: number): boolean =>
  Number(estimate) <= Number(exact) * (1 + epsilon) && Number(estimate) * (1 + epsilon) >= Number(exact);

describe('approximate count split into components', () => {
  test('a CNF of independent parts: the product of their counts, the isolated support variables a factor 2 each', () => {
    // 1..3: (1|2) & (-2|3): 4 models; 4..5: 4 = -5: 2; 6: fixed; 7, 8 in no clause; 9 = 1 & 2 outside the support.
    const clauses = [[1, 2], [-2, 3], [4, 5], [-4, -5], [6], [-9, 1], [-9, 2], [9, -1, -2]];
    const f = factorFormula(9, clauses, [1, 2, 3, 4, 5, 6, 7, 8])!;
    assert.equal(f.exact, 4n * 2n * 4n);
    assert.equal(f.rest.length, 0);
    assert.equal(f.isolated, 2);
    assert.equal(countCnf(9, clauses.concat([[7, -7], [8, -8]])), 32n);
    const none = factorFormula(3, [[1], [-1, 2], [-2]], [1, 2, 3])!;
    assert.equal(none.exact, 0n);
  });

  test('corpus models with components: every component counted gives the exact count', { skip: corpus ? false : corpusSkipReason, timeout: 600_000 }, () => {
    for (const path of ['real/Feature_Models/Operating_Systems/KConfig/axTLS.uvl', 'real/Feature_Models/Operating_Systems/KConfig/uClibc.uvl', 'parser-tests/complex/Horcas2025_Icecream.uvl', 'real/Feature_Models/Automotive/Automotive02/automotive2_4.uvl']) {
      const { enc, exact, backbone } = load(path);
      const a = estimateConfigurations(enc, { backbone, seed: 1, factor: true })!;
      assert.equal(a.exact, true, path);
      assert.equal(a.value, exact, path);
    }
  });

  test('larger components hashed, the rest exact, 12 seeds each: estimates outside (1 + ε) at most δ of the time', { skip: corpus ? false : corpusSkipReason, timeout: 600_000 }, () => {
    let runs = 0;
    let outside = 0;
    const misses: string[] = [];
    for (const path of ['real/Feature_Models/Operating_Systems/KConfig/axTLS.uvl', 'real/Feature_Models/Operating_Systems/KConfig/uClibc.uvl']) {
      const { enc, exact, backbone } = load(path);
      for (let seed = 1; seed <= 12; seed++) {
        const a = estimateConfigurations(enc, { backbone, seed, factor: true, exactMaxVars: 12 })!;
        assert.equal(a.exact, false, `${path}: the rest is hashed`);
        assert.match(a.method, /^[1-9]\d* of \d+ components after the backbone counted exactly/);
        runs++;
        if (!within(a.value, exact, 0.8)) {
          outside++;
          misses.push(`${path} seed ${seed}: ${a.value} for ${exact}`);
        }
      }
    }
    assert.ok(outside <= 0.2 * runs, `${outside} of ${runs} outside: ${misses.join('; ')}`);
  });
});
