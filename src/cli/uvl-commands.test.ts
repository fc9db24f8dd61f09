// `hub uvl check` and `hub uvl convert`, run as a user would run them.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dir = mkdtempSync(join(tmpdir(), 'hub-uvl-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function hub(...args: string[]) {
  const result = spawnSync(process.execPath, [join(root, 'bin/hub.mjs'), 'uvl', ...args], { cwd: dir, encoding: 'utf8' });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

writeFileSync(join(dir, 'good.uvl'), 'imports\n    parts.Engine as e\nfeatures\n    Car\n        mandatory\n            e.Engine\n        optional\n            Radio\nconstraints\n    Radio => e.Turbo\n    e.Engine.power > 100\n');
mkdirSync(join(dir, 'parts'));
writeFileSync(join(dir, 'parts/Engine.uvl'), 'features\n    Engine {power 120}\n        optional\n            Turbo\n');
writeFileSync(join(dir, 'bad.uvl'), 'features\n    Car\n    mandatory\n        Radio\n');
writeFileSync(join(dir, 'tabs.uvl'), 'features\n\tCar\n\t\toptional\n\t\t\tRadio\nconstraints\n\tCar\n\t\tRadio\n');

describe('hub uvl', () => {
  it('check prints a readable report and exits 0 when every file is valid', () => {
    const r = hub('check', 'good.uvl', 'tabs.uvl');
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.out, /^good\.uvl: valid$/m);
    assert.match(r.out, /^tabs\.uvl: valid, 1 warning\n {2}warning Line 7:2 - .*tab hint/m);
  });

  it('check --json prints one line per file and exits 1 when one is invalid or missing', () => {
    const r = hub('check', '--json', 'good.uvl', 'bad.uvl', 'missing.uvl');
    assert.equal(r.code, 1);
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(lines[0], { file: 'good.uvl', valid: true, errors: [], warnings: [] });
    assert.equal(lines[1].valid, false);
    assert.deepEqual(lines[1].errors, ["Line 3:4 - group 'mandatory' must be indented below the feature it belongs to"]);
    assert.equal(lines[2].valid, false);
    assert.match(lines[2].errors[0], /^Line 1:0 - cannot read missing\.uvl: no such file/);
  });

  it('convert writes each format, resolving imports next to the importing file', () => {
    const cnf = hub('convert', '--to', 'cnf', 'good.uvl');
    assert.equal(cnf.code, 0, cnf.err);
    assert.match(cnf.out, /^p cnf \d+ \d+$/m);
    assert.match(cnf.out, /^c 3 e\.Turbo$/m);
    assert.match(cnf.out, /^c left out \(not expressible in CNF\): e\.Engine\.power > 100$/m);
    for (const format of ['glencoe', 'splot', 'uvl']) {
      const out = join(dir, `out.${format}`);
      const r = hub('convert', '--to', format, 'good.uvl', '-o', out);
      assert.equal(r.code, 0, r.err);
      assert.ok(readFileSync(out, 'utf8').length > 50);
    }
  });

  it('convert refuses a model with syntax errors or an unknown format', () => {
    const r = hub('convert', '--to', 'cnf', 'bad.uvl');
    assert.equal(r.code, 1);
    assert.equal(r.out, '');
    assert.match(r.err, /syntax errors:\n {2}Line 3:4 - /);
    const f = hub('convert', '--to', 'xml', 'good.uvl');
    assert.equal(f.code, 1);
    assert.match(f.err, /unknown format 'xml'/);
  });
});
