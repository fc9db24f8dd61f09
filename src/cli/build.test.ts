// npm run build (issue 12, item 3): the runtime compiles to JavaScript in the git-ignored build/,
// the `hub` executable then runs the compiled code, and production `npm start` serves from it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { freePort } from '../../test/support/ports.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectPath } from '../core/config.ts';


describe('the compiled build', { timeout: 300_000 }, () => {
  it('compiles to build/ (git-ignored); hub runs the compiled CLI; production npm start serves the compiled server', async () => {
    const build = spawnSync(process.execPath, [projectPath('scripts/build.mjs')], { cwd: projectPath(), encoding: 'utf8' });
    assert.equal(build.status, 0, build.stderr + build.stdout);
    assert.ok(existsSync(projectPath('build/src/cli/hub.js')));
    assert.ok(existsSync(projectPath('build/src/app/server.js')));
    assert.match(readFileSync(projectPath('build/src/cli/hub.js'), 'utf8'), /from "\.\/db-commands\.js"|from '\.\/db-commands\.js'/, 'imports rewritten to .js');
    assert.ok(readFileSync(projectPath('.gitignore'), 'utf8').split('\n').includes('build/'));
    const ignored = spawnSync('git', ['check-ignore', '-q', 'build/src/cli/hub.js'], { cwd: projectPath() });
    assert.equal(ignored.status, 0, 'git ignores the build');

    const dir = mkdtempSync(join(tmpdir(), 'hub-build-'));
    try {
      writeFileSync(join(dir, 'one.uvl'), 'features\n    A\n');
      // The build is current, so the executable loads build/src/cli/hub.js rather than tsx.
      const check = spawnSync(process.execPath, [projectPath('bin/hub.mjs'), 'uvl', 'check', 'one.uvl'], { cwd: dir, encoding: 'utf8' });
      assert.equal(check.status, 0, check.stderr);
      assert.match(check.stdout, /one\.uvl: valid/);
      const { buildIsCurrent } = await import(projectPath('scripts/build-state.mjs'));
      assert.equal(buildIsCurrent(), true);

      const port = await freePort();
      const server = spawn(process.execPath, [projectPath('scripts/start.mjs')], {
        cwd: dir,
        env: {
          ...process.env, FLASK_ENV: 'production', SECRET_KEY: 'build-test-secret-key-long-enough', PORT: String(port),
          HOST: '127.0.0.1', WORKING_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'hub.sqlite')}`, LOG_LEVEL: 'warn',
          HUB_MODULES_FILE: projectPath('modules.json'),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      server.stderr.on('data', (d) => { stderr += d; });
      try {
        let res: Response | undefined;
        for (let i = 0; i < 300 && !res; i++) {
          try { res = await fetch(`http://127.0.0.1:${port}/`); } catch { await new Promise((r) => setTimeout(r, 100)); }
        }
        assert.ok(res, `the server answered: ${stderr}`);
        assert.equal(res.status, 200);
        assert.match(await res.text(), /<meta name="csrf-token"/);
        assert.doesNotMatch(stderr, /running npm run build first/, 'the build was current: no compile at start');
      } finally {
        server.kill('SIGTERM');
        await new Promise((r) => server.once('exit', r));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
