// `hub uvl compile`, `hub uvl commonality` and `hub uvl sample --uniform`, run as a user would
// run them, on a model whose six configurations are listed here by hand.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dir = mkdtempSync(join(tmpdir(), 'hub-compile-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function hub(args: string[]) {
  const result = spawnSync(process.execPath, [join(root, 'bin/hub.mjs'), 'uvl', ...args], { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

// Engine is Diesel or Petrol; Diesel excludes Turbo; Radio is free.
const CAR = 'features\n    Car\n        mandatory\n            Engine\n                alternative\n                    Diesel\n                    Petrol\n        optional\n            Turbo\n            Radio\nconstraints\n    Diesel => !Turbo\n';
/** The six configurations, as sorted names joined by commas. */
const CAR_CONFIGURATIONS = new Set(
  [
    ['Diesel'],
    ['Diesel', 'Radio'],
    ['Petrol'],
    ['Petrol', 'Radio'],
    ['Petrol', 'Turbo'],
    ['Petrol', 'Radio', 'Turbo'],
  ].map((extra) => ['Car', 'Engine', ...extra].sort().join(',')),
);
writeFileSync(join(dir, 'car.uvl'), CAR);
writeFileSync(join(dir, 'bad.uvl'), 'features\n    Car\n    mandatory\n        Radio\n');
writeFileSync(join(dir, 'void.uvl'), 'features\n    R\n        optional\n            A\nconstraints\n    A\n    !A\n');

describe('hub uvl compile', () => {
  it('writes the d4 file and the numbering of `hub uvl convert --to cnf`', () => {
    const r = hub(['compile', 'car.uvl', '-o', 'car.nnf', '--map', 'car.map']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /car\.uvl: \d+ nodes, 6 configurations, written to car\.nnf/);
    const nnf = readFileSync(join(dir, 'car.nnf'), 'utf8');
    assert.match(nnf, /^[oa] 1 0\n/);
    assert.doesNotMatch(nnf, /^c/m);
    const cnf = hub(['convert', 'car.uvl', '--to', 'cnf']);
    const numbering = cnf.out.split('\n').filter((l) => /^c \d+ /.test(l));
    assert.deepEqual(readFileSync(join(dir, 'car.map'), 'utf8').trim().split('\n'), numbering);
    assert.equal(hub(['compile', 'car.uvl']).out, nnf, 'standard output without -o');
  });

  it('exit 1 for an invalid model; a void model compiles to false', () => {
    const bad = hub(['compile', 'bad.uvl']);
    assert.equal(bad.code, 1);
    assert.match(bad.err, /invalid model/);
    assert.equal(hub(['compile', 'void.uvl']).out, 'f 1 0\n');
  });
});

describe('hub uvl commonality', () => {
  it('--json: every feature, exact counts and probabilities', () => {
    const r = hub(['commonality', 'car.uvl', '--json']);
    assert.equal(r.code, 0, r.err);
    const result = JSON.parse(r.out);
    assert.equal(result.configurations, '6');
    assert.deepEqual(Object.keys(result.features), ['Car', 'Diesel', 'Engine', 'Petrol', 'Radio', 'Turbo']);
    assert.deepEqual(result.features.Petrol, { commonality: '4', probability: 4 / 6 });
    assert.deepEqual(result.features.Radio, { commonality: '3', probability: 0.5 });
    assert.deepEqual(result.features.Car, { commonality: '6', probability: 1 });
  });

  it('readable text', () => {
    const r = hub(['commonality', 'car.uvl']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /car\.uvl: 6 configurations\n/);
    assert.match(r.out, /Turbo\s+0\.333\s+2/);
  });

  const automotive01 = join(root, '../shared/uvl-corpus/real/Feature_Models/Automotive/Automotive01/automotive01.uvl');
  it('automotive01: a variant feature is never 0 in JSON, nor 0 or 1 in text, and only the 185 dead features are 0', { skip: existsSync(automotive01) ? false : 'no corpus' }, () => {
    const json = hub(['commonality', automotive01, '--json']);
    assert.equal(json.code, 0, json.err);
    const result = JSON.parse(json.out) as { configurations: string; features: Record<string, { commonality: string; probability: number }> };
    const total = BigInt(result.configurations);
    const variant = Object.values(result.features).filter((f) => BigInt(f.commonality) > 0n && BigInt(f.commonality) < total);
    assert.ok(variant.length > 0);
    // The nearest double to a share within 2^-54 of 1 is 1 (JSON says so); the text never does.
    assert.deepEqual(variant.filter((f) => f.probability === 0), []);
    assert.equal(Object.values(result.features).filter((f) => f.probability === 0).length, 185);
    assert.ok(result.features.N_100300__F_100321!.probability > 3.02e-53 && result.features.N_100300__F_100321!.probability < 3.03e-53);
    const text = hub(['commonality', automotive01]);
    assert.match(text.out, /N_100300__F_100321\s+3\.0 × 10\^-53\s/);
    assert.match(text.out, /N_102385__F_102490\s+> 0\.999\s/);
  });
});

describe('hub uvl sample --uniform', () => {
  it('CSV: the features sorted by name, one row of 0/1 per configuration, each valid', () => {
    const r = hub(['sample', 'car.uvl', '--uniform', '40', '--seed', '3']);
    assert.equal(r.code, 0, r.err);
    const [header, ...rows] = r.out.trim().split('\n');
    assert.equal(header, 'Car,Diesel,Engine,Petrol,Radio,Turbo');
    assert.equal(rows.length, 40);
    const names = header!.split(',');
    const seen = new Set<string>();
    for (const row of rows) {
      const picked = row.split(',').flatMap((v, i) => (v === '1' ? [names[i]!] : []));
      assert.ok(CAR_CONFIGURATIONS.has(picked.join(',')), row);
      seen.add(picked.join(','));
    }
    assert.ok(seen.size >= 4, 'forty draws reach most of the six configurations');
    assert.equal(hub(['sample', 'car.uvl', '--uniform', '40', '--seed', '3']).out, r.out, 'the same seed, the same sample');
  });

  it('--json with decisions', () => {
    const r = hub(['sample', 'car.uvl', '--uniform', '10', '--select', 'Turbo', '--deselect', 'Radio', '--json']);
    assert.equal(r.code, 0, r.err);
    const result = JSON.parse(r.out);
    assert.equal(result.kind, 'uniform');
    assert.equal(result.seed, 1);
    assert.equal(result.n, 10);
    assert.deepEqual(result.features, ['Car', 'Diesel', 'Engine', 'Petrol', 'Radio', 'Turbo']);
    assert.equal(result.configurations.length, 10);
    for (const c of result.configurations) assert.deepEqual(c, ['Car', 'Engine', 'Petrol', 'Turbo']);
  });

  it('exit 1 for bad values and invalid models', () => {
    for (const [args, message] of [
      [['--uniform', '0'], /from 1 to 10000/],
      [['--uniform', '10001'], /from 1 to 10000/],
      [['--uniform', 'ten'], /from 1 to 10000/],
      [['--uniform', '5', '--seed', '-1'], /--seed must be/],
      [['--uniform', '5', '--select', 'Wings'], /unknown feature 'Wings'/],
      [[], /--uniform N/],
    ] as const) {
      const r = hub(['sample', 'car.uvl', ...args]);
      assert.equal(r.code, 1, args.join(' '));
      assert.match(r.err, message);
    }
    assert.equal(hub(['sample', 'bad.uvl', '--uniform', '3']).code, 1);
  });

  it('--json: an invalid or unreadable model and a bad value still give their JSON line, as configure and --twise do', () => {
    writeFileSync(join(dir, 'empty.uvl'), '');
    const badLine = ["Line 3:4 - group 'mandatory' must be indented below the feature it belongs to"];
    for (const args of [['commonality', '--json'], ['sample', '--uniform', '3', '--json']]) {
      for (const [file, errors] of [['bad.uvl', badLine], ['empty.uvl', ['the model has no features']], ['missing.uvl', [/no such file/]]] as const) {
        const r = hub([...args, file]);
        assert.equal(r.code, 1, `${args.join(' ')} ${file}`);
        const line = JSON.parse(r.out);
        assert.deepEqual([line.file, line.valid, line.errors.length], [file, false, 1], `${args.join(' ')} ${file}: ${r.out}`);
        assert.match(line.errors[0], typeof errors[0] === 'string' ? new RegExp(errors[0].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : errors[0]);
      }
    }
    const unknown = hub(['sample', 'car.uvl', '--uniform', '3', '--select', 'Wings', '--json']);
    assert.deepEqual([unknown.code, JSON.parse(unknown.out)], [1, { error: "unknown feature 'Wings'" }]);
  });

  it('no configuration extends contradicting decisions: an empty sample, said so', () => {
    const r = hub(['sample', 'car.uvl', '--uniform', '3', '--select', 'Diesel,Turbo', '--json']);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(JSON.parse(r.out).configurations, []);
    assert.match(r.err, /no configuration extends the decisions/);
  });
});
