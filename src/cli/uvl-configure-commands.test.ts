// `hub uvl configure` and `hub uvl sample --twise`, run as a user would run them: JSON and text output,
// the CSV of a sample, bad values and invalid models (exit 1).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dir = mkdtempSync(join(tmpdir(), 'hub-configure-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function hub(args: string[]) {
  const result = spawnSync(process.execPath, [join(root, 'bin/hub.mjs'), 'uvl', ...args], { cwd: dir, encoding: 'utf8' });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

const CAR = 'features\n    Car\n        mandatory\n            Engine\n                alternative\n                    Diesel\n                    Petrol\n        optional\n            Turbo\n            Radio\nconstraints\n    Diesel => !Turbo\n    Turbo => Radio\n';
writeFileSync(join(dir, 'car.uvl'), CAR);
writeFileSync(join(dir, 'bad.uvl'), 'features\n    Car\n    mandatory\n        Radio\n');

describe('hub uvl configure', () => {
  it('gives every state and the remaining count as JSON', () => {
    const r = hub(['configure', 'car.uvl', '--select', 'Diesel', '--json']);
    assert.equal(r.code, 0, r.err);
    const json = JSON.parse(r.out);
    assert.equal(json.consistent, true);
    assert.equal(json.remaining, '2');
    assert.deepEqual(json.features, { Car: 'forced', Engine: 'forced', Diesel: 'selected', Petrol: 'excluded', Turbo: 'excluded', Radio: 'open' });
  });

  it('gives a minimal conflict, why, and readable text', () => {
    const conflict = JSON.parse(hub(['configure', 'car.uvl', '--select', 'Diesel,Turbo,Radio', '--json']).out);
    assert.deepEqual(conflict.conflict, { decisions: ['selected Diesel', 'selected Turbo'], constraints: ['Line 12: Diesel => !Turbo'] });
    const why = JSON.parse(hub(['configure', 'car.uvl', '--select', 'Diesel', '--why', 'Turbo', '--json']).out);
    assert.deepEqual(why, { feature: 'Turbo', state: 'excluded', why: ['selected Diesel', 'Line 12: Diesel => !Turbo'] });
    const text = hub(['configure', 'car.uvl', '--deselect', 'Radio']);
    assert.equal(text.code, 0);
    assert.match(text.out, /remaining configurations: 2/);
    assert.match(text.out, /excluded \(1\): Turbo/);
  });

  it('takes names quoted as in UVL: one holding a comma, in a list and for why', () => {
    writeFileSync(join(dir, 'roof.uvl'), 'features\n    Car\n        optional\n            "Sun, Roof"\n            Rack\nconstraints\n    "Sun, Roof" => !Rack\n');
    const step = JSON.parse(hub(['configure', 'roof.uvl', '--select', '"Sun, Roof"', '--why', 'Rack', '--json']).out);
    assert.deepEqual(step, { feature: 'Rack', state: 'excluded', why: ['selected Sun, Roof', 'Line 7: "Sun, Roof" => !Rack'] });
    const quotedWhy = JSON.parse(hub(['configure', 'roof.uvl', '--deselect', 'Rack,"Sun, Roof"', '--why', '"Sun, Roof"', '--json']).out);
    assert.equal(quotedWhy.state, 'deselected');
    const sample = hub(['sample', 'roof.uvl', '--uniform', '3', '--select', '"Sun, Roof"']);
    assert.equal(sample.code, 0, sample.err);
    assert.deepEqual(sample.out.trim().split('\n'), ['Car,Rack,"Sun, Roof"', '1,0,1', '1,0,1', '1,0,1']);
  });

  it('exits 1 for an unknown feature and for an invalid model', () => {
    const unknown = hub(['configure', 'car.uvl', '--select', 'Boat']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /unknown feature 'Boat'/);
    assert.equal(hub(['configure', 'car.uvl', '--why', 'Boat', '--json']).code, 1);
    const invalid = hub(['configure', 'bad.uvl', '--json']);
    assert.equal(invalid.code, 1);
    assert.equal(JSON.parse(invalid.out).valid, false);
  });
});

describe('hub uvl sample --twise', () => {
  it('writes the sample as CSV, features sorted, and a summary on stderr', () => {
    const r = hub(['sample', 'car.uvl', '--twise', '2', '--seed', '3']);
    assert.equal(r.code, 0, r.err);
    const [header, ...rows] = r.out.trim().split('\n');
    assert.equal(header, 'Car,Diesel,Engine,Petrol,Radio,Turbo');
    assert.ok(rows.length >= 3);
    for (const row of rows) assert.match(row, /^1,[01],1,[01],[01],[01]$/);
    assert.match(r.err, /2-wise sample \(seed 3\): \d+ configurations, 36 interactions covered of 36 valid ones/);
  });

  it('gives the section-6 shape as JSON', () => {
    const json = JSON.parse(hub(['sample', 'car.uvl', '--twise', '1', '--json']).out);
    assert.equal(json.kind, 'twise');
    assert.equal(json.t, 1);
    assert.equal(json.complete, true);
    assert.equal(json.interactions, 10); // Car and Engine are core: only selected
    assert.equal(json.covered, 10);
    assert.equal(json.size, json.configurations.length);
    assert.ok(json.lower_bound >= 2 && json.lower_bound <= json.size);
  });

  it('exits 1 for a bad value or an invalid model', () => {
    assert.equal(hub(['sample', 'car.uvl', '--twise', '4']).code, 1);
    assert.equal(hub(['sample', 'car.uvl', '--twise', '2', '--seed', '-1']).code, 1);
    assert.equal(hub(['sample', 'car.uvl', '--twise', '2', '--timeout', '0']).code, 1);
    assert.equal(hub(['sample', 'bad.uvl', '--twise', '2']).code, 1);
  });
});
