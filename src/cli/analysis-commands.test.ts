// `hub analysis:run [--all]` as a process: seeding queues every model (the command line starts
// no workers), the command analyses them and exits; --all computes every result again.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectPath } from '../core/config.ts';
import { connect } from '../core/db/connect.ts';

const dir = mkdtempSync(join(tmpdir(), 'hub-analysis-cli-'));
const databaseUrl = `sqlite:${join(dir, 'hub.sqlite')}`;
after(() => rmSync(dir, { recursive: true, force: true }));

function hub(...args: string[]) {
  const result = spawnSync(process.execPath, [projectPath('bin/hub.mjs'), ...args], {
    cwd: dir, encoding: 'utf8', env: { ...process.env, DATABASE_URL: databaseUrl, WORKING_DIR: dir, HUB_MODULES_FILE: projectPath('modules.json') },
  });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

async function statuses(): Promise<{ status: string; attempts: number }[]> {
  const db = connect(databaseUrl);
  try {
    return (await db.selectFrom('model_analysis').select(['status', 'attempts']).execute()).map((r) => ({ status: r.status, attempts: Number(r.attempts) }));
  } finally {
    await db.destroy();
  }
}

describe('hub analysis:run', () => {
  it('analyses what seeding queued, then everything again with --all', async () => {
    const seeded = hub('db:seed');
    assert.equal(seeded.code, 0, seeded.out);
    const queued = await statuses();
    assert.ok(queued.length >= 4, 'every seeded model is queued');
    assert.ok(queued.every((r) => r.status === 'pending'));

    const run = hub('analysis:run');
    assert.equal(run.code, 0, run.out);
    assert.match(run.out, new RegExp(`done ${queued.length}, partial 0, failed 0, pending 0`));
    assert.ok((await statuses()).every((r) => r.status === 'done' && r.attempts === 1));

    const again = hub('analysis:run', '--all');
    assert.equal(again.code, 0, again.out);
    assert.match(again.out, new RegExp(`${queued.length} result\\(s\\) to compute again`));
    assert.ok((await statuses()).every((r) => r.status === 'done'));
  });
});
