// A real hub on an ephemeral port over a fresh database, for HTTP-level tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { buildApp, type Hub } from '../../src/app/app.ts';
import { loadConfig, projectPath } from '../../src/core/config.ts';
import { connect } from '../../src/core/db/connect.ts';
import { runSeeders } from '../../src/core/modules.ts';
import { createTestDatabase, type TestDatabase } from './databases.ts';
import { startS3, testStorageIsS3, type TestS3 } from './s3.ts';

export interface TestServer {
  baseUrl: string;
  hub: Hub;
  database: TestDatabase;
  workingDir: string;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Base URL of the database server (from testDialects()); default SQLite. */
  databaseBaseUrl?: string;
  /** An existing database URL to share (several instances on one database). */
  databaseUrl?: string;
  /** Module names; default: every module of modules.json's base list plus development. */
  modules?: string[];
  /** Extra environment for loadConfig (FLASK_ENV, WEBHOOK_TOKEN, ZENODO_API_URL, …). */
  env?: Record<string, string>;
  /** Run every module's seeders (users, sample datasets). */
  seed?: boolean;
  /** Working directory (uploads); default a fresh temporary folder. */
  workingDir?: string;
  /** Called with the SQL of every query the hub runs. */
  onQuery?: (sql: string) => void;
  /** The hub opens DATABASE_URL itself and closes it with the app, as in production (no onQuery then). */
  hubOwnsDatabase?: boolean;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const database = options.databaseUrl
    ? { dialect: 'sqlite' as const, url: options.databaseUrl, drop: async () => {} }
    : await createTestDatabase(options.databaseBaseUrl ?? 'sqlite:');
  const ownsWorkingDir = !options.workingDir;
  const workingDir = options.workingDir ?? mkdtempSync(join(tmpdir(), 'hub-work-'));
  // With TEST_STORAGE=s3 (the second pass of `npm test`) each server gets a fresh bucket on its own
  // test S3 server, unless the test names a store itself.
  const wantsS3 = testStorageIsS3() && options.env?.STORAGE_URL === undefined;
  const s3: TestS3 | undefined = wantsS3 ? await startS3() : undefined;
  const config = loadConfig({
    WORKING_DIR: workingDir,
    DATABASE_URL: database.url,
    SECRET_KEY: 'test-secret-key-that-is-long-enough-for-sessions',
    HUB_MODULES_FILE: projectPath('modules.json'),
    LOG_LEVEL: 'warn',
    ...s3?.env,
    ...options.env,
  });
  const db = options.hubOwnsDatabase ? undefined : connect(database.url, { onQuery: options.onQuery });
  const hub = await buildApp(config, { db, modules: options.modules, logger: false });
  if (options.seed) await runSeeders(hub.ctx, hub.modules);
  await hub.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = hub.app.server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    hub,
    database,
    workingDir,
    async close() {
      await hub.app.close();
      await db?.destroy();
      await database.drop();
      await s3?.close();
      if (ownsWorkingDir) rmSync(workingDir, { recursive: true, force: true });
    },
  };
}
