// The in-place redeployment (specification, webhook; decisions section 7): steps 2 to 5
// run inside the web container through the Docker Engine exec API, step 6 starts the
// restart script as a detached local process so that the HTTP answer can leave first.
// Each operation is an exported function taking DeployerDeps first, bound once below.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type Dockerode from 'dockerode';
import type { FastifyBaseLogger } from 'fastify';
import { bindOperations } from '../../core/operations.ts';

export const WEB_CONTAINER_NAME = 'web_app_container';
/** Output kept per failed step: enough to read the error, bounded so a runaway log cannot bloat the answer. */
const MAX_OUTPUT_CHARS = 64 * 1024;

export interface DeployStep {
  /** What the step does, for logs and error answers. */
  label: string;
  cmd: string[];
  workingDir: string;
}

export type DeployOutcome =
  | { status: 'deployed'; containerId: string }
  | { status: 'container-missing' }
  | { status: 'runtime-unreachable'; message: string }
  | { status: 'step-failed'; step: DeployStep; exitCode: number | null; output: string };

export interface DeployOptions {
  dockerHost: string;
  workspace: string;
  log: FastifyBaseLogger;
}

/** The exec'd commands, in order (steps 2 to 5 of the specification's sequence). */
export function deploySteps(workspace: string): DeployStep[] {
  const quoted = `'${workspace.replace(/'/g, `'\\''`)}'`;
  return [
    { label: 'update the checkout', cmd: ['sh', join(workspace, 'scripts', 'git_update.sh')], workingDir: workspace },
    { label: 'install dependencies', cmd: ['npm', 'ci'], workingDir: workspace },
    { label: 'migrate the database', cmd: ['node', 'bin/hub.mjs', 'db:migrate'], workingDir: workspace },
    {
      label: 'record the deployment',
      cmd: ['sh', '-c', `echo "Deployment successful at $(date -u +%Y-%m-%dT%H:%M:%SZ)" >> ${quoted}/deployments.log`],
      workingDir: workspace,
    },
  ];
}

/** DOCKER_HOST as dockerode options: unix:///path, tcp://host:port or http(s)://host:port. */
export function dockerConnectionOptions(dockerHost: string): Dockerode.DockerOptions {
  if (dockerHost.startsWith('unix://')) return { socketPath: dockerHost.slice('unix://'.length) || '/var/run/docker.sock' };
  const url = new URL(dockerHost.includes('://') ? dockerHost : `tcp://${dockerHost}`);
  const https = url.protocol === 'https:';
  return { host: url.hostname, port: url.port || (https ? '2376' : '2375'), protocol: https ? 'https' : 'http' };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs one step in the container and reads its output (bounded) and exit code. */
async function runStep(container: Dockerode.Container, step: DeployStep): Promise<{ exitCode: number | null; output: string }> {
  const exec = await container.exec({ Cmd: step.cmd, WorkingDir: step.workingDir, AttachStdout: true, AttachStderr: true, Tty: false });
  const stream = await exec.start({ hijack: false, stdin: false, Detach: false, Tty: false });
  const sink = new PassThrough();
  let output = '';
  sink.on('data', (chunk: Buffer) => {
    if (output.length < MAX_OUTPUT_CHARS) output += chunk.toString('utf8');
  });
  // The stream is multiplexed (8-byte frame headers); stdout and stderr are read in arrival order.
  container.modem.demuxStream(stream, sink, sink);
  await new Promise<void>((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('close', resolve);
    stream.on('error', reject);
  });
  let info = await exec.inspect();
  // The engine may report the process as running for a moment after its output ended.
  for (let i = 0; info.Running && i < 100; i++) {
    await sleep(100);
    info = await exec.inspect();
  }
  return { exitCode: info.Running ? null : info.ExitCode, output: output.slice(0, MAX_OUTPUT_CHARS) };
}

/** Starts the restart script detached, so that it outlives this process. */
function startRestart(options: DeployOptions, containerId: string): void {
  const script = join(options.workspace, 'scripts', 'restart_container.sh');
  const child = spawn('sh', [script, containerId], { detached: true, stdio: 'ignore', cwd: options.workspace });
  child.on('error', (error) => options.log.error({ err: error }, 'the restart script could not be started'));
  child.unref();
}

/** The options and what one deployer keeps: the Docker client once opened, whether a deployment runs. */
export interface DeployerDeps {
  options: DeployOptions;
  client: Dockerode | null;
  running: boolean;
}

// Opened on the first deployment, not at import (specification, webhook): a process
// that never deploys never loads the client or touches the socket.
async function docker(d: DeployerDeps): Promise<Dockerode> {
  if (!d.client) {
    const { default: Docker } = await import('dockerode');
    d.client = new Docker(dockerConnectionOptions(d.options.dockerHost));
  }
  return d.client;
}

/** Whether a deployment is in progress in this process (two at once would race on the checkout). */
export function busy(d: DeployerDeps): boolean {
  return d.running;
}

/** The web container, or the outcome that ends the deployment when it cannot be had. */
async function webContainer(d: DeployerDeps): Promise<{ container: Dockerode.Container; containerId: string } | DeployOutcome> {
  try {
    const client = await docker(d);
    const info = await client.getContainer(WEB_CONTAINER_NAME).inspect();
    return { containerId: info.Id, container: client.getContainer(info.Id) };
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) return { status: 'container-missing' };
    d.options.log.error({ err: error }, 'the container runtime could not be reached');
    return { status: 'runtime-unreachable', message: `Cannot reach the container runtime at ${d.options.dockerHost}.` };
  }
}

export async function deploy(d: DeployerDeps): Promise<DeployOutcome> {
  const { options } = d;
  d.running = true;
  try {
    const found = await webContainer(d);
    if ('status' in found) return found;
    const { container, containerId } = found;
    for (const step of deploySteps(options.workspace)) {
      let result: { exitCode: number | null; output: string };
      try {
        result = await runStep(container, step);
      } catch (error) {
        options.log.error({ err: error, step: step.label }, 'a deployment step could not be run');
        return { status: 'step-failed', step, exitCode: null, output: `The container runtime refused the command: ${(error as Error).message}` };
      }
      options.log.info({ step: step.label, exitCode: result.exitCode }, 'deployment step finished');
      if (result.exitCode !== 0) return { status: 'step-failed', step, ...result };
    }
    startRestart(options, containerId);
    return { status: 'deployed', containerId };
  } finally {
    d.running = false;
  }
}

export function createDeployer(options: DeployOptions) {
  const d: DeployerDeps = { options, client: null, running: false };
  return {
    get busy(): boolean {
      return busy(d);
    },
    ...bindOperations(d, { deploy }),
  };
}

export type Deployer = ReturnType<typeof createDeployer>;
