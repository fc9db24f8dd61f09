// The Explainer alone: its answers are checked on a solver of its own that holds the tree and
// only the listed constraints as plain clauses (sufficient: the anomaly's assumptions fail;
// minimal: without any one listed constraint they have a model), and the deletion steps that
// keep a constraint are shown to be answered by patched models rather than SAT calls.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseUvl } from '../../../uvl/src/index.ts';
import { satEncoding } from '../analyze.ts';
import { ModelPatcher } from '../configure/model-patch.ts';
import { Deadline } from '../deadline.ts';
import type { EncodedConstraint, EncodedModel } from '../encode.ts';
import { SatSolver } from '../sat/solver.ts';
import { randomModelText, seededRandom } from '../testing/generators.support.ts';
import { falseOptionalCandidates } from './false-optional.ts';
import { Explainer } from './explain.ts';

function encode(text: string): EncodedModel {
  const { model } = parseUvl(text);
  return satEncoding(model, text);
}

/** Whether the tree, the definitions and the given constraints (as plain clauses) have a model with the assumptions. */
function satisfiable(enc: EncodedModel, constraints: EncodedConstraint[], assumptions: number[]): boolean {
  const solver = new SatSolver(enc.numVars);
  for (const c of [...enc.tree, ...enc.definitions, ...constraints.flatMap((k) => k.clauses)]) solver.addClause(c);
  return solver.solve(assumptions) === 'sat';
}

/** What is wrong with an explanation of the assumptions, or null. */
function wrongExplanation(enc: EncodedModel, assumptions: number[], why: EncodedConstraint[]): string | null {
  if (satisfiable(enc, why, assumptions)) return `not sufficient: ${why.map((c) => c.label).join('; ')}`;
  for (const c of why) {
    if (!satisfiable(enc, why.filter((k) => k !== c), assumptions)) return `not minimal: ${c.label} can go`;
  }
  return null;
}

/**
 * Runs `body` while counting the SAT calls that find a model and the patches that succeed or
 * fail; with `patching: false` every patch fails, as one may, so that the SAT calls answer.
 */
function counted<T>(body: () => T, patching = true): { value: T; satCalls: number; patches: number; failedPatches: number } {
  const solve = SatSolver.prototype.solve;
  const patch = ModelPatcher.prototype.patch;
  const tally = { satCalls: 0, patches: 0, failedPatches: 0 };
  SatSolver.prototype.solve = function (this: SatSolver, ...args: Parameters<SatSolver['solve']>) {
    const status = solve.apply(this, args);
    if (status === 'sat') tally.satCalls++;
    return status;
  };
  ModelPatcher.prototype.patch = function (this: ModelPatcher, ...args: Parameters<ModelPatcher['patch']>) {
    const changed = patching ? patch.apply(this, args) : null;
    if (changed === null) tally.failedPatches++;
    else tally.patches++;
    return changed;
  };
  try {
    return { value: body(), ...tally };
  } finally {
    SatSolver.prototype.solve = solve;
    ModelPatcher.prototype.patch = patch;
  }
}

test('a constraint the deletion keeps costs no SAT call when a patched model shows it is needed', () => {
  // Twenty cycles Ak => Bk => Ck => !Ak: each Ak is dead, and each needs all three constraints.
  const n = 20;
  const features = Array.from({ length: n }, (_, k) => [`A${k}`, `B${k}`, `C${k}`]).flat();
  const constraints = Array.from({ length: n }, (_, k) => [`A${k} => B${k}`, `B${k} => C${k}`, `C${k} => !A${k}`]).flat();
  const text = `features\n    R\n        optional\n${features.map((f) => `            ${f}\n`).join('')}constraints\n${constraints.map((c) => `    ${c}\n`).join('')}`;
  const enc = encode(text);
  const explainer = new Explainer(enc);
  const { value: answers, satCalls } = counted(() => Array.from({ length: n }, (_, k) => explainer.explain([enc.names.indexOf(`A${k}`) + 1], Deadline.none())));
  answers.forEach((why, k) => {
    const first = features.length + 5 + 3 * k; // the line of Ak => Bk (after the tree and `constraints`)
    assert.deepEqual(why?.map((c) => c.label), [`Line ${first}: A${k} => B${k}`, `Line ${first + 1}: B${k} => C${k}`, `Line ${first + 2}: C${k} => !A${k}`]);
  });
  // Deletion alone made 3 such calls per feature (60); the model patches start from is the one left.
  assert.ok(satCalls <= 1, `${satCalls} SAT calls found a model`);
});

for (const patching of [true, false]) {
  test(`generated models: every dead and false-optional feature explained minimally, ${patching ? 'with' : 'without'} patched models`, { timeout: 600_000 }, () => {
    const rand = seededRandom(3636);
    const wrong: string[] = [];
    const seen = { explained: 0, [patching ? 'patches' : 'failedPatches']: 0 };
    for (let i = 0; i < 400 && wrong.length < 5; i++) {
      const g = randomModelText(rand, { features: 4 + Math.floor(rand() * 12), maxConstraints: 7 });
      const enc = encode(g.text);
      const backbone = new Int8Array(enc.numVars + 1);
      const anomalies: number[][] = [];
      if (!satisfiable(enc, enc.constraints, [])) continue;
      for (let v = 1; v <= enc.featureVars; v++) {
        if (!satisfiable(enc, enc.constraints, [v])) {
          backbone[v] = -1;
          anomalies.push([v]);
        }
      }
      for (const k of falseOptionalCandidates(enc, backbone)) {
        const assumptions = [enc.nodeVar[enc.flat.features[k]!.parent]!, -enc.nodeVar[k]!];
        if (!satisfiable(enc, enc.constraints, assumptions)) anomalies.push(assumptions);
      }
      const explainer = new Explainer(enc);
      const run = counted(() => anomalies.map((a) => explainer.explain(a, Deadline.none())), patching);
      run.value.forEach((why, k) => {
        const problem = why ? wrongExplanation(enc, anomalies[k]!, why) : 'no explanation';
        if (problem) wrong.push(`${problem} of ${JSON.stringify(anomalies[k])}\n${g.text}`);
        if (why && why.length > 0) seen.explained++;
      });
      if (patching) seen.patches! += run.patches;
      else seen.failedPatches! += run.failedPatches;
    }
    assert.deepEqual(wrong, []);
    // The way to a model under test must have been taken often, or this test proves little.
    for (const [k, v] of Object.entries(seen)) assert.ok(v >= 20, `only ${v} ${k}`);
  });
}
