// 10 000 random small CNFs (fixed seed) against brute-force enumeration: the SAT solver's
// verdict and model, failed assumptions, incremental use (clauses added after a solve, selector
// variables from newVar), the backbone and the exact count.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cnfBackbone } from './ops/backbone.ts';
import { countCnf } from './count/counter.ts';
import { SatSolver } from './sat/solver.ts';
import { bruteForceCnf, satisfies, type Cnf } from './testing/brute-force-cnf.support.ts';
import { pigeonhole, randomCnf, seededRandom } from './testing/generators.support.ts';

const INSTANCES = 10_000;

/** A DIMACS-like dump of a CNF for failure messages (paste it into a unit test). */
function show(cnf: Cnf, assumptions?: number[]): string {
  return `numVars ${cnf.numVars}, clauses ${JSON.stringify(cnf.clauses)}${assumptions ? `, assumptions ${JSON.stringify(assumptions)}` : ''}`;
}

/** Loads a CNF into a fresh solver; false when addClause reported trivial unsatisfiability. */
function load(solver: SatSolver, clauses: number[][]): boolean {
  let ok = true;
  for (const c of clauses) if (!solver.addClause([...c])) ok = false;
  return ok;
}

function checkModel(solver: SatSolver, cnf: Cnf, assumptions: number[], failures: string[], what: string): void {
  const value = (v: number) => solver.modelValue(v);
  if (!satisfies(cnf.clauses, value)) failures.push(`${what}: the model violates a clause: ${show(cnf, assumptions)}`);
  if (!assumptions.every((a) => value(Math.abs(a)) === a > 0)) failures.push(`${what}: the model violates an assumption: ${show(cnf, assumptions)}`);
}

describe('random CNFs against brute force', () => {
  test(`${INSTANCES} CNFs: solve, model, failed assumptions, incremental clauses, backbone, count`, { timeout: 600_000 }, () => {
    const rand = seededRandom(20261123);
    const failures: string[] = [];
    let sat = 0;
    let unsatUnderAssumptions = 0;
    for (let i = 0; i < INSTANCES && failures.length < 10; i++) {
      const cnf = randomCnf(rand, 10);
      const truth = bruteForceCnf(cnf);
      if (truth.satisfiable) sat++;

      // Plain solve.
      const solver = new SatSolver(cnf.numVars);
      const ok = load(solver, cnf.clauses);
      if (!ok && truth.satisfiable) failures.push(`addClause reported unsat on a satisfiable CNF: ${show(cnf)}`);
      const status = solver.solve();
      if (status !== (truth.satisfiable ? 'sat' : 'unsat')) failures.push(`solve gave ${status}, brute force ${truth.satisfiable ? 'sat' : 'unsat'}: ${show(cnf)}`);
      else if (status === 'sat') checkModel(solver, cnf, [], failures, 'solve');

      // Under random assumptions, on the same solver (incremental), then without them again.
      const assumptions = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => (rand() < 0.5 ? -1 : 1) * (1 + Math.floor(rand() * cnf.numVars)));
      const under = bruteForceCnf(cnf, assumptions);
      const aStatus = solver.solve(assumptions);
      if (aStatus !== (under.satisfiable ? 'sat' : 'unsat')) failures.push(`solve(assumptions) gave ${aStatus}, brute force ${under.satisfiable ? 'sat' : 'unsat'}: ${show(cnf, assumptions)}`);
      else if (aStatus === 'sat') checkModel(solver, cnf, assumptions, failures, 'solve(assumptions)');
      else {
        unsatUnderAssumptions++;
        const failed = solver.failedAssumptions();
        if (!failed.every((l) => assumptions.includes(l))) failures.push(`failedAssumptions ${JSON.stringify(failed)} not among the assumptions: ${show(cnf, assumptions)}`);
        else if (bruteForceCnf(cnf, failed).satisfiable) failures.push(`failedAssumptions ${JSON.stringify(failed)} do not suffice for unsat: ${show(cnf, assumptions)}`);
      }
      const again = solver.solve();
      if (again !== status) failures.push(`solve() after solve(assumptions) gave ${again}, before ${status}: ${show(cnf, assumptions)}`);

      // Every fourth instance: clauses added after a first solve, and selector variables.
      if (i % 4 === 0 && cnf.clauses.length >= 2) {
        const half = Math.floor(cnf.clauses.length / 2);
        const inc = new SatSolver(cnf.numVars);
        load(inc, cnf.clauses.slice(0, half));
        const first = inc.solve();
        const firstTruth = bruteForceCnf({ numVars: cnf.numVars, clauses: cnf.clauses.slice(0, half) });
        if (first !== (firstTruth.satisfiable ? 'sat' : 'unsat')) failures.push(`incremental first half gave ${first}: ${show(cnf)}`);
        load(inc, cnf.clauses.slice(half));
        const second = inc.solve();
        if (second !== (truth.satisfiable ? 'sat' : 'unsat')) failures.push(`clauses added after a solve: gave ${second}, brute force ${truth.satisfiable ? 'sat' : 'unsat'}: ${show(cnf)} (split at ${half})`);

        // Each clause guarded by a selector s (clause | -s); all selectors assumed = the CNF.
        const sel = new SatSolver(cnf.numVars);
        const selectors = cnf.clauses.map((c) => {
          const s = sel.newVar();
          sel.addClause([...c, -s]);
          return s;
        });
        if (selectors.some((s, k) => s !== cnf.numVars + 1 + k)) failures.push(`newVar numbers ${JSON.stringify(selectors)} for ${cnf.numVars} variables`);
        const sStatus = sel.solve(selectors);
        if (sStatus !== (truth.satisfiable ? 'sat' : 'unsat')) failures.push(`selector solve gave ${sStatus}: ${show(cnf)}`);
        else if (sStatus === 'unsat') {
          const core = sel.failedAssumptions();
          const kept = cnf.clauses.filter((_, k) => core.includes(selectors[k]!));
          if (!core.every((l) => selectors.includes(l))) failures.push(`selector core ${JSON.stringify(core)} is not made of selectors: ${show(cnf)}`);
          else if (bruteForceCnf({ numVars: cnf.numVars, clauses: kept }).satisfiable) failures.push(`selector core ${JSON.stringify(core)} is satisfiable: ${show(cnf)}`);
        }
      }

      // Backbone and count, each on a fresh copy of the clauses.
      const bb = cnfBackbone(cnf.numVars, cnf.clauses.map((c) => [...c]));
      if (bb === null) failures.push(`cnfBackbone timed out without a deadline: ${show(cnf)}`);
      else if (bb.satisfiable !== truth.satisfiable) failures.push(`cnfBackbone satisfiable ${bb.satisfiable}: ${show(cnf)}`);
      else if (truth.satisfiable) {
        for (let v = 1; v <= cnf.numVars; v++) {
          if (bb.value[v] !== truth.backbone[v]) {
            failures.push(`cnfBackbone value[${v}] = ${bb.value[v]}, brute force ${truth.backbone[v]}: ${show(cnf)}`);
            break;
          }
        }
      }
      const count = countCnf(cnf.numVars, cnf.clauses.map((c) => [...c]));
      if (count !== truth.count) failures.push(`countCnf gave ${count}, brute force ${truth.count}: ${show(cnf)}`);
      // The separator and lookahead decisions, which only wide formulas get by default.
      const bySeparators = countCnf(cnf.numVars, cnf.clauses.map((c) => [...c]), undefined, [], { separators: 'always' });
      if (bySeparators !== truth.count) failures.push(`countCnf by separators gave ${bySeparators}, brute force ${truth.count}: ${show(cnf)}`);
      // Components counted by dynamic programming over a tree decomposition (wide formulas only by default).
      const byDecomposition = countCnf(cnf.numVars, cnf.clauses.map((c) => [...c]), undefined, [], { narrowComponents: 'always' });
      if (byDecomposition !== truth.count) failures.push(`countCnf by tree decomposition gave ${byDecomposition}, brute force ${truth.count}: ${show(cnf)}`);
    }
    assert.deepEqual(failures, []);
    // The generator must give both verdicts, or the test proves little.
    assert.ok(sat > INSTANCES / 5 && sat < (INSTANCES * 4) / 5, `${sat} satisfiable of ${INSTANCES}`);
    assert.ok(unsatUnderAssumptions > INSTANCES / 20, `${unsatUnderAssumptions} unsat under assumptions`);
  });

  test('regression: satisfiable formulas a wrong learned clause once made unsat', () => {
    // Found by the structured fuzz below, minimised: 13 variables, 18 clauses; satisfied by
    // 1 -2 -3 4 -5 -6 7 8 -9 -10 -11 12 -13. (Stale `seen` flags of literals dropped by the
    // learned clause's minimisation made later learned clauses unsound.)
    const small: Cnf = {
      numVars: 13,
      clauses: [[1, 2, 3], [4, 5], [6, 7], [8, 9, 10], [11, 12, 13], [-1, -11], [-6, -8], [-6, -11], [-8, -11], [-2, -4], [-2, -9], [-2, -12], [-9, -12], [-3, -7], [-3, -10], [-3, -13], [-5, -10], [-7, -13]],
    };
    // 7 pigeons in 6 holes where pigeons 0 and 1 may share hole 0: satisfiable.
    const php = pigeonhole(7, 6);
    const shared: Cnf = { numVars: php.numVars, clauses: php.clauses.filter((c) => !(c.length === 2 && c[0] === -1 && c[1] === -7)) };
    assert.equal(shared.clauses.length, php.clauses.length - 1);
    for (const cnf of [small, shared]) {
      const solver = new SatSolver(cnf.numVars);
      load(solver, cnf.clauses);
      assert.equal(solver.solve(), 'sat', show(cnf));
      assert.ok(satisfies(cnf.clauses, (v) => solver.modelValue(v)));
      const bb = cnfBackbone(cnf.numVars, cnf.clauses);
      assert.equal(bb?.satisfiable, true);
    }
    assert.equal(countCnf(small.numVars, small.clauses), bruteForceCnf(small).count);
  });

  test('3 000 structured CNFs (pigeonhole-like, some at-most-one clauses dropped, up to 16 variables)', { timeout: 600_000 }, () => {
    const rand = seededRandom(99);
    const failures: string[] = [];
    let sat = 0;
    for (let i = 0; i < 3_000 && failures.length < 5; i++) {
      const pigeons = 3 + Math.floor(rand() * 3);
      const holes = Math.min(2 + Math.floor(rand() * 3), Math.floor(16 / pigeons));
      const php = pigeonhole(pigeons, holes);
      const cnf: Cnf = { numVars: php.numVars, clauses: php.clauses.filter((c) => c.length > 2 || rand() < 0.85) };
      const truth = bruteForceCnf(cnf);
      if (truth.satisfiable) sat++;
      const solver = new SatSolver(cnf.numVars);
      load(solver, cnf.clauses);
      const status = solver.solve();
      if (status !== (truth.satisfiable ? 'sat' : 'unsat')) failures.push(`solve gave ${status}: ${show(cnf)}`);
      const count = countCnf(cnf.numVars, cnf.clauses);
      if (count !== truth.count) failures.push(`countCnf gave ${count}, brute force ${truth.count}: ${show(cnf)}`);
      const bySeparators = countCnf(cnf.numVars, cnf.clauses, undefined, [], { separators: 'always' });
      if (bySeparators !== truth.count) failures.push(`countCnf by separators gave ${bySeparators}, brute force ${truth.count}: ${show(cnf)}`);
      const byDecomposition = countCnf(cnf.numVars, cnf.clauses, undefined, [], { narrowComponents: 'always' });
      if (byDecomposition !== truth.count) failures.push(`countCnf by tree decomposition gave ${byDecomposition}, brute force ${truth.count}: ${show(cnf)}`);
      const bb = cnfBackbone(cnf.numVars, cnf.clauses);
      if (!bb || bb.satisfiable !== truth.satisfiable || (truth.satisfiable && Array.from(truth.backbone).some((x, v) => v > 0 && bb.value[v] !== x))) {
        failures.push(`cnfBackbone differs: ${show(cnf)}`);
      }
    }
    assert.deepEqual(failures, []);
    assert.ok(sat > 300 && sat < 2_700, `${sat} satisfiable of 3000`);
  });

  test('larger random CNFs (up to 18 variables) against brute force: count and backbone', { timeout: 600_000 }, () => {
    const rand = seededRandom(7);
    const failures: string[] = [];
    for (let i = 0; i < 150 && failures.length < 5; i++) {
      const numVars = 12 + Math.floor(rand() * 7);
      const cnf = randomCnf(rand, numVars);
      cnf.numVars = Math.max(cnf.numVars, numVars);
      const truth = bruteForceCnf(cnf);
      const count = countCnf(cnf.numVars, cnf.clauses.map((c) => [...c]));
      if (count !== truth.count) failures.push(`countCnf gave ${count}, brute force ${truth.count}: ${show(cnf)}`);
      const bySeparators = countCnf(cnf.numVars, cnf.clauses.map((c) => [...c]), undefined, [], { separators: 'always' });
      if (bySeparators !== truth.count) failures.push(`countCnf by separators gave ${bySeparators}, brute force ${truth.count}: ${show(cnf)}`);
      // Components counted by dynamic programming over a tree decomposition (wide formulas only by default).
      const byDecomposition = countCnf(cnf.numVars, cnf.clauses.map((c) => [...c]), undefined, [], { narrowComponents: 'always' });
      if (byDecomposition !== truth.count) failures.push(`countCnf by tree decomposition gave ${byDecomposition}, brute force ${truth.count}: ${show(cnf)}`);
      const bb = cnfBackbone(cnf.numVars, cnf.clauses.map((c) => [...c]));
      if (!bb || bb.satisfiable !== truth.satisfiable || (truth.satisfiable && Array.from(truth.backbone).some((x, v) => v > 0 && bb.value[v] !== x))) {
        failures.push(`cnfBackbone differs: ${show(cnf)}`);
      }
    }
    assert.deepEqual(failures, []);
  });

  test('2 000 random circuits: definitions count as the clauses they are, even once unused', { timeout: 600_000 }, () => {
    // Each gate is a random Boolean function of up to 3 earlier variables, written as the full CNF of
    // t <=> f(inputs): one value of t for every assignment of the inputs, as countCnf requires. The
    // asserted clauses mention gates and inputs alike, so that decisions leave some gates unused.
    const rand = seededRandom(1234);
    const failures: string[] = [];
    let nonzero = 0;
    for (let i = 0; i < 2_000 && failures.length < 5; i++) {
      const inputs = 2 + Math.floor(rand() * 6);
      const numVars = inputs + 1 + Math.floor(rand() * (14 - inputs));
      const definitions: number[][] = [];
      for (let t = inputs + 1; t <= numVars; t++) {
        const arity = 1 + Math.floor(rand() * Math.min(3, t - 1));
        const ins = new Set<number>();
        while (ins.size < arity) ins.add(1 + Math.floor(rand() * (t - 1)));
        const vs = [...ins];
        for (let m = 0; m < 1 << arity; m++) {
          const value = rand() < 0.5;
          definitions.push([...vs.map((v, b) => ((m >> b) & 1 ? -v : v)), value ? t : -t]);
        }
      }
      const assertions = Array.from({ length: Math.floor(rand() * 5) }, () => {
        const width = 1 + Math.floor(rand() * 3);
        return Array.from({ length: width }, () => (1 + Math.floor(rand() * numVars)) * (rand() < 0.5 ? 1 : -1));
      });
      const truth = bruteForceCnf({ numVars, clauses: [...assertions, ...definitions] });
      if (truth.count > 0n) nonzero++;
      // Definitions apart, and inside the clause list (as the analysis passes them); always told apart.
      const apart = countCnf(numVars, assertions.map((c) => [...c]), undefined, definitions.map((c) => [...c]), { dropUnusedDefinitions: 'always' });
      const inside = definitions.map((c) => [...c]);
      const mixed = countCnf(numVars, [...inside, ...assertions.map((c) => [...c])], undefined, inside, { dropUnusedDefinitions: 'always' });
      // The same with the separator and lookahead decisions, which follow the dropped definitions.
      const bySeparators = countCnf(numVars, [...inside, ...assertions.map((c) => [...c])], undefined, inside, { dropUnusedDefinitions: 'always', separators: 'always' });
      // And with narrow components counted over a tree decomposition of what is left of them.
      const byDecomposition = countCnf(numVars, [...inside, ...assertions.map((c) => [...c])], undefined, inside, { dropUnusedDefinitions: 'always', separators: 'always', narrowComponents: 'always' });
      for (const count of [apart, mixed, bySeparators, byDecomposition]) {
        if (count !== truth.count) failures.push(`countCnf gave ${count}, brute force ${truth.count}: ${show({ numVars, clauses: assertions })} defs ${JSON.stringify(definitions)}`);
      }
    }
    assert.deepEqual(failures, []);
    assert.ok(nonzero > 1_000, `${nonzero} with models`);
  });
});
