// `hub uvl count`, run as a user would run it: the exact count, the estimate with --approx (its
// JSON shape and its guarantee in words), and bad values refused with a clear message, exit 1.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dir = mkdtempSync(join(tmpdir(), 'hub-count-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function hub(args: string[]) {
  const result = spawnSync(process.execPath, [join(root, 'bin/hub.mjs'), 'uvl', 'count', ...args], { cwd: dir, encoding: 'utf8' });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

// 14 optional features, F0 needs F1 or F2: 2^14 - 2^11 = 14 336 configurations.
const WIDE = `features\n    R\n        optional\n${Array.from({ length: 14 }, (_, i) => `            F${i}\n`).join('')}constraints\n    F0 => F1 | F2\n`;
writeFileSync(join(dir, 'wide.uvl'), WIDE);
writeFileSync(join(dir, 'small.uvl'), 'features\n    R\n        optional\n            A\n            B\n');
writeFileSync(join(dir, 'bad.uvl'), 'features\n    R\n        optional\n            A\n    constraints\n');
// 120 optional features under 400 random 3-literal clauses (a fixed generator): far more than a millisecond to count.
let state = 7;
const next = (m: number) => (state = (state * 1103515245 + 12345) % 2 ** 31) % m;
const clause = () => Array.from({ length: 3 }, () => `${next(2) ? '!' : ''}F${next(120)}`).join(' | ');
writeFileSync(join(dir, 'hard.uvl'), `features\n    R\n        optional\n${Array.from({ length: 120 }, (_, i) => `            F${i}\n`).join('')}constraints\n${Array.from({ length: 400 }, () => `    ${clause()}\n`).join('')}`);

describe('hub uvl count', () => {
  it('counts exactly without --approx', () => {
    const r = hub(['wide.uvl', '--json']);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(JSON.parse(r.out), { file: 'wide.uvl', configurations: '14336', configurations_status: 'exact', boolean_only: true });
    assert.match(hub(['wide.uvl']).out, /^wide\.uvl: 14336 configurations\n$/);
  });

  it('--approx counts exactly the components it can, and says so: the exact count in the estimate\'s place', () => {
    const r = hub(['wide.uvl', '--approx', '--json']);
    assert.equal(r.code, 0, r.err);
    const out = JSON.parse(r.out);
    assert.equal(out.configurations, '14336');
    assert.equal(out.configurations_status, 'exact');
    assert.match(out.configurations_estimate.method, /^exact \(1 of 1 components after the backbone counted exactly, 11 features in no clause\)$/);
    assert.match(hub(['wide.uvl', '--approx']).out, /^wide\.uvl: 14336 configurations \(exact: 1 of 1 components after the backbone counted exactly, 11 features in no clause\)\n$/);
  });

  it('--approx --hash-all --json: configurations null and the estimate within (1 + ε), for 5 seeds', () => {
    for (let seed = 1; seed <= 5; seed++) {
      const r = hub(['wide.uvl', '--approx', '--hash-all', '--json', '--seed', String(seed)]);
      assert.equal(r.code, 0, r.err);
      const out = JSON.parse(r.out);
      assert.equal(out.configurations, null);
      assert.equal(out.configurations_status, 'skipped');
      const e = out.configurations_estimate;
      assert.deepEqual(Object.keys(e), ['value', 'log10', 'epsilon', 'delta', 'method']);
      assert.match(e.value, /^\d+$/);
      assert.ok(Number(e.value) <= 14336 * 1.8 && Number(e.value) * 1.8 >= 14336, `seed ${seed}: ${e.value}`);
      assert.equal(e.epsilon, 0.8);
      assert.equal(e.delta, 0.2);
    }
  });

  it('--epsilon and --delta are kept in the answer and change the effort', () => {
    const r = hub(['wide.uvl', '--approx', '--hash-all', '--json', '--epsilon', '0.5', '--delta', '0.1']);
    assert.equal(r.code, 0, r.err);
    const e = JSON.parse(r.out).configurations_estimate;
    assert.equal(e.epsilon, 0.5);
    assert.equal(e.delta, 0.1);
    assert.match(e.method, /21 iterations, cell threshold 120/);
  });

  it('readable text says it is an estimate and states the guarantee', () => {
    const r = hub(['wide.uvl', '--approx', '--hash-all']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^wide\.uvl: about \d+ configurations \(an estimate: within a factor 1\.8 of the count with probability at least 0\.8; ApproxMC/);
  });

  it('fewer configurations than one cell holds: the exact count, said so', () => {
    const r = hub(['small.uvl', '--approx', '--json']);
    assert.equal(r.code, 0, r.err);
    const out = JSON.parse(r.out);
    assert.equal(out.configurations, '4');
    assert.equal(out.configurations_status, 'exact');
  });

  it('--json: an invalid or unreadable model and a budget run out give their JSON line on standard output, exit 1', () => {
    const bad = hub(['bad.uvl', '--json']);
    assert.equal(bad.code, 1);
    assert.deepEqual(JSON.parse(bad.out), { file: 'bad.uvl', valid: false, errors: ["Line 5:4 - expected the end of the features section, found 'constraints'"] });
    const missing = hub(['missing.uvl', '--approx', '--json']);
    assert.equal(missing.code, 1);
    assert.deepEqual(Object.keys(JSON.parse(missing.out)), ['file', 'valid', 'errors']);
    assert.match(JSON.parse(missing.out).errors[0], /^Line 1:0 - cannot read missing\.uvl: no such file/);
    const exact = hub(['hard.uvl', '--json', '--timeout', '0.001']);
    assert.equal(exact.code, 1);
    assert.deepEqual(JSON.parse(exact.out), {
      file: 'hard.uvl', configurations: null, configurations_status: 'timeout', boolean_only: true, timeouts: ['count'],
      error: 'not counted within 0.001 s (--approx gives an estimate)',
    });
    const approx = hub(['hard.uvl', '--approx', '--json', '--timeout', '0.001']);
    assert.equal(approx.code, 1);
    const line = JSON.parse(approx.out);
    assert.deepEqual([line.configurations, line.configurations_status, line.configurations_estimate, line.timeouts, line.error], [null, 'timeout', null, ['estimate'], 'not estimated within 0.001 s']);
    for (const r of [bad, missing, exact, approx]) assert.equal(r.out.split('\n').length, 2, 'one line');
    // Without --json, the message stays on standard error.
    const text = hub(['hard.uvl', '--timeout', '0.001']);
    assert.deepEqual([text.code, text.out], [1, '']);
    assert.match(text.err, /hard\.uvl: not counted within 0\.001 s/);
  });

  it('bad values and invalid models: a message and exit 1, nothing on standard output', () => {
    const cases: [string[], RegExp][] = [
      [['wide.uvl', '--approx', '--epsilon', '0'], /--epsilon must be a number above 0/],
      [['wide.uvl', '--approx', '--epsilon', 'x'], /--epsilon must be/],
      [['wide.uvl', '--approx', '--delta', '1'], /--delta must be a number between 0 and 1/],
      [['wide.uvl', '--delta', '0.1'], /--epsilon and --delta go with --approx/],
      [['wide.uvl', '--hash-all'], /--hash-all goes with --approx/],
      [['wide.uvl', '--approx', '--seed', '-1'], /--seed must be an integer/],
      [['wide.uvl', '--timeout', '0'], /--timeout must be a positive number/],
      [['missing.uvl', '--approx'], /missing\.uvl: .*no such file/],
      [['bad.uvl', '--approx'], /bad\.uvl: invalid model/],
    ];
    for (const [args, message] of cases) {
      const r = hub(args);
      assert.equal(r.code, 1, args.join(' '));
      assert.match(r.err, message);
      assert.equal(r.out, '');
      assert.doesNotMatch(r.err, /\n\s+at /, 'no stack trace');
    }
  });
});
