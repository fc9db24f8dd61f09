// The deployment files the webhook relies on (specification, webhook: operational
// prerequisites and the pipeline): the two scripts run for real against local git
// repositories and a stand-in `docker`; the YAML files are parsed and their keys checked.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectPath } from '../../core/config.ts';

const gitUpdate = projectPath('scripts', 'git_update.sh');
const restartContainer = projectPath('scripts', 'restart_container.sh');
const dir = mkdtempSync(join(tmpdir(), 'hub-deploy-files-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Test', GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test', GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0',
};

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = gitEnv): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, env, encoding: 'utf8' });
}

function git(cwd: string, ...args: string[]): string {
  const result = run('git', args, cwd);
  assert.equal(result.status, 0, `git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
}

/** A bare repository at `bare` with one commit on main, a workspace clone, and a second clone to push from. */
function repositories(name: string, bare: string) {
  const seed = join(dir, `${name}-seed`);
  const workspace = join(dir, `${name}-workspace`);
  mkdirSync(bare, { recursive: true });
  git(bare, 'init', '--bare', '-b', 'main');
  mkdirSync(seed);
  git(seed, 'init', '-b', 'main');
  writeFileSync(join(seed, 'README'), 'first\n');
  git(seed, 'add', 'README');
  git(seed, 'commit', '-m', 'first');
  git(seed, 'remote', 'add', 'origin', `file://${bare}`);
  git(seed, 'push', 'origin', 'main');
  git(dir, 'clone', `file://${bare}`, workspace);
  const pushNewCommit = (text: string) => {
    writeFileSync(join(seed, 'README'), text);
    git(seed, 'commit', '-am', text.trim());
    git(seed, 'push', 'origin', 'main');
    return git(seed, 'rev-parse', 'HEAD');
  };
  return { workspace, pushNewCommit };
}

describe('scripts/git_update.sh', () => {
  it('passes sh -n', () => {
    assert.equal(run('sh', ['-n', gitUpdate], dir).status, 0);
  });

  it('pulls main from a file:// origin and leaves the origin as it was', () => {
    const bare = join(dir, 'plain', 'repo.git');
    const { workspace, pushNewCommit } = repositories('plain', bare);
    const head = pushNewCommit('second\n');
    const result = run('sh', [gitUpdate], dir, { ...gitEnv, DEPLOY_WORKSPACE: workspace });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(git(workspace, 'rev-parse', 'HEAD'), head);
    assert.equal(readFileSync(join(workspace, 'README'), 'utf8'), 'second\n');
    assert.equal(git(workspace, 'remote', 'get-url', 'origin'), `file://${bare}`);
    assert.doesNotMatch(result.stdout, /rewritten/);
  });

  it('rewrites an SSH origin (git@host:owner/repo.git) to HTTPS for the pull and restores it', () => {
    const httpsRoot = join(dir, 'https-root');
    const bare = join(httpsRoot, 'owner', 'repo.git');
    const { workspace, pushNewCommit } = repositories('ssh', bare);
    const sshOrigin = 'git@git.example.invalid:owner/repo.git';
    git(workspace, 'remote', 'set-url', 'origin', sshOrigin);
    const head = pushNewCommit('third\n');
    // The HTTPS base is overridable so that the rewritten URL lands on the local bare repository.
    const result = run('sh', [gitUpdate], dir, { ...gitEnv, DEPLOY_WORKSPACE: workspace, GIT_HTTPS_BASE: `file://${httpsRoot}` });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`rewritten to file://${httpsRoot}/owner/repo\\.git`));
    assert.equal(git(workspace, 'rev-parse', 'HEAD'), head);
    assert.equal(git(workspace, 'remote', 'get-url', 'origin'), sshOrigin);
  });

  it('without an override the rewritten URL is https://<host>/<owner>/<repo>.git', () => {
    const bare = join(dir, 'default-https', 'repo.git');
    const { workspace } = repositories('default-https', bare);
    git(workspace, 'remote', 'set-url', 'origin', 'git@git.example.invalid:owner/repo.git');
    const result = run('sh', [gitUpdate], dir, { ...gitEnv, DEPLOY_WORKSPACE: workspace, GIT_HTTPS_BASE: '' });
    // git.example.invalid cannot resolve: the pull fails, which is what this case needs.
    assert.notEqual(result.status, 0);
    assert.match(result.stdout, /rewritten to https:\/\/git\.example\.invalid\/owner\/repo\.git/);
    assert.equal(git(workspace, 'remote', 'get-url', 'origin'), 'git@git.example.invalid:owner/repo.git');
  });

  it('restores the SSH origin when the pull fails, and exits non-zero', () => {
    const bare = join(dir, 'failing', 'repo.git');
    const { workspace } = repositories('failing', bare);
    const sshOrigin = 'ssh://git@git.example.invalid/owner/repo.git';
    git(workspace, 'remote', 'set-url', 'origin', sshOrigin);
    const result = run('sh', [gitUpdate], dir, { ...gitEnv, DEPLOY_WORKSPACE: workspace, GIT_HTTPS_BASE: `file://${join(dir, 'nothing-here')}` });
    assert.notEqual(result.status, 0);
    assert.match(result.stdout, /origin restored/);
    assert.equal(git(workspace, 'remote', 'get-url', 'origin'), sshOrigin);
  });
});

describe('scripts/restart_container.sh', () => {
  const bin = join(dir, 'bin');
  const calls = join(dir, 'docker-calls.txt');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'docker'), `#!/bin/sh\necho "$@" >> "${calls}"\n`);
  chmodSync(join(bin, 'docker'), 0o755);
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, RESTART_DELAY_SECONDS: '0' };

  it('passes sh -n and waits 5 seconds by default', () => {
    assert.equal(run('sh', ['-n', restartContainer], dir).status, 0);
    assert.match(readFileSync(restartContainer, 'utf8'), /sleep "\$\{RESTART_DELAY_SECONDS:-5\}"/);
  });

  it('restarts the container it is given through the docker client', () => {
    const result = run('sh', [restartContainer, 'abc123'], dir, env);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(readFileSync(calls, 'utf8'), 'restart abc123\n');
  });

  it('refuses to run without a container id', () => {
    const result = run('sh', [restartContainer], dir, env);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /usage/);
  });
});

const hasPyYaml = spawnSync('python3', ['-c', 'import yaml'], { encoding: 'utf8' }).status === 0;
const yamlSkip = hasPyYaml ? false : 'python3 with PyYAML is not installed: the YAML files are not parsed';
if (yamlSkip) console.warn(`SKIPPING: ${yamlSkip}`);

/** Parses YAML with PyYAML (the yaml npm package is not a dependency) and answers it as JSON. */
function readYaml(path: string): any {
  const result = spawnSync('python3', ['-c', 'import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1])), default=str))', path], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  const parsed = JSON.parse(result.stdout);
  // YAML 1.1 reads the key `on` as the boolean true.
  if (parsed && typeof parsed === 'object' && 'true' in parsed && !('on' in parsed)) parsed.on = parsed.true;
  return parsed;
}

describe('CI workflows', { skip: yamlSkip }, () => {
  it('the test workflow runs npm ci and npm test against PostgreSQL and MariaDB', () => {
    const tests = readYaml(projectPath('.github/workflows/tests.yml'));
    assert.equal(tests.name, 'Tests');
    const job = tests.jobs.test;
    assert.deepEqual(Object.keys(job.services).sort(), ['mariadb', 'postgres']);
    assert.match(job.env.TEST_DATABASE_URLS, /^postgres:\/\/.+,mysql:\/\/.+/);
    const runs = job.steps.map((s: { run?: string }) => s.run).filter(Boolean);
    assert.ok(runs.some((r: string) => r.startsWith('npm ci')));
    assert.ok(runs.includes('npm test'));
  });

  it('the deploy workflow follows the test workflow by name, on success on main only, and posts with the bearer token', () => {
    const tests = readYaml(projectPath('.github/workflows/tests.yml'));
    const deploy = readYaml(projectPath('.github/workflows/deploy.yml'));
    assert.deepEqual(deploy.on.workflow_run.workflows, [tests.name], 'linked by the test workflow’s declared name');
    assert.deepEqual(deploy.on.workflow_run.types, ['completed']);
    const job = deploy.jobs.deploy;
    assert.match(job.if, /github\.event\.workflow_run\.conclusion == 'success'/);
    assert.match(job.if, /github\.event\.workflow_run\.head_branch == 'main'/);
    const command = job.steps.map((s: { run?: string }) => s.run ?? '').join('\n');
    assert.match(command, /-X POST "https:\/\/\$\{\{ secrets\.WEBHOOK_DOMAIN \}\}\/webhook\/deploy"/);
    assert.match(command, /"Authorization: Bearer \$\{\{ secrets\.WEBHOOK_TOKEN \}\}"/);
    assert.match(command, /--fail/, 'a refused deployment fails the job');
  });
});

describe('container files', { skip: yamlSkip }, () => {
  it('the webhook compose file runs web_app_container with the Docker socket and the /workspace checkout', () => {
    const compose = readYaml(projectPath('docker/docker-compose.webhook.yml'));
    const web = compose.services.web;
    assert.equal(web.container_name, 'web_app_container');
    assert.ok(web.volumes.includes('/var/run/docker.sock:/var/run/docker.sock'));
    assert.ok(web.volumes.some((v: string) => v.endsWith(':/workspace')));
    assert.equal(web.environment.DEPLOY_WORKSPACE, '/workspace');
    assert.match(web.environment.WEBHOOK_TOKEN, /WEBHOOK_TOKEN/);
    assert.equal(web.environment.FLASK_ENV, 'production', 'the production list, where webhook is');
  });

  it('the production compose file has the app, a database and the proxy with its config', () => {
    const compose = readYaml(projectPath('docker/docker-compose.prod.yml'));
    assert.deepEqual(Object.keys(compose.services).sort(), ['db', 'proxy', 'web']);
    assert.match(compose.services.web.environment.DATABASE_URL, /^postgres:\/\//);
    assert.match(String(compose.services.web.deploy.replicas), /HUB_REPLICAS/);
    const mount = compose.services.proxy.volumes[0] as string;
    const config = readFileSync(projectPath('docker', mount.split(':')[0]!), 'utf8');
    assert.match(config, /proxy_pass http:\/\/hub;/);
    const mariadb = readYaml(projectPath('docker/docker-compose.mariadb.yml'));
    assert.match(mariadb.services.web.environment.DATABASE_URL, /^mysql:\/\//);
  });

  it('the Dockerfile builds on Node 20 with git and the Docker client', () => {
    const dockerfile = readFileSync(projectPath('Dockerfile'), 'utf8');
    assert.match(dockerfile, /^FROM node:20\b/m);
    assert.match(dockerfile, /apt-get install[^\n]*\bgit\b/);
    assert.match(dockerfile, /apt-get install[^\n]*\bdocker\.io\b/);
    assert.match(readFileSync(projectPath('.dockerignore'), 'utf8'), /^node_modules$/m);
  });
});
