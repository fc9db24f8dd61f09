// The pairwise improvement on a sample that is far from small (every configuration of a model):
// what it returns is valid, covers every pair the input covers, and is much smaller.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseUvl } from '../../../uvl/src/index.ts';
import { satEncoding } from '../analyze.ts';
import { Deadline } from '../deadline.ts';
import { improvePairwise } from './twise-improve.ts';
import { satSolver } from './twise.ts';

function pairsOf(models: Int8Array[], n: number): Set<string> {
  const pairs = new Set<string>();
  for (const m of models) for (let v = 1; v <= n; v++) for (let w = v + 1; w <= n; w++) pairs.add(`${v * m[v]!},${w * m[w]!}`);
  return pairs;
}

test('the improvement shrinks the sample of every configuration and keeps its pairs', () => {
  const text = 'features\n    R\n        optional\n            A\n            B\n            C\n            D\n            E\n        or\n            F\n            G\nconstraints\n    A => B\n';
  const { model } = parseUvl(text);
  const enc = satEncoding(model, text);
  const n = enc.featureVars;
  const solver = satSolver(enc);
  const all: Int8Array[] = [];
  for (let mask = 0; mask < 1 << n; mask++) {
    const m = new Int8Array(enc.numVars + 1);
    for (let v = 1; v <= n; v++) m[v] = (mask >>> (v - 1)) & 1 ? 1 : -1;
    if (solver.solve(Array.from({ length: n }, (_, i) => (m[i + 1] === 1 ? i + 1 : -(i + 1)))) === 'sat') all.push(solver.model());
  }
  let s = 7;
  const random = () => ((s = (s * 48271) % 2147483647) / 2147483647);
  const improved = improvePairwise({ solver, n, models: all, deadline: Deadline.none(), random });
  for (const m of improved) {
    const assumptions = Array.from({ length: n }, (_, i) => (m[i + 1] === 1 ? i + 1 : -(i + 1)));
    assert.equal(solver.solve(assumptions), 'sat', 'every configuration is valid');
  }
  assert.deepEqual([...pairsOf(all, n)].filter((p) => !pairsOf(improved, n).has(p)), [], 'no pair is lost');
  assert.ok(all.length >= 40, `${all.length} configurations to start from`);
  assert.ok(improved.length <= 12, `${improved.length} configurations left of ${all.length}`);
});
