// The service as a process (decisions section 1): `.env` and the real environment, SECRET_KEY in
// production, auto-seeding only in development, and a startup that fails with one clear line.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectPath } from '../core/config.ts';
import { TestClient } from '../../test/support/client.ts';

const dir = mkdtempSync(join(tmpdir(), 'hub-serve-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Started { child: ChildProcess; baseUrl: string | null; code: number | null; output: string }

/** Runs `hub serve` in `cwd` until it listens (baseUrl set) or exits (code set). */
function serve(cwd: string, env: Record<string, string | undefined>): Promise<Started> {
  return new Promise((resolve) => {
    const clean = { ...process.env };
    for (const key of ['FLASK_ENV', 'NODE_ENV', 'SECRET_KEY', 'DATABASE_URL', 'WORKING_DIR', 'HUB_MODULES_FILE', 'PORT']) delete clean[key];
    const child = spawn(process.execPath, [projectPath('bin/hub.mjs'), 'serve'], {
      cwd, env: { ...clean, HOST: '127.0.0.1', PORT: '0', HUB_MODULES_FILE: projectPath('modules.json'), ...env }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let done = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const onData = (d: Buffer) => {
      output += d;
      // The plain line for a person (issue 10) comes once the server listens.
      const listening = /UVL Hub is running at http:\/\/localhost:(\d+)\/ /.exec(output);
      if (listening && !done) {
        done = true;
        clearTimeout(timer);
        resolve({ child, baseUrl: `http://127.0.0.1:${listening[1]!}`, code: null, output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (!done) { done = true; resolve({ child, baseUrl: null, code, output }); }
    });
  });
}

async function stop(started: Started): Promise<void> {
  if (started.baseUrl === null) return;
  const exited = new Promise((resolve) => started.child.on('exit', resolve));
  started.child.kill('SIGTERM');
  await exited;
}

describe('hub serve', () => {
  it('refuses to start in production without SECRET_KEY: one line, non-zero exit, nothing served', async () => {
    for (const env of [{ FLASK_ENV: 'production' }, { NODE_ENV: 'production' }, { FLASK_ENV: 'production', SECRET_KEY: '   ' }]) {
      const work = mkdtempSync(join(dir, 'nokey-'));
      const started = await serve(work, { ...env, WORKING_DIR: work, DATABASE_URL: `sqlite:${join(work, 'hub.sqlite')}` });
      await stop(started);
      assert.equal(started.baseUrl, null, JSON.stringify(env));
      assert.notEqual(started.code, 0);
      assert.match(started.output, /hub: cannot start: SECRET_KEY is required in production/);
      assert.doesNotMatch(started.output, /\n\s+at /);
    }
  });

  it('reads .env from the current directory, the real environment wins, and production does not seed', async () => {
    const work = mkdtempSync(join(dir, 'dotenv-'));
    const real = join(work, 'real.sqlite');
    const fromFile = join(work, 'from-dotenv.sqlite');
    writeFileSync(join(work, '.env'), `FLASK_ENV=production\nSECRET_KEY=secret-from-dotenv-file\nDATABASE_URL=sqlite:${fromFile}\nWORKING_DIR=${work}\n`);
    const started = await serve(work, { DATABASE_URL: `sqlite:${real}` });
    try {
      assert.ok(started.baseUrl, started.output);
      assert.ok(existsSync(real), 'the real environment\'s DATABASE_URL is used');
      assert.ok(!existsSync(fromFile), 'the .env value does not override it');
      const c = new TestClient(started.baseUrl!);
      const form = await c.get('/login');
      assert.match(form.setCookies.get('session') ?? '', /;\s*Secure/i, 'production (from .env): Secure session cookie');
      assert.equal((await c.login('user1@example.com', '1234')).status, 200, 'production never seeds: no user1');
    } finally {
      await stop(started);
    }
  });

  it('development seeds an empty database on start, and not again on the next start', async () => {
    const work = mkdtempSync(join(dir, 'dev-'));
    const env = { WORKING_DIR: work, DATABASE_URL: `sqlite:${join(work, 'hub.sqlite')}` };
    const first = await serve(work, env);
    try {
      assert.ok(first.baseUrl, first.output);
      const c = new TestClient(first.baseUrl!);
      assert.equal((await c.login('user1@example.com', '1234')).status, 302);
      await c.get('/profile/edit');
      assert.equal((await c.post('/profile/edit', { form: { name: 'Kept' } })).status, 302);
    } finally {
      await stop(first);
    }
    const second = await serve(work, env);
    try {
      const c = new TestClient(second.baseUrl!);
      await c.login('user1@example.com', '1234');
      assert.match((await c.get('/profile/summary')).text, /Kept Doe/, 'the data survived the second start');
    } finally {
      await stop(second);
    }
  });
});
