// The module system (decisions section 2): coupling rules stop startup, navigation comes from manifests.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, projectPath } from '../core/config.ts';
import { readModuleSelection, ModuleSelectionError } from '../core/modules.ts';
import { loadModules, moduleCatalogue } from './modules.ts';
import { startTestServer } from '../../test/support/server.ts';

const dir = mkdtempSync(join(tmpdir(), 'hub-modules-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function modulesFile(lists: { base: string[]; development?: string[]; production?: string[] }): string {
  const path = join(dir, `modules-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify({ development: [], production: [], ...lists }));
  return path;
}

/** Runs `npm start` with the given environment until it exits or is ready; answers its exit code and output. */
function startProcess(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['start', '--silent'], { cwd: projectPath(), env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const timer = setTimeout(() => child.kill('SIGTERM'), 20_000);
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    child.on('exit', (code) => { clearTimeout(timer); resolve({ code, output }); });
  });
}

describe('module selection', () => {
  const shipped = readModuleSelection(loadConfig({ HUB_MODULES_FILE: projectPath('modules.json') }));

  it('the shipped development selection satisfies every coupling rule', async () => {
    const modules = await loadModules(shipped);
    assert.deepEqual(modules.map((m) => m.name), shipped);
  });

  it('production adds its own list to the base list (FLASK_ENV=production)', () => {
    const file = modulesFile({ base: ['public'], development: ['auth'], production: ['explore'] });
    assert.deepEqual(readModuleSelection(loadConfig({ HUB_MODULES_FILE: file, FLASK_ENV: 'production', SECRET_KEY: 'k' })), ['public', 'explore']);
    assert.deepEqual(readModuleSelection(loadConfig({ HUB_MODULES_FILE: file, FLASK_ENV: 'testing' })), ['public', 'auth']);
    assert.deepEqual(readModuleSelection(loadConfig({ HUB_MODULES_FILE: file, NODE_ENV: 'production', SECRET_KEY: 'k' })), ['public', 'explore']);
  });

  it('auth without profile is refused with a message naming profile', async () => {
    const names = shipped.filter((n) => n !== 'profile');
    await assert.rejects(loadModules(names), (e: unknown) => e instanceof ModuleSelectionError && /"auth" requires "profile"/.test(e.message));
  });

  it('profile without auth is refused too (each needs the other)', async () => {
    await assert.rejects(loadModules(['public', 'profile', 'dataset']), /"profile" requires "auth"/);
  });

  it('auth without the landing page it redirects to is refused, naming public', async () => {
    await assert.rejects(loadModules(shipped.filter((n) => n !== 'public')), /"auth" requires "public"/);
  });

  it('an unknown module name is refused', async () => {
    await assert.rejects(loadModules(['public', 'nonsense']), /Unknown module "nonsense"/);
  });

  it('a malformed modules file is refused with a clear message naming the file', () => {
    const write = (text: string) => {
      const path = join(dir, `broken-${Math.random().toString(36).slice(2)}.json`);
      writeFileSync(path, text);
      return path;
    };
    const cases: [string, RegExp][] = [
      ['{"base": ["public",', /is not valid JSON/],
      ['', /is not valid JSON/],
      ['null', /must hold an object/],
      ['[1, 2]', /must hold an object/],
      ['{"development": []}', /the "base" list is missing/],
      ['{"base": ["public"], "prodution": ["webhook"]}', /unknown key "prodution"/],
      ['{"base": "public"}', /"base" must be a list of module names/],
      ['{"base": ["public", 3]}', /"base" must be a list of module names/],
    ];
    for (const [text, message] of cases) {
      const file = write(text);
      assert.throws(() => readModuleSelection(loadConfig({ HUB_MODULES_FILE: file })),
        (e: unknown) => e instanceof ModuleSelectionError && message.test(e.message) && e.message.includes(file), text);
    }
    assert.throws(() => readModuleSelection(loadConfig({ HUB_MODULES_FILE: join(dir, 'missing.json') })), /does not exist/);
  });

  it('npm start exits non-zero with one clear line, no stack trace, for a malformed modules file or an unreachable database', async () => {
    const broken = join(dir, 'broken-start.json');
    writeFileSync(broken, '{"base": ["public",');
    const malformed = await startProcess({ HUB_MODULES_FILE: broken, PORT: '0', DATABASE_URL: `sqlite:${join(dir, 'never.sqlite')}`, WORKING_DIR: dir });
    assert.notEqual(malformed.code, 0);
    assert.match(malformed.output, /hub: cannot start: .*broken-start\.json is not valid JSON/);
    assert.doesNotMatch(malformed.output, /\n\s+at /);
    const unreachable = await startProcess({
      HUB_MODULES_FILE: projectPath('modules.json'), PORT: '0', WORKING_DIR: dir,
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', LOG_LEVEL: 'warn',
    });
    assert.notEqual(unreachable.code, 0);
    assert.match(unreachable.output, /hub: cannot start: Cannot apply the migrations/);
    assert.doesNotMatch(unreachable.output, /\n\s+at /);
  });

  it('npm start exits non-zero naming profile when modules.json has auth without profile', async () => {
    const file = modulesFile({ base: shipped.filter((n) => n !== 'profile') });
    const result = await startProcess({ HUB_MODULES_FILE: file, PORT: '0', DATABASE_URL: `sqlite:${join(dir, 'never.sqlite')}`, WORKING_DIR: dir });
    assert.notEqual(result.code, 0);
    assert.match(result.output, /profile/);
    assert.match(result.output, /cannot start/);
  });
});

describe('navigation entries come from the manifests', () => {
  it('shows a module’s link when enabled and none when the module is left out', async () => {
    const shipped = readModuleSelection(loadConfig({ HUB_MODULES_FILE: projectPath('modules.json') }));
    const all = await Promise.all(shipped.map((n) => moduleCatalogue[n]!()));
    const withNav = all.filter((m) => m.nav);
    assert.ok(withNav.length > 0, 'at least one shipped module declares a navigation entry');
    const full = await startTestServer({ modules: shipped });
    try {
      const home = await (await fetch(full.baseUrl + '/')).text();
      for (const m of withNav) assert.ok(home.includes(`href="${m.nav!.path}"`), `${m.name}'s link is shown`);
    } finally {
      await full.close();
    }
    let checked = 0;
    for (const m of withNav) {
      const without = shipped.filter((n) => n !== m.name);
      try {
        await loadModules(without);
      } catch {
        continue; // Other modules need this one: it cannot be left out on its own.
      }
      const server = await startTestServer({ modules: without });
      try {
        const home = await (await fetch(server.baseUrl + '/')).text();
        assert.ok(!home.includes(`href="${m.nav!.path}"`), `no link to ${m.nav!.path} without ${m.name}`);
        checked++;
      } finally {
        await server.close();
      }
    }
    assert.ok(checked > 0 || withNav.every((m) => m.name !== 'explore'), 'explore, which can be left out alone, was checked');
  });
});
