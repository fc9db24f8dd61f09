// POST /webhook/deploy at HTTP level against a running hub and a fake Docker engine
// (specification, webhook, Errors and Authentication rule 6; decisions section 7).
// The endpoint touches no database, so SQLite alone is enough here.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { projectPath } from '../../core/config.ts';
import { startFakeDocker, type CommandOutcome, type FakeDocker } from '../../../test/support/fake-docker.ts';

const TOKEN = 's3cret-token-for-tests';
const workspace = mkdtempSync(join(tmpdir(), 'hub-deploy-workspace-'));
const marker = join(workspace, 'restart-marker.txt');
mkdirSync(join(workspace, 'scripts'));
// Stands in for the real restart script: records the container id it was started with.
writeFileSync(join(workspace, 'scripts', 'restart_container.sh'), '#!/bin/sh\necho "$1" >> "$(dirname "$0")/../restart-marker.txt"\n');

/** The log-append step really runs (locally, in the temp workspace), so its shell line is checked too. */
function runShellStepLocally(cmd: string[]): CommandOutcome | undefined {
  if (cmd[0] !== 'sh' || cmd[1] !== '-c') return undefined;
  const run = spawnSync('sh', ['-c', cmd[2]!], { encoding: 'utf8' });
  return { exitCode: run.status ?? 1, stdout: run.stdout, stderr: run.stderr };
}

function deploy(server: TestServer, authorization?: string, method = 'POST') {
  return fetch(`${server.baseUrl}/webhook/deploy`, { method, headers: authorization === undefined ? {} : { authorization } });
}

async function waitForMarkerLine(id: string): Promise<string[]> {
  for (;;) {
    const lines = existsSync(marker) ? readFileSync(marker, 'utf8').split('\n').filter(Boolean) : [];
    if (lines.includes(id)) return lines;
    await sleep(25);
  }
}

describe('webhook deploy endpoint (production selection)', () => {
  let server: TestServer;
  let docker: FakeDocker;
  before(async () => {
    docker = await startFakeDocker({ outcome: runShellStepLocally });
    server = await startTestServer({ env: { FLASK_ENV: 'production', DOCKER_HOST: docker.dockerHost, DEPLOY_WORKSPACE: workspace } });
  });
  after(async () => {
    delete process.env.WEBHOOK_TOKEN;
    await server?.close();
    await docker?.close();
    rmSync(workspace, { recursive: true, force: true });
  });
  beforeEach(() => {
    process.env.WEBHOOK_TOKEN = TOKEN;
    docker.setOutcome(runShellStepLocally);
    docker.setContainers(['web_app_container']);
  });

  it('does not open the container runtime before the first deployment', async () => {
    process.env.WEBHOOK_TOKEN = '';
    await deploy(server, `Bearer ${TOKEN}`);
    process.env.WEBHOOK_TOKEN = TOKEN;
    await deploy(server, 'Bearer wrong');
    assert.deepEqual(docker.requests, []);
  });

  it('answers 503 with a JSON error when WEBHOOK_TOKEN is unset, whatever the header', async () => {
    delete process.env.WEBHOOK_TOKEN;
    for (const header of [undefined, `Bearer ${TOKEN}`, 'Bearer None', 'Bearer ']) {
      const res = await deploy(server, header);
      assert.equal(res.status, 503, `header ${header}`);
      const body = await res.json() as { error: string };
      assert.match(body.error, /not configured/);
    }
    assert.equal(docker.execs.length, 0);
  });

  it('answers 503 when WEBHOOK_TOKEN is empty', async () => {
    process.env.WEBHOOK_TOKEN = '';
    const res = await deploy(server, 'Bearer ');
    assert.equal(res.status, 503);
    assert.match((await res.json() as { error: string }).error, /not configured/);
  });

  it('answers 403 Unauthorized for a missing, wrong, raw, lower-case or "None" header', async () => {
    for (const header of [undefined, '', 'Bearer wrong-token', TOKEN, `bearer ${TOKEN}`, `Bearer  ${TOKEN}`, `Bearer:${TOKEN}`, 'Bearer None', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const res = await deploy(server, header);
      assert.equal(res.status, 403, `header ${JSON.stringify(header)}`);
      assert.deepEqual(await res.json(), { error: 'Unauthorized' });
    }
    assert.equal(docker.execs.length, 0);
  });

  it('never reads the body before the token checks: 503, then 403, whatever is sent', async () => {
    const bodies: RequestInit[] = [
      { body: '{bad', headers: { 'content-type': 'application/json' } },
      { body: '<deploy/>', headers: { 'content-type': 'application/xml' } },
      { body: 'x'.repeat(3 * 1024 * 1024), headers: { 'content-type': 'text/plain' } },
      { body: new Uint8Array([0, 255, 1, 254]), headers: { 'content-type': 'application/octet-stream' } },
    ];
    for (const [token, status] of [['', 503], [TOKEN, 403]] as const) {
      process.env.WEBHOOK_TOKEN = token;
      for (const init of bodies) {
        const headers: Record<string, string> = { ...(init.headers as Record<string, string>), authorization: 'Bearer wrong' };
        const res = await fetch(`${server.baseUrl}/webhook/deploy`, { method: 'POST', ...init, headers });
        assert.equal(res.status, status, `${headers['content-type']} with token ${JSON.stringify(token)}`);
        const body = await res.json() as { error: string };
        assert.match(body.error, status === 503 ? /not configured/ : /^Unauthorized$/);
      }
    }
    assert.equal(docker.execs.length, 0);
  });

  it('ignores a body sent with the right token: the deployment runs as without one', async () => {
    docker.setContainers([]);
    const res = await fetch(`${server.baseUrl}/webhook/deploy`, {
      method: 'POST',
      body: '{"ref": "main"',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    });
    assert.equal(res.status, 404, 'past the token check (no container), not 400');
  });

  it('reads the token on every request: a rotated token takes effect at once', async () => {
    docker.setContainers([]);
    process.env.WEBHOOK_TOKEN = 'first-token';
    assert.equal((await deploy(server, 'Bearer first-token')).status, 404, 'past the token check (no container)');
    process.env.WEBHOOK_TOKEN = 'second-token';
    assert.equal((await deploy(server, 'Bearer first-token')).status, 403);
    assert.equal((await deploy(server, 'Bearer second-token')).status, 404);
  });

  it('answers 405 with Allow: POST for other methods', async () => {
    const before = docker.execs.length;
    for (const method of ['GET', 'HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const res = await deploy(server, `Bearer ${TOKEN}`, method);
      assert.equal(res.status, 405, method);
      assert.equal(res.headers.get('allow'), 'POST');
    }
    assert.equal(docker.execs.length, before);
  });

  it('answers 404 JSON when the container web_app_container does not exist, running nothing', async () => {
    docker.setContainers(['some_other_container']);
    const before = docker.execs.length;
    const res = await deploy(server, `Bearer ${TOKEN}`);
    assert.equal(res.status, 404);
    assert.match((await res.json() as { error: string }).error, /web_app_container/);
    assert.equal(docker.execs.length, before);
  });

  const steps = [
    { name: 'the update script', matches: (cmd: string[]) => cmd.join(' ').endsWith('scripts/git_update.sh') },
    { name: 'the dependency install', matches: (cmd: string[]) => cmd.join(' ') === 'npm ci' },
    { name: 'the migration', matches: (cmd: string[]) => cmd.join(' ').includes('db:migrate') },
    { name: 'the log append', matches: (cmd: string[]) => cmd.join(' ').includes('deployments.log') },
  ];
  const failedContainerIds: string[] = [];

  for (const [index, step] of steps.entries()) {
    it(`stops at ${step.name} when it exits non-zero: 500 with its output, no later step, no restart`, async () => {
      failedContainerIds.push(docker.renewContainerId('web_app_container'));
      docker.setOutcome((cmd) => (step.matches(cmd)
        ? { exitCode: 3, stdout: 'partial output\n', stderr: `fatal: ${step.name} broke\n` }
        : runShellStepLocally(cmd)));
      const first = docker.execs.length;
      const res = await deploy(server, `Bearer ${TOKEN}`);
      assert.equal(res.status, 500);
      const body = await res.json() as { error: string; output: string; exit_code: number };
      assert.match(body.output, new RegExp(`fatal: ${step.name} broke`));
      assert.match(body.output, /partial output/);
      assert.equal(body.exit_code, 3);
      assert.match(body.error, /exited with 3/);
      const ran = docker.execs.slice(first);
      assert.equal(ran.length, index + 1, 'the sequence stopped at the failing step');
      assert.ok(step.matches(ran.at(-1)!.cmd));
    });
  }

  it('runs the four steps in order inside the container, appends the log line, answers, then restarts detached', async () => {
    const containerId = docker.renewContainerId('web_app_container');
    const first = docker.execs.length;
    const res = await deploy(server, `Bearer ${TOKEN}`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
    assert.equal(await res.text(), 'Deployment successful');

    const ran = docker.execs.slice(first);
    assert.deepEqual(ran.map((e) => e.cmd.slice(0, 2)), [
      ['sh', join(workspace, 'scripts', 'git_update.sh')],
      ['npm', 'ci'],
      ['node', 'bin/hub.mjs'],
      ['sh', '-c'],
    ]);
    assert.equal(ran[2]!.cmd[2], 'db:migrate');
    for (const exec of ran) {
      assert.equal(exec.containerId, containerId, 'every step runs in web_app_container');
      assert.equal(exec.workingDir, workspace);
    }
    assert.match(readFileSync(join(workspace, 'deployments.log'), 'utf8'), /^Deployment successful at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n$/);

    const restarted = await waitForMarkerLine(containerId);
    assert.equal(failedContainerIds.length, steps.length);
    for (const failed of failedContainerIds) assert.ok(!restarted.includes(failed), 'no restart after a failed step');
  });

  it('refuses a second deployment while one is running (409)', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    docker.setOutcome(async (cmd) => {
      if (cmd.join(' ') === 'npm ci') await held;
      return runShellStepLocally(cmd);
    });
    const firstExecs = docker.execs.length;
    const running = deploy(server, `Bearer ${TOKEN}`);
    // The fake records a command when it starts; the second one (npm ci) is now held.
    while (docker.execs.length < firstExecs + 2) await sleep(10);
    const second = await deploy(server, `Bearer ${TOKEN}`);
    assert.equal(second.status, 409);
    assert.match((await second.json() as { error: string }).error, /already running/);
    release();
    assert.equal((await running).status, 200);
  });
});

describe('webhook deploy endpoint when the runtime cannot be reached', () => {
  it('answers 500 JSON naming the runtime address, never a stack trace', async () => {
    const missingSocket = join(workspace, 'no-such-docker.sock');
    const server = await startTestServer({ env: { FLASK_ENV: 'production', DOCKER_HOST: `unix://${missingSocket}`, DEPLOY_WORKSPACE: workspace } });
    try {
      process.env.WEBHOOK_TOKEN = TOKEN;
      const res = await deploy(server, `Bearer ${TOKEN}`);
      assert.equal(res.status, 500);
      const body = await res.json() as { error: string };
      assert.match(body.error, /Cannot reach the container runtime/);
      assert.doesNotMatch(JSON.stringify(body), /at .*\.ts:\d+/);
    } finally {
      delete process.env.WEBHOOK_TOKEN;
      await server.close();
    }
  });
});

describe('webhook outside the production selection', () => {
  it('is not registered in development: /webhook/deploy answers 404 even with the right token', async () => {
    const server = await startTestServer();
    try {
      process.env.WEBHOOK_TOKEN = TOKEN;
      assert.equal((await deploy(server, `Bearer ${TOKEN}`)).status, 404);
      assert.equal((await deploy(server, `Bearer ${TOKEN}`, 'GET')).status, 404);
    } finally {
      delete process.env.WEBHOOK_TOKEN;
      await server.close();
    }
  });
});

describe('webhook isolation (coupling rule 7)', () => {
  const sources = (dir: string): string[] => readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.includes('node_modules'))
    .map((f) => join(dir, f));
  const importsOf = (file: string) => [...readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!);

  it('imports nothing from other modules', () => {
    const dir = projectPath('src/modules/webhook');
    const foreign = sources(dir).filter((f) => !f.endsWith('.test.ts'))
      .flatMap((f) => importsOf(f).filter((s) => s.startsWith('.') && !resolve(dirname(f), s).startsWith(dir) && resolve(dirname(f), s).startsWith(projectPath('src/modules'))));
    assert.deepEqual(foreign, []);
  });

  it('is imported by nothing but the module catalogue', () => {
    const importers = sources(projectPath('src')).filter((f) => !f.startsWith(projectPath('src/modules/webhook')))
      .filter((f) => importsOf(f).some((s) => s.includes('modules/webhook/')));
    assert.deepEqual(importers.map((f) => f.slice(projectPath().length + 1)), ['src/app/modules.ts']);
  });
});
