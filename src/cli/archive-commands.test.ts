// `hub export` and `hub import` run as a user would run them: a seeded SQLite hub with its uploads
// folder into a second SQLite database and folder; a second import is refused, --replace is not,
// and neither is an archive larger than IMPORT_MAX_BYTES.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectPath } from '../core/config.ts';
import { connect } from '../core/db/connect.ts';

const dir = mkdtempSync(join(tmpdir(), 'hub-cli-archive-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function hub(databaseFile: string, uploads: string, ...args: string[]) {
  return hubWith({}, databaseFile, uploads, ...args);
}

function hubWith(env: Record<string, string>, databaseFile: string, uploads: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [projectPath('bin/hub.mjs'), ...args], {
    cwd: dir, encoding: 'utf8', env: { ...process.env, DATABASE_URL: `sqlite:${join(dir, databaseFile)}`, WORKING_DIR: dir, UPLOADS_DIR: uploads, STORAGE_URL: '', ...env },
  });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

async function emails(databaseFile: string): Promise<string[]> {
  const db = connect(`sqlite:${join(dir, databaseFile)}`);
  try {
    return (await db.selectFrom('user').select('email').orderBy('email').execute()).map((r) => r.email);
  } finally {
    await db.destroy();
  }
}

describe('hub export and hub import commands', () => {
  it('move a seeded hub to another database and folder, refuse a second import, accept it with --replace', async () => {
    assert.equal(hub('old.sqlite', 'old-uploads', 'db:seed').code, 0);
    const exported = hub('old.sqlite', 'old-uploads', 'export', '--out', join(dir, 'hub.zip'));
    assert.equal(exported.code, 0, exported.out);
    assert.match(exported.out, /Exported \d+ rows of \d+ tables and [1-9]\d* files \(schema \d{4}_/);

    const imported = hub('new.sqlite', 'new-uploads', 'import', join(dir, 'hub.zip'));
    assert.equal(imported.code, 0, imported.out);
    assert.deepEqual(await emails('new.sqlite'), await emails('old.sqlite'));

    const again = hub('new.sqlite', 'new-uploads', 'import', join(dir, 'hub.zip'));
    assert.equal(again.code, 1);
    assert.match(again.out, /not empty.*--replace/);
    // IMPORT_MAX_BYTES below what the archive unpacks to: refused, the hub as it was.
    const limited = hubWith({ IMPORT_MAX_BYTES: '1000' }, 'new.sqlite', 'new-uploads', 'import', '--replace', join(dir, 'hub.zip'));
    assert.equal(limited.code, 1, limited.out);
    assert.match(limited.out, /^hub: The archive's manifest unpacks to \d+ bytes, more than IMPORT_MAX_BYTES/m);
    assert.deepEqual(await emails('new.sqlite'), await emails('old.sqlite'));
    const replaced = hub('new.sqlite', 'new-uploads', 'import', '--replace', join(dir, 'hub.zip'));
    assert.equal(replaced.code, 0, replaced.out);
    assert.deepEqual(await emails('new.sqlite'), ['user1@example.com', 'user2@example.com']);

    const missing = hub('other.sqlite', 'other-uploads', 'export');
    assert.notEqual(missing.code, 0, 'export needs --out');
  });

  it('a failed export says why without a stack trace, and leaves the archive already at --out as it was', () => {
    const nowhere = hub('old.sqlite', 'old-uploads', 'export', '--out', join(dir, 'no-such-folder', 'hub.zip'));
    assert.equal(nowhere.code, 1, nowhere.out);
    assert.match(nowhere.out, /^hub: .*ENOENT/m);
    assert.doesNotMatch(nowhere.out, /\n\s+at |Unhandled 'error' event/);
    // A database with no migration applied: the export fails once it has opened its output.
    writeFileSync(join(dir, 'blank.sqlite'), '');
    writeFileSync(join(dir, 'backup.zip'), 'the last good backup');
    const failed = hub('blank.sqlite', 'blank-uploads', 'export', '--out', join(dir, 'backup.zip'));
    assert.equal(failed.code, 1, failed.out);
    assert.match(failed.out, /^hub: /m);
    assert.equal(readFileSync(join(dir, 'backup.zip'), 'utf8'), 'the last good backup');
    assert.deepEqual(readdirSync(dir).filter((name) => name.includes('partial')), [], 'no half archive left');
  });
});
