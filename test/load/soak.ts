// Soak run (issue 26, item 3): `npm run soak`. Two hub instances (child processes, production
// settings) on one PostgreSQL database and one S3 store (the test S3 server, s3rver), under a
// fixed-rate mixed workload for a set time: sign-ups and logins, uploads through the page and
// the API, publishes (to the fake Zenodo server), DOI page views and downloads by many new
// visitors, explore searches with model filters, analyses. Everything on loopback addresses.
// Prints requests, errors and p50/p95/p99 latency by kind, then checks that no confirmed upload
// is missing, that every view and download count equals what was sent, and that each instance's
// memory (RSS after a garbage collection, memory-probe.mjs) grew by less than 10 % after warm-up.
// Exits 1 when a check fails or a request failed.
//
//   SOAK_SECONDS       length of the run (default 600)
//   SOAK_RATE          multiplies every rate of the workload (default 1: about 14 operations a second)
//   SOAK_DATABASE_URL  the database server to create the run's database on (default the first
//                      PostgreSQL of TEST_DATABASE_URLS, else postgres://postgres@127.0.0.1:5432/postgres;
//                      `sqlite:` runs both instances on one SQLite file)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { projectPath } from '../../src/core/config.ts';
import { createTestDatabase } from '../support/databases.ts';
import { startFakeZenodo } from '../support/fake-zenodo.ts';
import { freePort } from '../support/ports.ts';
import { startS3 } from '../support/s3.ts';
import { startTestServer } from '../support/server.ts';
import {
  ProxiedClient, Stats, analysis, createToken, download, explore, login, publish, signUp, uploadThroughApi, uploadThroughPage, viewDoi,
  type Account, type Ledger,
} from './soak.workload.ts';
import { checkCounts, checkMemory, checkUploads, memoryWindows, readCounts, type Counts, type MemorySamples } from './soak.checks.ts';

const seconds = Number(process.env.SOAK_SECONDS ?? 600);
const rate = Number(process.env.SOAK_RATE ?? 1);
const databaseBase = process.env.SOAK_DATABASE_URL
  ?? (process.env.TEST_DATABASE_URLS ?? '').split(',').map((u) => u.trim()).find((u) => u.startsWith('postgres'))
  ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** Operations started but not finished at most; past it an operation is not sent (reported). */
const MAX_IN_FLIGHT = 200;

interface Instance {
  baseUrl: string;
  child: ChildProcess;
  dir: string;
  /** Where memory-probe.mjs writes the memory after each collection asked for. */
  probeFile: string;
}

async function startInstance(env: Record<string, string>): Promise<Instance> {
  const dir = mkdtempSync(join(tmpdir(), 'hub-soak-'));
  const port = await freePort();
  const probeFile = join(dir, 'memory-probe.json');
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', '--import', './test/load/memory-probe.mjs', 'src/app/server.ts'], {
    cwd: projectPath(),
    env: {
      ...process.env, ...env, FLASK_ENV: 'production', WORKING_DIR: dir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn',
      MEMORY_PROBE_FILE: probeFile,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`an instance exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/`)).ok) return { baseUrl, child, dir, probeFile };
    } catch { /* not listening yet */ }
    await sleep(100);
  }
  throw new Error(`the instance on ${baseUrl} did not answer within 30 s`);
}

async function stopInstance(instance: Instance): Promise<void> {
  if (instance.child.exitCode === null) {
    const exited = new Promise((resolve) => instance.child.once('exit', resolve));
    instance.child.kill('SIGTERM');
    await exited;
  }
  rmSync(instance.dir, { recursive: true, force: true });
}

type Probe = { probe: number; rssKib: number; heapKib: number; workers: number };

const readProbe = (file: string): Probe | undefined => {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Probe;
  } catch {
    return undefined;
  }
};

/** An instance's memory after a collection of its threads (memory-probe.mjs answers SIGUSR2). */
async function probeMemory(instance: Instance): Promise<Probe> {
  const before = readProbe(instance.probeFile)?.probe ?? 0;
  instance.child.kill('SIGUSR2');
  for (let i = 0; i < 250; i++) {
    await sleep(20);
    const probe = readProbe(instance.probeFile);
    if (probe && probe.probe > before) return probe;
  }
  throw new Error(`the instance on ${instance.baseUrl} did not answer its memory probe within 5 s`);
}

/** Accounts with write tokens and logged-in page clients, two on each instance. */
async function prepareAccounts(instances: Instance[], stats: Stats, ledger: Ledger): Promise<{ client: ProxiedClient; account: Account }[][]> {
  const uploaders: { client: ProxiedClient; account: Account }[][] = instances.map(() => []);
  for (const [i, instance] of instances.entries()) {
    for (let k = 0; k < 2; k++) {
      const client = await signUp(instance.baseUrl, stats, ledger);
      if (!client) throw new Error(`signing up on ${instance.baseUrl} failed: ${stats.samples.join('; ')}`);
      const account = ledger.accounts.at(-1)!;
      await createToken(client, stats, account);
      if (!account.token) throw new Error(`no token for ${account.email}: ${stats.samples.join('; ')}`);
      await client.get('/dataset/upload');
      uploaders[i]!.push({ client, account });
    }
  }
  return uploaders;
}

interface Kind {
  perSecond: number;
  run: (instance: number, n: number) => Promise<void>;
}

function workload(instances: Instance[], stats: Stats, ledger: Ledger, uploaders: { client: ProxiedClient; account: Account }[][]): Kind[] {
  const url = (i: number) => instances[i]!.baseUrl;
  return [
    { perSecond: 6, run: (i, n) => viewDoi(url(i), stats, ledger, n) },
    { perSecond: 3, run: (i, n) => download(url(i), stats, ledger, n) },
    { perSecond: 2, run: (i, n) => explore(url(i), stats, n) },
    { perSecond: 1.5, run: (i, n) => analysis(url(i), stats, ledger, n) },
    { perSecond: 0.3, run: (i, n) => login(url(i), stats, ledger, n) },
    { perSecond: 0.1, run: async (i) => { await signUp(url(i), stats, ledger); } },
    { perSecond: 0.2, run: (i, n) => { const u = uploaders[i]![n % uploaders[i]!.length]!; return uploadThroughPage(u.client, stats, ledger, u.account); } },
    { perSecond: 0.2, run: (i, n) => uploadThroughApi(url(i), stats, ledger, n) },
    { perSecond: 0.1, run: (i) => publish(url(i), stats, ledger) },
  ];
}

/**
 * Every kind of operation a few times on each instance before the measured run: the code paths
 * compiled, the caches and the analysis workers started, so memory after warm-up is a fair base.
 */
async function warmUp(kinds: Kind[], instances: Instance[]): Promise<void> {
  for (let round = 0; round < 3; round++) {
    for (const kind of kinds) for (let i = 0; i < instances.length; i++) await kind.run(i, round * instances.length + i);
  }
}

/**
 * Each instance's memory after a collection, every second within the two windows the memory
 * check compares (a collection every second throughout would slow the run it measures).
 */
async function sampleMemory(instances: Instance[], started: number, done: () => boolean): Promise<MemorySamples> {
  const memory: MemorySamples = instances.map(() => []);
  const { warmUp, window } = memoryWindows(seconds);
  for (let next = 0; !done(); next++) {
    await sleep(Math.max(0, started + next * 1000 - performance.now()));
    const at = (performance.now() - started) / 1000;
    if (done() || at >= seconds) break;
    if (!(at >= warmUp && at < warmUp + window) && !(at >= seconds - window)) continue;
    const probes = await Promise.all(instances.map(probeMemory));
    for (const [i, probe] of probes.entries()) memory[i]!.push({ at, kib: probe.rssKib, heapKib: probe.heapKib, workers: probe.workers });
  }
  return memory;
}

/** Runs the workload at its fixed rates for `seconds`, sampling each instance's memory meanwhile. */
async function drive(kinds: Kind[], instances: Instance[]): Promise<{ notSent: number; memory: MemorySamples }> {
  const started = performance.now();
  const issued = kinds.map(() => 0);
  const inFlight = new Set<Promise<void>>();
  let notSent = 0;
  let finished = false;
  const sampling = sampleMemory(instances, started, () => finished);
  for (;;) {
    const elapsed = (performance.now() - started) / 1000;
    if (elapsed >= seconds) break;
    for (const [k, kind] of kinds.entries()) {
      const due = Math.floor(elapsed * kind.perSecond * rate);
      for (; issued[k]! < due; issued[k]!++) {
        if (inFlight.size >= MAX_IN_FLIGHT) {
          notSent++;
          continue;
        }
        const n = issued[k]!;
        const operation: Promise<void> = kind.run(n % instances.length, n).finally(() => inFlight.delete(operation));
        inFlight.add(operation);
      }
    }
    await sleep(20);
  }
  finished = true;
  await Promise.all(inFlight);
  return { notSent, memory: await sampling };
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

async function main(): Promise<number> {
  const s3 = await startS3('soak');
  const zenodo = await startFakeZenodo();
  const database = await createTestDatabase(databaseBase);
  const env = {
    ...s3.env, DATABASE_URL: database.url, ZENODO_API_URL: zenodo.url, ZENODO_ACCESS_TOKEN: zenodo.token,
    SECRET_KEY: 'soak-secret-key-long-enough-for-the-sessions',
  };
  const instances: Instance[] = [];
  try {
    console.log(`Soak: ${seconds} s, rate x${rate}, two instances on ${database.dialect} and ${s3.env.STORAGE_URL} (${s3.endpoint}).`);
    const seeding = await startTestServer({ databaseUrl: database.url, seed: true, env });
    await seeding.close();
    instances.push(await startInstance(env), await startInstance(env));
    const stats = new Stats();
    const ledger: Ledger = {
      accounts: [], uploads: [], publishable: [], dois: new Map(), datasetIds: [], fileIds: [],
      viewsSent: new Map(), zipDownloadsSent: new Map(), fileDownloadsSent: new Map(),
    };
    const before: Counts = await readCounts(database.url, ledger);
    const uploaders = await prepareAccounts(instances, stats, ledger);
    const kinds = workload(instances, stats, ledger, uploaders);
    await warmUp(kinds, instances);
    const { notSent, memory } = await drive(kinds, instances);

    console.log(`\nRequests, warm-up included:\n${table(['requests by kind', 'requests', 'errors', 'p50', 'p95', 'p99'], stats.rows())}`);
    if (notSent > 0) console.log(`${notSent} operations not sent: ${MAX_IN_FLIGHT} were already in flight`);
    for (const sample of stats.samples) console.log(`  error: ${sample}`);
    const checks = [
      await checkUploads(instances.map((i) => i.baseUrl), ledger, env),
      await checkCounts(database.url, ledger, before),
      checkMemory(memory, seconds),
    ];
    console.log('');
    for (const check of checks) console.log(`${check.ok ? 'ok  ' : 'FAIL'} ${check.message}`);
    const failed = checks.filter((c) => !c.ok).length + (stats.totalErrors() > 0 ? 1 : 0);
    console.log(failed === 0 ? '\nSoak passed.' : `\nSoak failed: ${stats.totalErrors()} request errors, ${checks.filter((c) => !c.ok).length} failed checks.`);
    return failed === 0 ? 0 : 1;
  } finally {
    for (const instance of instances) await stopInstance(instance);
    await zenodo.close();
    await s3.close();
    await database.drop();
  }
}

process.exitCode = await main();
