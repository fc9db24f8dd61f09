// The hub CLI's database commands (decisions section 1), run as a user would run them.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectPath } from '../core/config.ts';
import { connect } from '../core/db/connect.ts';

const dir = mkdtempSync(join(tmpdir(), 'hub-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const databaseUrl = `sqlite:${join(dir, 'hub.sqlite')}`;

function hub(...args: string[]) {
  const result = spawnSync(process.execPath, [projectPath('bin/hub.mjs'), ...args], {
    cwd: dir, encoding: 'utf8', env: { ...process.env, DATABASE_URL: databaseUrl, WORKING_DIR: dir },
  });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

async function users(): Promise<string[]> {
  const db = connect(databaseUrl);
  try {
    return (await db.selectFrom('user').select('email').orderBy('email').execute()).map((r) => r.email);
  } finally {
    await db.destroy();
  }
}

describe('hub db commands', () => {
  it('db:migrate applies the migrations once', () => {
    const first = hub('db:migrate');
    assert.equal(first.code, 0, first.out);
    assert.match(first.out, /Applied: .*initial_schema/);
    const second = hub('db:migrate');
    assert.equal(second.code, 0);
    assert.match(second.out, /up to date/);
  });

  it('db:seed seeds the two accounts, then refuses a non-empty database', async () => {
    const seeded = hub('db:seed');
    assert.equal(seeded.code, 0, seeded.out);
    assert.deepEqual(await users(), ['user1@example.com', 'user2@example.com']);
    const again = hub('db:seed');
    assert.equal(again.code, 1);
    assert.match(again.out, /not empty/);
  });

  it('db:seed --reset starts from scratch; db:reset leaves an empty, migrated database', async () => {
    const db = connect(databaseUrl);
    await db.updateTable('user_profile').set({ name: 'Changed' }).execute();
    await db.destroy();
    const reseeded = hub('db:seed', '--reset');
    assert.equal(reseeded.code, 0, reseeded.out);
    assert.deepEqual(await users(), ['user1@example.com', 'user2@example.com']);
    const reset = hub('db:reset');
    assert.equal(reset.code, 0, reset.out);
    assert.deepEqual(await users(), []);
  });

  it('db:reset and db:seed --reset remove the files of the dropped rows, and only those', async () => {
    const uploads = join(dir, 'uploads');
    mkdirSync(join(uploads, 'user_7', 'dataset_9'), { recursive: true });
    writeFileSync(join(uploads, 'user_7', 'dataset_9', 'stale.uvl'), 'features\n    Stale');
    mkdirSync(join(uploads, 'temp', '7'), { recursive: true });
    writeFileSync(join(uploads, 'temp', '7', 'staged.uvl'), 'features\n    Staged');
    writeFileSync(join(uploads, 'README.txt'), 'not the hub\'s');
    mkdirSync(join(uploads, 'samples', 'ab12'), { recursive: true });
    writeFileSync(join(uploads, 'samples', 'ab12', 'uniform-00.sample'), 'UVLSAMPLE1\n');
    const reset = hub('db:reset');
    assert.equal(reset.code, 0, reset.out);
    assert.ok(!existsSync(join(uploads, 'user_7')), 'stored files of dropped datasets are gone');
    assert.ok(!existsSync(join(uploads, 'temp')), 'staged files of dropped users are gone');
    assert.ok(!existsSync(join(uploads, 'samples')), 'the samples of dropped model_sample rows are gone');
    assert.ok(existsSync(join(uploads, 'README.txt')), 'other files are left alone');
    mkdirSync(join(uploads, 'user_7', 'dataset_9'), { recursive: true });
    writeFileSync(join(uploads, 'user_7', 'dataset_9', 'stale.uvl'), 'features\n    Stale');
    const reseeded = hub('db:seed', '--reset');
    assert.equal(reseeded.code, 0, reseeded.out);
    assert.ok(!existsSync(join(uploads, 'user_7')));
    const seededFiles = readdirSync(uploads).filter((e) => e.startsWith('user_'));
    assert.ok(seededFiles.length > 0, 'the seed wrote its sample files again');
  });

  it('db:seed checks its arguments before it drops anything', async () => {
    const seeded = hub('db:seed', '--reset');
    assert.equal(seeded.code, 0, seeded.out);
    for (const bad of ['0', 'abc', '-3', '1.5']) {
      const result = hub('db:seed', '--reset', `--synthetic=${bad}`);
      assert.equal(result.code, 1, bad);
      assert.match(result.out, /--synthetic takes a positive whole number/);
      assert.doesNotMatch(result.out, /\n\s+at /);
      assert.deepEqual(await users(), ['user1@example.com', 'user2@example.com'], `nothing was reset for --synthetic ${bad}`);
    }
  });

  it('doi:map refuses bad arguments with a message and a non-zero exit', () => {
    const cases: [string[], RegExp][] = [
      [[], /missing required argument 'oldDoi'/],
      [['10.1234/old'], /missing required argument 'newDoi'/],
      [['10.1234/a', '10.1234/b', '10.1234/c'], /too many arguments/],
      [['not-a-doi', '10.1234/dataset2'], /is not a DOI/],
      [['', '10.1234/dataset2'], /is not a DOI/],
      [['10.1234/dataset2', '10.1234/dataset2'], /cannot replace itself/],
      [['10.1234/dataset1', '10.1234/dataset1-v0'], /loop/],
      [['10.1234/dataset2-v0', '10.1234/nowhere'], /No dataset has the DOI 10\.1234\/nowhere/],
    ];
    for (const [args, message] of cases) {
      const result = hub('doi:map', ...args);
      assert.notEqual(result.code, 0, args.join(' '));
      assert.match(result.out, message);
      assert.doesNotMatch(result.out, /\n\s+at /);
    }
    const ok = hub('doi:map', '10.1234/dataset2-v0', '10.1234/dataset2');
    assert.equal(ok.code, 0, ok.out);
  });

  it('an unknown command fails with a message', () => {
    const result = hub('db:nonsense');
    assert.notEqual(result.code, 0);
    assert.match(result.out, /unknown command/i);
  });
});
