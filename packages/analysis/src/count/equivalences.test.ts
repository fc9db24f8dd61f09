// Merging equivalent literals before counting keeps the count: on hand-made cases and on random
// formulas rich in binary clauses, against enumeration.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mergeEquivalentLiterals } from './equivalences.ts';
import { countCnf } from './counter.ts';
import { bruteForceCnf } from '../testing/brute-force-cnf.support.ts';
import { seededRandom } from '../testing/generators.support.ts';

describe('equivalent literals', () => {
  it('keeps the smallest variable of each class and renumbers the rest in order', () => {
    // 1 = 2 = -3; 4 and 5 untouched.
    const clauses = [[1, -2], [-1, 2], [2, 3], [-2, -3], [3, 4, 5]];
    const reduced = mergeEquivalentLiterals(5, clauses, []);
    assert.ok(reduced);
    assert.equal(reduced.numVars, 3);
    assert.deepEqual(reduced.clauses, [[-1, 2, 3]], 'the cycle clauses become tautologies; 3 is -1, 4 and 5 become 2 and 3');
    assert.equal(countCnf(5, clauses), BigInt(bruteForceCnf({ numVars: 5, clauses }).count));
  });

  it('finds no model when a literal is equivalent to its negation', () => {
    const clauses = [[1, 2], [-2, -1], [-1, 2], [1, -2], [3]];
    assert.equal(mergeEquivalentLiterals(3, clauses, []), null);
    assert.equal(countCnf(3, clauses), 0n);
  });

  it('keeps a definition whose variable stays, and makes plain one whose variable is merged away', () => {
    // 3 = 1 and 2 (kept: 3 is the smallest of its class); 4 = 1 and 2 too, and two plain clauses make 4 equal to 1.
    const andOf3 = [[-3, 1], [-3, 2], [3, -1, -2]];
    const andOf4 = [[-4, 1], [-4, 2], [4, -1, -2]];
    const clauses = [...andOf3, ...andOf4, [-4, 1], [4, -1]];
    const reduced = mergeEquivalentLiterals(4, clauses, [...andOf3, ...andOf4]);
    assert.ok(reduced);
    assert.equal(reduced.numVars, 3);
    assert.deepEqual(reduced.definitions, [[-3, 1], [-3, 2], [3, -1, -2]], 'the definition of 3 keeps its role');
    assert.ok(reduced.clauses.some((c) => c.length === 2 && c.includes(-1) && c.includes(2)), '4 -> 2 stays as the plain clause 1 -> 2');
    assert.ok(!reduced.definitions.some((d) => d.includes(-1) && d.includes(2) && d.length === 2), 'and not as a definition');
    for (const d of reduced.definitions) assert.ok(reduced.clauses.includes(d), 'definitions are clauses of the result');
    assert.equal(countCnf(4, clauses, undefined, [...andOf3, ...andOf4], { dropUnusedDefinitions: 'always' }), BigInt(bruteForceCnf({ numVars: 4, clauses }).count));
  });

  it('counts like enumeration on 2,000 random formulas with many binary clauses', () => {
    const rand = seededRandom(20261125);
    for (let i = 0; i < 2000; i++) {
      const numVars = 1 + Math.floor(rand() * 12);
      const clauses: number[][] = [];
      const n = Math.floor(rand() * numVars * 3);
      for (let k = 0; k < n; k++) {
        const len = rand() < 0.7 ? 2 : 1 + Math.floor(rand() * 4);
        const clause: number[] = [];
        for (let j = 0; j < len; j++) clause.push((rand() < 0.5 ? -1 : 1) * (1 + Math.floor(rand() * numVars)));
        clauses.push(clause);
      }
      const definitions = clauses.filter(() => rand() < 0.1).filter((c) => c.length > 1);
      // Random clauses marked as definitions are not real ones: only the rewriting of the formula is compared here.
      assert.equal(countCnf(numVars, clauses), BigInt(bruteForceCnf({ numVars, clauses }).count), `formula ${i}: ${JSON.stringify(clauses)}`);
      const reduced = mergeEquivalentLiterals(numVars, clauses, definitions);
      if (reduced === null) assert.equal(BigInt(bruteForceCnf({ numVars, clauses }).count), 0n, `formula ${i} has no model`);
      else assert.equal(BigInt(bruteForceCnf({ numVars: reduced.numVars, clauses: reduced.clauses }).count), BigInt(bruteForceCnf({ numVars, clauses }).count), `formula ${i} reduced`);
    }
  });
});
