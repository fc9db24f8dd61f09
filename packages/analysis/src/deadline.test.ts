// Operations given a tiny time budget on hard instances give up and say so (timeout / null)
// instead of running on. No assertion here is about a duration: only the outcome is checked
// (the test runner's timeout merely stops a solver that never looks at its deadline).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseUvl } from '../../uvl/src/index.ts';
import { analyzeModel } from './analyze.ts';
import { cnfBackbone } from './ops/backbone.ts';
import { countCnf } from './count/counter.ts';
import { Deadline } from './deadline.ts';
import { SatSolver } from './sat/solver.ts';
import { pigeonhole, random3Cnf, seededRandom } from './testing/generators.support.ts';

const GUARD = { timeout: 120_000 };

describe('deadlines', () => {
  test('solve on the pigeonhole formula (11 pigeons, 10 holes) with a 30 ms budget: timeout', GUARD, () => {
    const php = pigeonhole(11, 10);
    const solver = new SatSolver(php.numVars);
    for (const c of php.clauses) solver.addClause(c);
    assert.equal(solver.solve([], Deadline.after(30)), 'timeout');
  });

  test('a solver that timed out still answers a later easy question', GUARD, () => {
    const php = pigeonhole(11, 10);
    const solver = new SatSolver(php.numVars);
    for (const c of php.clauses) solver.addClause(c);
    assert.equal(solver.solve([], Deadline.after(10)), 'timeout');
    // Pigeon 0 in hole 0 and pigeon 1 in hole 0 together contradict the formula at once.
    assert.equal(solver.solve([1, 11]), 'unsat');
    // (The formula itself is unsatisfiable, so any subset of the assumptions is a valid core.)
    assert.ok(solver.failedAssumptions().every((l) => l === 1 || l === 11));
  });

  test('countCnf on a large random 3-CNF (300 variables, ratio 2) with a 30 ms budget: null', GUARD, () => {
    const cnf = random3Cnf(seededRandom(3), 300, 2);
    assert.equal(countCnf(cnf.numVars, cnf.clauses, Deadline.after(30)), null);
  });

  test('cnfBackbone on the pigeonhole formula with a 30 ms budget: null', GUARD, () => {
    const php = pigeonhole(11, 10);
    assert.equal(cnfBackbone(php.numVars, php.clauses, Deadline.after(30)), null);
  });

  test('analyzeModel with a 1 ms budget on a large model: timeouts are listed, their values null, nothing guessed', GUARD, () => {
    // 400 features, random 3-literal constraints: far more than a millisecond of work.
    const rand = seededRandom(11);
    const n = 400;
    const lines = ['features', '    R', '        optional', ...Array.from({ length: n }, (_, i) => `            F${i}`), 'constraints'];
    for (let i = 0; i < 2 * n; i++) {
      const lit = () => `${rand() < 0.5 ? '!' : ''}F${Math.floor(rand() * n)}`;
      lines.push(`    ${lit()} | ${lit()} | ${lit()}`);
    }
    const text = `${lines.join('\n')}\n`;
    const { model } = parseUvl(text);
    const result = analyzeModel(model, { timeoutMs: 1, text });
    assert.ok(result.timeouts && result.timeouts.length > 0, 'some operation timed out');
    assert.ok(result.timeouts.includes('count'), 'counting 400 features under 800 random clauses takes more than 1 ms');
    assert.equal(result.configurations, null);
    assert.equal(result.configurations_status, 'timeout');
    for (const op of result.timeouts) {
      if (op === 'satisfiable') assert.equal(result.satisfiable, null);
      if (op === 'backbone') {
        assert.equal(result.core, null);
        assert.equal(result.dead, null);
      }
      if (op === 'false_optional') assert.equal(result.false_optional, null);
      if (op === 'atomic_sets') assert.equal(result.atomic_sets, null);
      if (op === 'explanations') {
        assert.equal(result.explanations, null, 'explanations out of time are null, not what they had found');
        assert.equal(result.explanation_paths, undefined);
      }
    }
    assert.ok(result.timeouts.includes('explanations'), 'the explanations come after what timed out');
    // The structural metrics need no solver and are always there.
    assert.equal(result.metrics.features, n + 1);
  });
});
