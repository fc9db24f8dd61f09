// A fake Docker Engine on a unix socket, speaking the subset of the Engine API the
// deploy endpoint uses, so that the production dockerode client talks to it unchanged
// (DOCKER_HOST=unix://<socket>). It records every exec'd command and can fail a step.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

export interface ExecRecord {
  containerId: string;
  cmd: string[];
  workingDir: string | undefined;
}

export interface CommandOutcome {
  exitCode: number;
  stdout?: string;
  stderr?: string;
}

export interface FakeDockerOptions {
  /** Containers by name; default one named web_app_container. */
  containers?: string[];
  /** Decides how an exec'd command ends; default exit 0 with a line on stdout naming the command. */
  outcome?: (cmd: string[]) => CommandOutcome | undefined | Promise<CommandOutcome | undefined>;
}

export interface FakeDocker {
  /** The value for DOCKER_HOST. */
  dockerHost: string;
  socketPath: string;
  /** Commands in the order they were started. */
  execs: ExecRecord[];
  /** Every request line received, e.g. `GET /containers/web_app_container/json`. */
  requests: string[];
  containerId(name: string): string;
  setOutcome(outcome: FakeDockerOptions['outcome']): void;
  setContainers(names: string[]): void;
  /** Gives the named container a new id, as if it had been re-created. */
  renewContainerId(name: string): string;
  close(): Promise<void>;
}

interface PendingExec {
  id: string;
  record: ExecRecord;
  outcome: CommandOutcome | null;
}

/** One frame of the multiplexed stream: type (1 stdout, 2 stderr), three zero bytes, big-endian length, payload. */
function frame(streamType: 1 | 2, text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const header = Buffer.alloc(8);
  header.writeUInt8(streamType, 0);
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export async function startFakeDocker(options: FakeDockerOptions = {}): Promise<FakeDocker> {
  const dir = mkdtempSync(join(tmpdir(), 'fake-docker-'));
  const socketPath = join(dir, 'docker.sock');
  const ids = new Map<string, string>();
  const idFor = (name: string) => {
    if (!ids.has(name)) ids.set(name, randomBytes(32).toString('hex'));
    return ids.get(name)!;
  };
  let containers = new Set(options.containers ?? ['web_app_container']);
  let outcome = options.outcome;
  const execs: ExecRecord[] = [];
  const requests: string[] = [];
  const pending = new Map<string, PendingExec>();

  const findContainer = (ref: string): string | undefined => {
    for (const name of containers) if (ref === name || ref === idFor(name)) return name;
    return undefined;
  };

  const server: Server = createServer(async (req, res) => {
    // dockerode may prefix a version (/v1.43/...); the API is the same without it.
    const path = (req.url ?? '/').split('?')[0]!.replace(/^\/v[\d.]+\//, '/');
    requests.push(`${req.method} ${path}`);
    const body = await readBody(req);
    let match: RegExpExecArray | null;

    if (req.method === 'GET' && (match = /^\/containers\/([^/]+)\/json$/.exec(path))) {
      const name = findContainer(decodeURIComponent(match[1]!));
      if (!name) return json(res, 404, { message: `No such container: ${decodeURIComponent(match[1]!)}` });
      return json(res, 200, { Id: idFor(name), Name: `/${name}`, State: { Status: 'running', Running: true } });
    }

    if (req.method === 'POST' && (match = /^\/containers\/([^/]+)\/exec$/.exec(path))) {
      const name = findContainer(decodeURIComponent(match[1]!));
      if (!name) return json(res, 404, { message: `No such container: ${match[1]}` });
      const config = JSON.parse(body || '{}') as { Cmd?: string[]; WorkingDir?: string };
      if (!Array.isArray(config.Cmd) || config.Cmd.length === 0) return json(res, 400, { message: 'No exec command specified' });
      const id = randomBytes(32).toString('hex');
      const record = { containerId: idFor(name), cmd: config.Cmd, workingDir: config.WorkingDir || undefined };
      pending.set(id, { id, record, outcome: null });
      return json(res, 201, { Id: id });
    }

    if (req.method === 'POST' && (match = /^\/exec\/([^/]+)\/start$/.exec(path))) {
      const exec = pending.get(match[1]!);
      if (!exec) return json(res, 404, { message: 'No such exec instance' });
      execs.push(exec.record);
      const result = (await outcome?.(exec.record.cmd)) ?? { exitCode: 0, stdout: `ran: ${exec.record.cmd.join(' ')}\n` };
      exec.outcome = result;
      res.writeHead(200, { 'content-type': 'application/vnd.docker.multiplexed-stream' });
      if (result.stdout) res.write(frame(1, result.stdout));
      if (result.stderr) res.write(frame(2, result.stderr));
      return res.end();
    }

    if (req.method === 'GET' && (match = /^\/exec\/([^/]+)\/json$/.exec(path))) {
      const exec = pending.get(match[1]!);
      if (!exec) return json(res, 404, { message: 'No such exec instance' });
      return json(res, 200, {
        ID: exec.id,
        Running: false,
        ExitCode: exec.outcome ? exec.outcome.exitCode : null,
        ProcessConfig: { entrypoint: exec.record.cmd[0], arguments: exec.record.cmd.slice(1) },
        ContainerID: exec.record.containerId,
      });
    }

    return json(res, 404, { message: `page not found: ${req.method} ${path}` });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });

  return {
    dockerHost: `unix://${socketPath}`,
    socketPath,
    execs,
    requests,
    containerId: idFor,
    setOutcome(next) { outcome = next; },
    setContainers(names) { containers = new Set(names); },
    renewContainerId(name) {
      ids.delete(name);
      return idFor(name);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
