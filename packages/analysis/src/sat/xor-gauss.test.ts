// The solver with XOR rows propagated by Gauss-Jordan elimination, against brute force: on random
// CNFs with random XORs, the models the solver enumerates (blocking each) are exactly the
// assignments that satisfy both, and solving under assumptions agrees with brute force too.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { generator } from '../count/approx.ts';
import { SatSolver } from './solver.ts';
import { XorGauss, type XorRow } from './xor-gauss.ts';
import { Deadline, DeadlineExceeded } from '../deadline.ts';

interface Instance { n: number; clauses: number[][]; rows: XorRow[] }

function randomInstance(random: () => number, n: number): Instance {
  const pick = (k: number) => random() % k;
  const clauses: number[][] = [];
  const clauseCount = pick(2 * n);
  for (let i = 0; i < clauseCount; i++) {
    const len = 1 + pick(3);
    clauses.push(Array.from({ length: len }, () => (1 + pick(n)) * (pick(2) ? 1 : -1)));
  }
  const rows: XorRow[] = [];
  const rowCount = pick(n);
  for (let i = 0; i < rowCount; i++) {
    const vars = new Set<number>();
    const len = 2 + pick(n - 1);
    while (vars.size < len) vars.add(1 + pick(n));
    rows.push({ vars: [...vars], parity: pick(2) === 1 });
  }
  return { n, clauses, rows };
}

function satisfies(inst: Instance, a: number): boolean {
  const val = (v: number) => ((a >> (v - 1)) & 1) === 1;
  if (!inst.clauses.every((c) => c.some((l) => val(Math.abs(l)) === l > 0))) return false;
  return inst.rows.every((r) => r.vars.reduce((p, v) => p !== val(v), false) === r.parity);
}

function solverOf(inst: Instance): SatSolver | null {
  const solver = new SatSolver(inst.n);
  for (const c of inst.clauses) solver.addClause(c);
  const gauss = new XorGauss(inst.n, inst.rows);
  if (gauss.inconsistent) return null;
  solver.setPropagator(gauss);
  return solver;
}

describe('XOR rows with Gauss-Jordan elimination', () => {
  test('the models enumerated are exactly those of the clauses and the XORs (1 500 random instances of 3 to 12 variables)', () => {
    const random = generator(7);
    let withModels = 0;
    for (let k = 0; k < 1500; k++) {
      const inst = randomInstance(random, 3 + (k % 10));
      const expected = new Set<number>();
      for (let a = 0; a < 1 << inst.n; a++) if (satisfies(inst, a)) expected.add(a);
      const solver = solverOf(inst);
      const found = new Set<number>();
      while (solver !== null && solver.solve() === 'sat') {
        let a = 0;
        for (let v = 1; v <= inst.n; v++) if (solver.modelValue(v)) a |= 1 << (v - 1);
        assert.ok(satisfies(inst, a), `instance ${k}: the model ${a} violates a clause or a row`);
        assert.ok(!found.has(a), `instance ${k}: model ${a} twice`);
        found.add(a);
        if (!solver.addClause(Array.from({ length: inst.n }, (_, i) => (solver.modelValue(i + 1) ? -(i + 1) : i + 1)))) break;
      }
      assert.equal(found.size, expected.size, `instance ${k}: ${JSON.stringify(inst)}`);
      if (expected.size > 0) withModels++;
    }
    assert.ok(withModels > 250, `${withModels} satisfiable instances`);
  });

  test('under assumptions: sat exactly when brute force finds a model, the failed assumptions suffice', () => {
    const random = generator(11);
    for (let k = 0; k < 800; k++) {
      const inst = randomInstance(random, 4 + (k % 9));
      const solver = solverOf(inst);
      if (solver === null) continue;
      for (let q = 0; q < 4; q++) {
        const assumptions = Array.from({ length: 1 + (random() % 4) }, () => (1 + (random() % inst.n)) * (random() % 2 ? 1 : -1));
        const holds = (a: number, lits: number[]) => lits.every((l) => (((a >> (Math.abs(l) - 1)) & 1) === 1) === l > 0);
        let expected = false;
        for (let a = 0; a < 1 << inst.n && !expected; a++) expected = satisfies(inst, a) && holds(a, assumptions);
        const status: string = solver.solve(assumptions);
        assert.equal(status, expected ? 'sat' : 'unsat', `instance ${k}, assumptions ${assumptions}`);
        if (status === 'unsat') {
          const core = solver.failedAssumptions();
          for (let a = 0; a < 1 << inst.n; a++) assert.ok(!(satisfies(inst, a) && holds(a, core)), `instance ${k}: core ${core} is satisfiable`);
        }
      }
    }
  });

  test('rows that contradict each other are found when built; dependent rows are dropped', () => {
    assert.equal(new XorGauss(3, [{ vars: [1, 2], parity: true }, { vars: [2, 3], parity: true }, { vars: [1, 3], parity: true }]).inconsistent, true);
    const g = new XorGauss(3, [{ vars: [1, 2], parity: true }, { vars: [2, 3], parity: true }, { vars: [1, 3], parity: false }]);
    assert.equal(g.inconsistent, false);
    assert.equal(g.rank, 2);
  });
});

describe('XOR rows and the clock', () => {
  test('the reduction of many dense rows stops at a deadline already past (DeadlineExceeded), and runs without one', () => {
    const random = generator(7);
    const n = 400;
    const rows: XorRow[] = Array.from({ length: 300 }, () => ({
      vars: Array.from({ length: n }, (_, i) => i + 1).filter(() => random() % 2 === 0),
      parity: random() % 2 === 0,
    }));
    assert.throws(() => new XorGauss(n, rows, { deadline: Deadline.after(0) }), DeadlineExceeded);
    assert.equal(new XorGauss(n, rows).inconsistent, false);
  });
});
