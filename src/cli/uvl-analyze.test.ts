// `hub uvl analyze`, run as a user would run it: JSON lines and the readable report, invalid
// and missing files, imports resolved on disk, the --timeout option, and flamapy's counts for
// the 100 corpus models of flamapy-counts.jsonl in one run.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusSkipReason, findCorpus } from '../../packages/uvl/src/corpus.support.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dir = mkdtempSync(join(tmpdir(), 'hub-analyze-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function hub(args: string[], cwd = dir) {
  const result = spawnSync(process.execPath, [join(root, 'bin/hub.mjs'), 'uvl', 'analyze', ...args], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { code: result.status, out: result.stdout, err: result.stderr };
}
const jsonLines = (out: string) => out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);

// Car: Engine is an alternative of Diesel/Petrol; Turbo and Radio optional. Line 13 makes
// Diesel core, hence false-optional (an alternative child selected whenever Engine is) and Petrol
// dead; line 12 then makes Turbo dead; Radio is false-optional through line 14.
const CAR = [
  'features',
  '    Car',
  '        mandatory',
  '            Engine',
  '                alternative',
  '                    Diesel',
  '                    Petrol',
  '        optional',
  '            Turbo',
  '            Radio',
  'constraints',
  '    Diesel => !Turbo',
  '    Diesel',
  '    Engine => Radio',
  '',
].join('\n');
writeFileSync(join(dir, 'car.uvl'), CAR);
writeFileSync(join(dir, 'void.uvl'), 'features\n    R\n        optional\n            A\n            B\nconstraints\n    A => B\n    R => A\n    B => !A\n');
writeFileSync(join(dir, 'bad.uvl'), 'features\n    Car\n    mandatory\n        Radio\n');
writeFileSync(join(dir, 'arith.uvl'), 'features\n    R {price 3}\n        optional\n            A {price 2}\n            B\nconstraints\n    A.price + R.price > 4\n    A | B\n');
writeFileSync(join(dir, 'main.uvl'), 'imports\n    parts.Engine as e\nfeatures\n    Car\n        mandatory\n            e.Engine\n        optional\n            Radio\nconstraints\n    Radio => e.Turbo\n');
mkdirSync(join(dir, 'parts'));
writeFileSync(join(dir, 'parts/Engine.uvl'), 'features\n    Engine\n        optional\n            Turbo\n            Eco\n');

describe('hub uvl analyze', () => {
  it('--json: one line per file, the file first, the result shape without status', () => {
    const r = hub(['--json', 'car.uvl']);
    assert.equal(r.code, 0, r.err);
    const [line, ...rest] = jsonLines(r.out);
    assert.equal(rest.length, 0);
    assert.equal(Object.keys(line!)[0], 'file');
    assert.equal(line!.file, 'car.uvl');
    assert.equal(line!.status, undefined);
    assert.equal(line!.valid, true);
    assert.equal(line!.satisfiable, true);
    assert.equal(line!.boolean_only, true);
    assert.equal(line!.ignored_constraints, 0);
    // Car Engine Diesel Radio always; Turbo never; Petrol never: exactly one configuration.
    assert.equal(line!.configurations, '1');
    assert.equal(line!.configurations_status, 'exact');
    assert.deepEqual(line!.core, ['Car', 'Diesel', 'Engine', 'Radio']);
    assert.deepEqual(line!.dead, ['Petrol', 'Turbo']);
    assert.deepEqual(line!.variant, []);
    assert.deepEqual(line!.false_optional, ['Diesel', 'Radio']);
    assert.deepEqual(line!.explanations.dead.Turbo.sort(), ['Line 12: Diesel => !Turbo', 'Line 13: Diesel']);
    assert.deepEqual(line!.explanations.dead.Petrol, ['Line 13: Diesel']);
    assert.deepEqual(line!.explanations.false_optional, { Diesel: ['Line 13: Diesel'], Radio: ['Line 14: Engine => Radio'] });
    assert.equal(line!.metrics.features, 6);
    assert.equal(line!.metrics.constraints, 3);
    assert.equal(typeof line!.timings_ms, 'object');
    // The contract's example names the parse among the timings; the command measures it.
    assert.equal(typeof line!.timings_ms.parse, 'number');
    assert.equal(typeof line!.timings_ms.count, 'number');
  });

  it('a void model: satisfiable false, count 0, empty core and dead, the explanation of the void', () => {
    const r = hub(['--json', 'void.uvl']);
    assert.equal(r.code, 0, r.err);
    const [line] = jsonLines(r.out);
    assert.equal(line!.satisfiable, false);
    assert.equal(line!.configurations, '0');
    assert.deepEqual(line!.core, []);
    assert.deepEqual(line!.dead, []);
    assert.deepEqual(line!.explanations.void.sort(), ['Line 7: A => B', 'Line 8: R => A', 'Line 9: B => !A']);
  });

  it('an invalid or missing file: valid false with check-style errors, exit 1, the other files still analysed', () => {
    const r = hub(['--json', 'bad.uvl', 'car.uvl', 'missing.uvl']);
    assert.equal(r.code, 1);
    const lines = jsonLines(r.out);
    assert.equal(lines.length, 3);
    assert.deepEqual(lines[0], { file: 'bad.uvl', valid: false, errors: ["Line 3:4 - group 'mandatory' must be indented below the feature it belongs to"] });
    assert.equal(lines[1]!.configurations, '1');
    assert.equal(lines[2]!.valid, false);
    assert.match(lines[2]!.errors[0], /^Line 1:0 - cannot read missing\.uvl: no such file/);
  });

  it('arithmetic constraints are left out and said so; imports are grafted in', () => {
    const r = hub(['--json', 'arith.uvl', 'main.uvl']);
    assert.equal(r.code, 0, r.err);
    const [arith, main] = jsonLines(r.out);
    assert.equal(arith!.boolean_only, false);
    assert.equal(arith!.ignored_constraints, 1);
    assert.equal(arith!.configurations, '3'); // A | B over two optional features
    assert.equal(arith!.metrics.language_level, 'arithmetic');
    // Car, e.Engine (mandatory) with optional e.Turbo, e.Eco; Radio requires e.Turbo: 4 + 2 = 6.
    assert.equal(main!.configurations, '6');
    assert.ok(main!.variant.includes('e.Turbo'), JSON.stringify(main!.variant));
  });

  it('without --json: a readable report per file', () => {
    const r = hub(['car.uvl', 'void.uvl', 'arith.uvl']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^car\.uvl: satisfiable, 1 configuration$/m);
    assert.match(r.out, /^ {2}dead \(2\): Petrol, Turbo$/m);
    assert.match(r.out, /^ {4}Turbo because of:\n {6}Line 1[23]: /m);
    assert.match(r.out, /^ {2}false-optional \(2\): Diesel, Radio$/m);
    assert.match(r.out, /^void\.uvl: VOID \(no configuration\), 0 configurations$/m);
    assert.match(r.out, /^ {2}void because of:$/m);
    assert.match(r.out, /^arith\.uvl: satisfiable, 3 configurations of the Boolean part \(1 constraint left out\)$/m);
    const bad = hub(['bad.uvl']);
    assert.equal(bad.code, 1);
    assert.match(bad.out, /^bad\.uvl: invalid \(1 error\), not analysed\n {2}error {3}Line 3:4 - /m);
  });

  it('--timeout takes a positive number of seconds; anything else is a clear error with exit 1 and no output', () => {
    const ok = hub(['--json', '--timeout', '0.5', 'car.uvl']);
    assert.equal(ok.code, 0, ok.err);
    assert.equal(jsonLines(ok.out)[0]!.configurations, '1');
    for (const bad of ['abc', '0', '-1', '1e999', '5s']) {
      const r = hub(['--json', '--timeout', bad, 'car.uvl']);
      assert.equal(r.code, 1, `--timeout ${bad}`);
      assert.equal(r.out, '', `--timeout ${bad}`);
      assert.match(r.err, /--timeout must be a positive number of seconds/, `--timeout ${bad}`);
      assert.doesNotMatch(r.err, /\n\s+at /);
    }
  });
});

const corpus = findCorpus();

describe('hub uvl analyze on flamapy\'s counts', { skip: corpus ? false : corpusSkipReason }, () => {
  it('one --json run over the 100 models of flamapy-counts.jsonl gives exactly their configurations', { timeout: 600_000 }, () => {
    const listFile = join(corpus!.dir, 'flamapy-counts.jsonl');
    assert.ok(existsSync(listFile), 'flamapy-counts.jsonl is in the corpus');
    const expected = readFileSync(listFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { path: string; configurations: string });
    assert.equal(expected.length, 100);
    const r = hub(['--json', ...expected.map((e) => e.path)], corpus!.dir);
    assert.equal(r.code, 0, r.err);
    const lines = jsonLines(r.out);
    assert.equal(lines.length, 100);
    const wrong: string[] = [];
    expected.forEach((e, i) => {
      const line = lines[i]!;
      if (line.file !== e.path) wrong.push(`line ${i}: file ${line.file}, expected ${e.path}`);
      else if (line.configurations !== e.configurations || line.configurations_status !== 'exact') wrong.push(`${e.path}: ${line.configurations} (${line.configurations_status}), flamapy ${e.configurations}`);
    });
    assert.deepEqual(wrong, []);
  });
});
