// Atomic sets against their definition: two live features are in one set iff neither "A and not
// B" nor "not A and B" is satisfiable, asked of a SAT solver pair by pair (pairs that some known
// model already tells apart are skipped, which cannot change the answer). On hand-made models
// whose sets come from the tree, from binary constraints, from longer clauses reduced by a dead
// feature, and from a constraint that only the solver sees; on generated models larger than brute
// force reaches; and on the corpus models of at most 1 000 features (the larger ones were compared
// with the former algorithm once, outside the tests: see the README).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseUvl, type UvlModel } from '../../../uvl/src/index.ts';
import { corpusSkipReason, diskLoader, findCorpus } from '../../../uvl/src/corpus.support.ts';
import { analyzeModel, satEncoding } from '../analyze.ts';
import { SatSolver } from '../sat/solver.ts';
import { randomModelText, seededRandom } from '../testing/generators.support.ts';

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The atomic sets by their definition, over the features the analysis calls live. */
function referenceAtomicSets(model: UvlModel, core: string[], variant: string[]): string[][] {
  const enc = satEncoding(model);
  const solver = new SatSolver(enc.numVars);
  for (const c of [...enc.tree, ...enc.definitions, ...enc.constraints.flatMap((k) => k.clauses)]) solver.addClause(c);
  const varOf = new Map(enc.names.map((n, i) => [n, i + 1]));
  const vars = variant.map((n) => varOf.get(n)!);
  const models: Int8Array[] = [];
  const random = seededRandom(7);
  for (let i = 0; i < 16; i++) {
    for (const v of vars) solver.setPhase(v, random() < 0.5);
    if (solver.solve() === 'sat') models.push(solver.model());
  }
  const equal = (u: number, v: number): boolean => {
    if (models.some((m) => m[u] !== m[v])) return false;
    for (const [a, b] of [[u, -v], [-u, v]] as const) {
      if (solver.solve([a, b]) === 'sat') {
        models.push(solver.model());
        return false;
      }
    }
    return true;
  };
  const sets: string[][] = core.length > 1 ? [[...core].sort(byName)] : [];
  const placed = new Set<number>();
  for (const u of vars) {
    if (placed.has(u)) continue;
    const set = [u, ...vars.filter((v) => v !== u && !placed.has(v) && equal(u, v))];
    for (const v of set) placed.add(v);
    if (set.length > 1) sets.push(set.map((v) => enc.names[v - 1]!).sort(byName));
  }
  return sets.sort((a, b) => byName(a[0]!, b[0]!));
}

function checkModel(text: string, label: string): string[][] {
  const { model, diagnostics } = parseUvl(text, { fileName: label, loader: diskLoader });
  assert.deepEqual(diagnostics.filter((d) => d.severity === 'error').map((d) => d.message), [], `${label} parses`);
  const result = analyzeModel(model, { text, skipCount: true });
  assert.equal(result.timeouts, undefined, label);
  if (!result.satisfiable) return [];
  assert.deepEqual(result.atomic_sets, referenceAtomicSets(model, result.core!, result.variant!), label);
  return result.atomic_sets!;
}

describe('atomic sets', () => {
  test('hand-made: the tree, binary constraints, a dead alternative, a constraint only the solver sees', () => {
    const text = [
      'features',
      '    Car',
      '        optional',
      '            Body',
      '                mandatory',
      '                    Frame',
      '                        mandatory',
      '                            Bolts',
      '            Audio',
      '                alternative',
      '                    Radio',
      '                    Tape',
      '            Light',
      '                alternative',
      '                    Led',
      '                    Bulb',
      '            Hook',
      '            Trailer',
      '            Sensor',
      '            Camera',
      '        alternative',
      '            Petrol',
      '            Diesel',
      'constraints',
      '    Hook <=> Trailer',
      '    !Tape',
      '    Led => Sensor',
      '    Bulb => Sensor',
      '    Sensor => Light',
      '    Camera => Body',
      '',
    ].join('\n');
    // Body, Frame, Bolts: mandatory edges. Hook, Trailer: a binary constraint. Audio, Radio: the
    // alternative of two with Tape dead. Light, Sensor: Light needs Led or Bulb, each needs Sensor.
    assert.deepEqual(checkModel(text, 'car.uvl'), [
      ['Audio', 'Radio'],
      ['Body', 'Bolts', 'Frame'],
      ['Hook', 'Trailer'],
      ['Light', 'Sensor'],
    ]);
  });

  test('hand-made: features in different branches of an alternative, deep below, are not merged', () => {
    const branch = (name: string) => [`            ${name}`, '                mandatory', `                    ${name}X`, '                optional', `                    ${name}Y`];
    const text = ['features', '    R', '        alternative', ...branch('A'), ...branch('B'), ...branch('C'), 'constraints', '    AY => BY | CY | AX', ''].join('\n');
    assert.deepEqual(checkModel(text, 'branches.uvl'), [
      ['A', 'AX'],
      ['B', 'BX'],
      ['C', 'CX'],
    ]);
  });

  test('generated models of 20 to 120 features against the definition', () => {
    const random = seededRandom(2026);
    for (let i = 0; i < 150; i++) {
      const generated = randomModelText(random, { features: 20 + Math.floor(random() * 100), maxConstraints: 12 });
      checkModel(generated.text, `generated #${i}`);
    }
  });

  const corpus = findCorpus();
  test('corpus models of at most 1 000 features against the definition', { skip: corpus ? false : corpusSkipReason }, () => {
    let checked = 0;
    for (const entry of corpus!.files) {
      if (!entry.valid || (entry.features ?? 0) > 1000) continue;
      checkModel(corpus!.read(entry.path), `${corpus!.dir}/${entry.path}`);
      checked++;
    }
    assert.ok(checked > 180, `checked ${checked} corpus models`);
  });
});
