// A seeded hub over a fresh SQLite file whose request log is kept in memory, with the app's own
// logger settings (its redactions included): for tests that read what the logs say.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { buildApp, type Hub } from '../../src/app/app.ts';
import { loadConfig, projectPath } from '../../src/core/config.ts';
import { LOG_REDACTIONS } from '../../src/core/http/server-options.ts';
import { runSeeders } from '../../src/core/modules.ts';

export interface LoggedHub {
  hub: Hub;
  baseUrl: string;
  /** The log lines written so far, one JSON object each. */
  lines: string[];
  close(): Promise<void>;
}

/** `level`: the logger's level (trace for everything); `dirPrefix`: the temporary folder's name. */
export async function startLoggedHub(level: string, dirPrefix: string): Promise<LoggedHub> {
  const dir = mkdtempSync(join(tmpdir(), dirPrefix));
  const lines: string[] = [];
  const stream = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } });
  const config = loadConfig({ WORKING_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'hub.sqlite')}`, HUB_MODULES_FILE: projectPath('modules.json'), SECRET_KEY: 's'.repeat(40) });
  const hub = await buildApp(config, { logger: { level, stream, redact: LOG_REDACTIONS } });
  const close = async () => {
    await hub.app.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await runSeeders(hub.ctx, hub.modules);
    await hub.app.listen({ port: 0, host: '127.0.0.1' });
  } catch (error) {
    await close();
    throw error;
  }
  return { hub, baseUrl: `http://127.0.0.1:${(hub.app.server.address() as AddressInfo).port}`, lines, close };
}
