// `hub uvl check` and `hub uvl convert`, run as a user would run them.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
writeFileSync(join(dir, 'suspicious.uvl'), 'features\n    A\n        optional\n            B\n            B\nconstraints\n    C | D\n');
writeFileSync(join(dir, 'empty.uvl'), '');
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

  it('check --json: warnings for a valid but suspicious model, in the error format (extensions section 9)', () => {
    const r = hub('check', '--json', 'suspicious.uvl', 'empty.uvl');
    assert.equal(r.code, 0, r.out + r.err);
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(lines[0], {
      file: 'suspicious.uvl',
      valid: true,
      errors: [],
      warnings: [
        'Line 5:12 - `B` is declared twice (first on line 4): the analysis takes both as one feature',
        'Line 7:4 - `C` is not a feature: the constraint is left out of the analysis',
      ],
    });
    assert.deepEqual(lines[1].warnings, ['Line 1:0 - the model declares no features: it is valid UVL, but holds nothing to analyse']);
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

  it('convert --from reads FeatureIDE, SXFM and Glencoe files to UVL, the loss report on stderr', () => {
    writeFileSync(join(dir, 'car.xml'), '<featureModel>\n<struct><and name="Car"><feature mandatory="true" name="Body"/><feature name="Roof.Box"/></and></struct>\n<constraints><rule><imp><var>Roof.Box</var><var>Body</var></imp></rule></constraints>\n</featureModel>\n');
    writeFileSync(join(dir, 'phone.sxfm'), '<feature_model name="p">\n<feature_tree>\n:r Phone (p)\n\t:g [1,1]\n\t\t: A (a)\n\t\t: B (b)\n</feature_tree>\n<constraints>\n</constraints>\n</feature_model>\n');
    writeFileSync(join(dir, 'robot.json'), JSON.stringify({ features: { R: { name: 'R', type: 'OR' } }, tree: { id: 'R', children: [{ id: 'A' }, { id: 'B' }] }, constraints: {} }));
    const fide = hub('convert', '--from', 'featureide', 'car.xml');
    assert.equal(fide.code, 0, fide.err);
    assert.equal(fide.out, 'features\n    Car\n        mandatory\n            Body\n        optional\n            Roof_Box\n\nconstraints\n    Roof_Box => Body\n');
    assert.equal(fide.err, 'car.xml: converted to UVL, 1 loss:\n  - feature `Roof.Box` renamed to `Roof_Box`: UVL names hold no dot, double quote or line break, and are unique\n');
    const sxfm = hub('convert', '--from', 'sxfm', 'phone.sxfm');
    assert.equal(sxfm.code, 0, sxfm.err);
    assert.match(sxfm.out, /^ {8}alternative\n {12}A\n {12}B$/m);
    assert.equal(sxfm.err, 'phone.sxfm: converted to UVL, nothing lost\n');
    const out = join(dir, 'robot.uvl');
    const glencoe = hub('convert', '--from', 'glencoe', 'robot.json', '-o', out);
    assert.equal(glencoe.code, 0, glencoe.err);
    assert.equal(readFileSync(out, 'utf8'), 'features\n    R\n        or\n            A\n            B\n');
  });

  it('convert --from gives the format\'s errors with line and column, exit 1', () => {
    writeFileSync(join(dir, 'broken.xml'), '<featureModel>\n<struct>\n<feature name="A">\n</struct>\n</featureModel>\n');
    const r = hub('convert', '--from', 'featureide', 'broken.xml');
    assert.equal(r.code, 1);
    assert.equal(r.out, '');
    assert.match(r.err, /^broken\.xml: not converted, it is not a valid featureide model:\n {2}Line 4:\d+ - not well-formed XML/);
    const u = hub('convert', '--from', 'kconfig', 'broken.xml');
    assert.equal(u.code, 1);
    assert.match(u.err, /unknown input format 'kconfig'/);
  });

  it('convert --to featureide writes FeatureIDE XML and lists what it could not carry', () => {
    const r = hub('convert', '--to', 'featureide', 'good.uvl');
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^<extendedFeatureModel>$/m, 'the imported feature has an attribute');
    assert.match(r.out, /<and mandatory="true" name="e\.Engine">\n\t+<attribute name="power" type="long" value="120"\/>/);
    assert.match(r.err, /^good\.uvl: converted to FeatureIDE, 1 loss:\n {2}- constraint `e\.Engine\.power > 100` dropped: FeatureIDE constraints are Boolean/);
  });

  it('names a missing file or a directory clearly, with exit 1 and no stack trace', () => {
    mkdirSync(join(dir, 'folder.uvl'), { recursive: true });
    const check = hub('check', 'missing.uvl', 'folder.uvl');
    assert.equal(check.code, 1);
    assert.match(check.out, /^missing\.uvl: invalid \(1 error\)\n {2}error {3}Line 1:0 - cannot read missing\.uvl: no such file$/m);
    assert.match(check.out, /^folder\.uvl: invalid \(1 error\)\n {2}error {3}Line 1:0 - cannot read folder\.uvl: it is a directory$/m);
    for (const file of ['missing.uvl', 'folder.uvl']) {
      const convert = hub('convert', '--to', 'cnf', file);
      assert.equal(convert.code, 1);
      assert.equal(convert.out, '');
      assert.match(convert.err, new RegExp(`^${file.replace('.', '\\.')}: Line 1:0 - cannot read `));
      assert.doesNotMatch(convert.err, /\n\s+at /);
    }
  });

  it('refuses a binary file with one clear error instead of hundreds', () => {
    writeFileSync(join(dir, 'binary.uvl'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x0d, 0x0a, 0xff, 0xfe, 0x66, 0x65]));
    writeFileSync(join(dir, 'latin1.uvl'), Buffer.from('features\n    Caf\xe9\n', 'latin1'));
    const r = hub('check', '--json', 'binary.uvl', 'latin1.uvl');
    assert.equal(r.code, 1);
    for (const [i, file] of ['binary.uvl', 'latin1.uvl'].entries()) {
      const line = JSON.parse(r.out.trim().split('\n')[i]!);
      assert.deepEqual(line.errors, [`Line 1:0 - cannot read ${file}: it is not UTF-8 text (a binary file, or another encoding)`]);
    }
    const c = hub('convert', '--to', 'glencoe', 'binary.uvl');
    assert.equal(c.code, 1);
    assert.match(c.err, /not UTF-8 text/);
  });

  it('reports an output it cannot write, with exit 1, leaving no partial file', () => {
    mkdirSync(join(dir, 'outdir'), { recursive: true });
    for (const [output, reason] of [
      ['outdir', 'it is a directory'],
      ['no-such-folder/out.cnf', 'no such file or directory'],
      ['good.uvl/out.cnf', 'a part of the path is not a directory'],
    ]) {
      const r = hub('convert', '--to', 'cnf', 'good.uvl', '-o', output);
      assert.equal(r.code, 1, output);
      assert.equal(r.err, `hub uvl convert: cannot write ${output}: ${reason}\n`);
    }
    assert.deepEqual(readdirSync(join(dir, 'outdir')), []);
    assert.ok(!readdirSync(dir).some((name) => name.endsWith('.tmp')));
  });

  it('replaces an existing output file whole', () => {
    const out = join(dir, 'replaced.uvl');
    writeFileSync(out, 'old content that is much longer than the new one '.repeat(100));
    const r = hub('convert', '--to', 'uvl', 'tabs.uvl', '-o', out);
    assert.equal(r.code, 0, r.err);
    assert.equal(readFileSync(out, 'utf8'), 'features\n    Car\n        optional\n            Radio\n\nconstraints\n    Car\n    Radio\n');
  });
});
