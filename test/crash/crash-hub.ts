// What every crash test shares: the database and store the child servers run on (seeded once),
// the check that the state is whole, and "time passes" for the claims a killed process left.
// Targets: each database of TEST_DATABASE_URLS on the uploads folder, and PostgreSQL also on the
// test S3 server; with TEST_STORAGE=s3 (CI's second pass, SQLite) every database on S3. So SQLite
// and PostgreSQL each meet both stores across the two passes.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testDialects, createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { startTestServer } from '../support/server.ts';
import { startS3, testStorageIsS3, type TestS3 } from '../support/s3.ts';
import { TestClient } from '../support/client.ts';
import { bearer, createToken, uvlForm } from '../support/api.ts';
import { VALID_UVL } from '../../src/modules/dataset/dataset.test-support.ts';
import { connect, type Db } from '../../src/core/db/connect.ts';
import { loadConfig, projectPath } from '../../src/core/config.ts';
import { createFileStore } from '../../src/core/storage/index.ts';
import type { FileStore } from '../../src/core/storage/file-store.ts';
import type { PauseStep } from '../../src/core/test-pause.ts';
import { killHard, reachedPause, startChild, stopGently, type ChildServer } from './child-server.ts';

const SECRET_KEY = 'crash-test-secret-key-long-enough-for-sessions';

export interface CrashTarget {
  name: string;
  baseUrl: string;
  s3: boolean;
}

export function crashTargets(): CrashTarget[] {
  const targets: CrashTarget[] = [];
  for (const dialect of testDialects()) {
    if (testStorageIsS3()) targets.push({ name: `${dialect.name}, S3`, baseUrl: dialect.baseUrl, s3: true });
    else {
      targets.push({ name: `${dialect.name}, uploads folder`, baseUrl: dialect.baseUrl, s3: false });
      if (dialect.name === 'postgres') targets.push({ name: `${dialect.name}, S3`, baseUrl: dialect.baseUrl, s3: true });
    }
  }
  return targets;
}

export interface CrashHub {
  db: Db;
  store: FileStore;
  /** The running child, if any. */
  running: ChildServer | undefined;
  /** Starts a child on the hub's database and store, paused at `pauseAt` when given (a child still running is killed first). */
  start(pauseAt?: PauseStep): Promise<ChildServer>;
  /** Stops the running child gently (SIGTERM): it gives its claims back. */
  stop(): Promise<void>;
  userId(email: string): Promise<number>;
  loggedIn(email: string): Promise<TestClient>;
  assertConsistent(): Promise<void>;
  letClaimsGoStale(): Promise<void>;
}

/**
 * Registers the hub's setup and teardown in the enclosing describe. `env` adds to the children's
 * environment; it is read in the setup, so it may name what an earlier `before` started.
 */
export function useCrashHub(target: CrashTarget, options: { env?: () => Record<string, string> } = {}): CrashHub {
  let database: TestDatabase;
  let workingDir: string;
  let s3: TestS3 | undefined;
  let env: Record<string, string>;

  const hub: CrashHub = {
    db: undefined as unknown as Db,
    store: undefined as unknown as FileStore,
    running: undefined,
    async start(pauseAt) {
      // A test that failed before its stop left its child: it would keep this process alive.
      if (hub.running) await killHard(hub.running);
      hub.running = await startChild(env, workingDir, pauseAt);
      return hub.running;
    },
    async stop() {
      if (hub.running) await stopGently(hub.running);
      hub.running = undefined;
    },
    userId: async (email) => (await hub.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id,
    async loggedIn(email) {
      const client = new TestClient(hub.running!.baseUrl);
      assert.equal((await client.login(email, '1234')).status, 302);
      await client.get('/dataset/upload');
      return client;
    },
    assertConsistent: () => assertConsistent(hub.db, hub.store),
    letClaimsGoStale: () => letClaimsGoStale(hub.db, hub.store),
  };

  before(async () => {
    database = await createTestDatabase(target.baseUrl);
    workingDir = mkdtempSync(join(tmpdir(), 'hub-crash-'));
    s3 = target.s3 ? await startS3() : undefined;
    env = { DATABASE_URL: database.url, SECRET_KEY, HUB_MODULES_FILE: projectPath('modules.json'), ...s3?.env, ...options.env?.() };
    // Seeded in this process (users user1/user2, sample datasets), then served by children.
    const seeding = await startTestServer({ databaseUrl: database.url, workingDir, seed: true, env });
    await seeding.hub.app.close();
    await seeding.hub.db.destroy();
    hub.db = connect(database.url);
    hub.store = createFileStore(loadConfig({ ...env, WORKING_DIR: workingDir }));
  });
  after(async () => {
    if (hub.running) await killHard(hub.running);
    await hub.db?.destroy();
    await database?.drop();
    await s3?.close();
    if (workingDir) rmSync(workingDir, { recursive: true, force: true });
  });
  return hub;
}

/** Every dataset keeps all its files (as many as its model count), and every file row has its stored file. */
async function assertConsistent(db: Db, store: FileStore): Promise<void> {
  const files = await db.selectFrom('file').innerJoin('feature_model as fm', 'fm.id', 'file.feature_model_id')
    .innerJoin('data_set as ds', 'ds.id', 'fm.data_set_id').select(['file.name', 'file.original_name', 'ds.id as datasetId', 'ds.user_id as userId']).execute();
  for (const f of files) {
    assert.ok(await store.stat(`user_${f.userId}/dataset_${f.datasetId}/${f.name}`), `file ${f.name} of dataset ${f.datasetId} is stored`);
  }
  // No stored file of a dataset without its row (a leftover would block its name). Folders of
  // datasets whose transaction never committed are no dataset's: placement.ts leaves them.
  for (const ds of await db.selectFrom('data_set').select(['id', 'user_id']).execute()) {
    const folder = `user_${ds.user_id}/dataset_${ds.id}/`;
    const named = new Set(files.filter((f) => f.datasetId === ds.id).flatMap((f) => [f.name, f.original_name]));
    for (const object of await store.list(folder)) {
      assert.ok(named.has(object.key.slice(folder.length)), `the stored ${object.key} has its file row`);
    }
  }
  const metrics = await db.selectFrom('data_set as ds').innerJoin('ds_meta_data as md', 'md.id', 'ds.ds_meta_data_id')
    .innerJoin('ds_metrics as mt', 'mt.id', 'md.ds_metrics_id').select(['ds.id', 'mt.number_of_models']).execute();
  for (const m of metrics) {
    const count = files.filter((f) => f.datasetId === m.id).length;
    assert.equal(count, Number(m.number_of_models), `dataset ${m.id} has all its ${m.number_of_models} files`);
  }
  // A deposited DOI is never shown without the concept DOI its deposit gave (they are stored together).
  const published = await db.selectFrom('ds_meta_data').select(['id', 'concept_doi'])
    .where('dataset_doi', 'is not', null).where('deposition_id', 'is not', null).execute();
  for (const p of published) assert.notEqual(p.concept_doi, null, `the published metadata ${p.id} has its concept DOI`);
}

/**
 * Two hours pass for every claim a killed process left (staged files: a minute, an analysis: 90
 * seconds, a deposit: 30 minutes): dated back in the database and in the claim folders' dates.
 */
async function letClaimsGoStale(db: Db, store: FileStore): Promise<void> {
  const longAgo = new Date(Date.now() - 2 * 60 * 60 * 1000).toISOString();
  await db.updateTable('staged_claim').set({ claimed_at: longAgo }).execute();
  for (const object of await store.list('temp/')) {
    if (object.key.endsWith('/.claimed-at')) await store.put(object.key, longAgo);
  }
  await db.updateTable('ds_meta_data').set({ deposit_claimed_at: longAgo }).where('deposit_claimed_at', 'is not', null).execute();
  await db.updateTable('model_analysis').set({ claimed_at: longAgo }).where('status', '=', 'running').execute();
}

/** The names staged for the user (claim folders included, by their prefix). */
export async function stagedNames(store: FileStore, userId: number): Promise<string[]> {
  return (await store.list(`temp/${userId}/`)).map((o) => o.key.slice(`temp/${userId}/`.length));
}

/** Waits until the child reached `step`, kills it there (SIGKILL) and lets the request it was serving end. */
export async function killAtPause(server: ChildServer, step: PauseStep, request: Promise<unknown>): Promise<void> {
  assert.equal(await reachedPause(server), step);
  await killHard(server);
  await request;
}

/** An unsynchronized dataset with one model, made through the API of the running child. */
export async function apiDataset(hub: CrashHub, email: string, name: string): Promise<number> {
  const server = hub.running!;
  const token = await createToken(await hub.loggedIn(email), ['write']);
  const created = await bearer(server.baseUrl, token, 'POST', '/api/v1/datasets/', { name, description: `${name}, made for a crash test` });
  assert.equal(created.status, 201);
  const datasetId = created.json.id as number;
  assert.equal((await bearer(server.baseUrl, token, 'POST', `/api/v1/datasets/${datasetId}/files`, uvlForm('draft.uvl', VALID_UVL))).status, 201);
  return datasetId;
}

/**
 * A new API dataset whose publish from the owner's page is killed at `step`; started again. With
 * `newVersion`, the dataset is published first and the publish killed is its new version's
 * (answered: the new version's id).
 */
export async function killedPublish(hub: CrashHub, step: 'deposit:after-publish' | 'deposit:after-doi', name: string, options: { newVersion?: boolean } = {}): Promise<number> {
  await hub.start();
  let datasetId = await apiDataset(hub, 'user2@example.com', name);
  if (options.newVersion) datasetId = await unsynchronizedVersion(hub, 'user2@example.com', datasetId);
  await hub.stop();
  const server = await hub.start(step);
  const client = await hub.loggedIn('user2@example.com');
  await killAtPause(server, step, client.post(`/dataset/${datasetId}/publish`).catch(() => undefined));
  await hub.start();
  return datasetId;
}

/** Once the dead process's claims are stale, the owner publishes again: answers the stored DOI columns. */
export async function publishAgain(hub: CrashHub, datasetId: number) {
  await hub.letClaimsGoStale();
  const again = await hub.loggedIn('user2@example.com');
  const published = await again.post(`/dataset/${datasetId}/publish`);
  assert.equal(published.status, 200, published.text.slice(0, 300));
  assert.equal(published.json.status, 'ok');
  const stored = await doiOf(hub, datasetId);
  assert.equal(stored.dataset_doi, published.json.doi);
  return stored;
}

/** Publishes the dataset through the API of the running child and opens its new version there. */
async function unsynchronizedVersion(hub: CrashHub, email: string, datasetId: number): Promise<number> {
  const server = hub.running!;
  const token = await createToken(await hub.loggedIn(email), ['write']);
  const published = await bearer(server.baseUrl, token, 'POST', `/api/v1/datasets/${datasetId}/publish`);
  assert.equal(published.json.status, 'ok', JSON.stringify(published.json));
  const version = await bearer(server.baseUrl, token, 'POST', `/api/v1/datasets/${datasetId}/versions`, {});
  assert.equal(version.status, 201, JSON.stringify(version.json));
  return version.json.dataset_id as number;
}

export async function doiOf(hub: CrashHub, datasetId: number) {
  return hub.db.selectFrom('data_set as ds').innerJoin('ds_meta_data as md', 'md.id', 'ds.ds_meta_data_id')
    .select(['md.dataset_doi', 'md.concept_doi', 'md.deposit_claimed_at', 'md.deposition_id', 'md.pending_deposition_id']).where('ds.id', '=', datasetId).executeTakeFirstOrThrow();
}
