// A real hub server in a child process for the crash tests: started on a given database and
// store, optionally told to pause at a named step (src/core/test-pause.ts), killed with SIGKILL
// and started again on the same database and store.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { projectPath } from '../../src/core/config.ts';
import { freePort } from '../support/ports.ts';
import type { PauseStep } from '../../src/core/test-pause.ts';

export interface ChildServer {
  baseUrl: string;
  child: ChildProcess;
  /** Where the pause hook writes the step it reached. */
  marker: string;
}

/** Starts `src/app/server.ts` with `env`, and waits until it answers. */
export async function startChild(env: Record<string, string>, workingDir: string, pauseAt?: PauseStep): Promise<ChildServer> {
  const port = await freePort();
  // Named for this child alone: a later child of the same test never reads an earlier one's step.
  const marker = join(workingDir, `pause-${randomUUID()}.marker`);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/app/server.ts'], {
    cwd: projectPath(),
    env: {
      ...process.env, ...env, WORKING_DIR: workingDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error',
      ...(pauseAt ? { HUB_TEST_PAUSE_AT: pauseAt, HUB_TEST_PAUSE_MARKER: marker } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  // Polls until the child listens (bounded; no assertion depends on how long it took).
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the child server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/`)).status < 500) return { baseUrl, child, marker };
    } catch { /* not listening yet */ }
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error(`the child server on ${baseUrl} did not answer`);
}

/** Waits until the child reached its pause step (it wrote the marker); answers the step. */
export async function reachedPause(server: ChildServer): Promise<string> {
  for (let i = 0; i < 600; i++) {
    // An empty file would be one still being written: not there yet.
    const step = existsSync(server.marker) ? readFileSync(server.marker, 'utf8') : '';
    if (step !== '') return step;
    if (server.child.exitCode !== null) throw new Error('the child server exited before its pause step');
    await sleep(100);
  }
  throw new Error('the child server never reached its pause step');
}

/** SIGKILL: no handler runs, nothing is flushed or rolled back by the process itself. */
export async function killHard(server: ChildServer): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGKILL');
  await exited;
}

/**
 * SIGTERM, the ordinary stop between the steps of a test: the server gives its claims back, so
 * that only the kills a test means leave claims behind. SIGKILL after a bounded wait.
 */
export async function stopGently(server: ChildServer): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
}
