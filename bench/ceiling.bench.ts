// The ceiling benchmark (npm run bench:ceiling; issue 12, item 2): a bare Node `http` server and
// the hub run side by side as child processes of this one, and autocannon (in this process)
// measures each page of the hub between two runs of the bare server (bare, hub, bare), so that
// the machine's noise moves both alike. It prints the hub's requests/s as a share of the mean
// of the two bare runs around it. The hub runs in production mode (cached templates, no
// auto-seeding), on SQLite and on every PostgreSQL server of BENCH_DATABASE_URLS (default: the
// PostgreSQL entries of TEST_DATABASE_URLS). It prints figures; it asserts nothing.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { freePort } from '../test/support/ports.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { projectPath } from '../src/core/config.ts';
import { createTestDatabase } from '../test/support/databases.ts';
import { TestClient } from '../test/support/client.ts';
// @ts-expect-error: a plain JavaScript module of the scripts folder, without type declarations.
import { buildIsCurrent } from '../scripts/build-state.mjs';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
/** Each page measured this many times (bare, hub, bare each); with more than one, the median share is printed too. */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));
/** Only the pages whose label matches this regular expression (case-insensitive), e.g. BENCH_PAGES='first visit'. */
const PAGES = new RegExp(process.env.BENCH_PAGES ?? '', 'i');

/** What the bare server runs: the smallest useful answer, a short HTML page. */
const BARE_SERVER = `
const http = require('node:http');
const body = Buffer.from('<!doctype html><title>ok</title><p>ok</p>');
http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
  res.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1');
`;


async function waitReady(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status < 500) return;
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server did not become ready');
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

interface Page {
  label: string;
  path: string;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST';
  body?: string;
  /** The status every answer must have; other answers are counted as errors. */
  status: number;
}

async function measure(url: string, headers: Record<string, string> = {}, status = 200, method: 'GET' | 'POST' = 'GET', body?: string): Promise<{ rps: number; bad: number }> {
  let bad = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, headers, method, body, connections: CONNECTIONS, duration: DURATION }, (error, r) => (error ? reject(error) : resolve(r)));
    instance.on('response', (_client: unknown, statusCode: number) => { if (statusCode !== status) bad++; });
  });
  return { rps: result.requests.average, bad: bad + result.errors + result.timeouts };
}

async function startBare(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', BARE_SERVER], { env: { ...process.env, PORT: String(port) }, stdio: 'inherit' });
  const url = `http://127.0.0.1:${port}/`;
  await waitReady(url, child);
  return { url, child };
}

async function startHub(databaseUrl: string): Promise<{ base: string; child: ChildProcess; work: string }> {
  const work = mkdtempSync(join(tmpdir(), 'hub-ceiling-'));
  const port = await freePort();
  const env = {
    ...process.env,
    PORT: String(port), HOST: '127.0.0.1', WORKING_DIR: work, DATABASE_URL: databaseUrl.replace('<work>', work),
    FLASK_ENV: 'production', LOG_LEVEL: 'warn', SECRET_KEY: 'bench-secret-key-long-enough-for-sessions',
    DOMAIN: `127.0.0.1:${port}`, ZENODO_ACCESS_TOKEN: '', HUB_MODULES_FILE: projectPath('modules.json'),
  };
  const [command, ...args] = hubCommand();
  const seed = spawnSync(command!, [...args, 'db:seed', '--reset'], { cwd: projectPath(), env, stdio: 'inherit' });
  if (seed.status !== 0) throw new Error('hub db:seed failed');
  const child = spawn(command!, [...args, 'serve'], { cwd: projectPath(), env, stdio: ['ignore', 'inherit', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  await waitReady(`${base}/`, child);
  return { base, child, work };
}

/** The hub as production runs it: the compiled build when there is one (npm run build), else through tsx. */
function hubCommand(): string[] {
  if (process.env.BENCH_HUB_SOURCE !== '1' && buildIsCurrent()) return [process.execPath, projectPath('build/src/cli/hub.js')];
  return [process.execPath, '--import', 'tsx', projectPath('src/cli/hub.ts')];
}

async function etagOf(url: string): Promise<string> {
  const res = await fetch(url);
  await res.arrayBuffer();
  return res.headers.get('etag') ?? '';
}

async function pagesOf(base: string): Promise<Page[]> {
  // A returning visitor: the session and counting cookies of an earlier visit are sent back.
  const visitor = new TestClient(base);
  const first = await visitor.get('/doi/10.1234/dataset1/');
  if (first.status !== 200) throw new Error(`the DOI page answered ${first.status}`);
  const cookie = [...visitor.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  return [
    { label: 'DOI page, returning visitor (cookies kept)', path: '/doi/10.1234/dataset1/', headers: { cookie }, status: 200 },
    { label: 'DOI page, first visit (no cookies)', path: '/doi/10.1234/dataset1/', status: 200 },
    { label: 'explore page, first visit', path: '/explore', status: 200 },
    { label: 'explore search (POST /explore)', path: '/explore', method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'feature' }), status: 200 },
    { label: '404 page, returning visitor', path: '/no/such/page', headers: { cookie }, status: 404 },
    { label: '404 page, first visit', path: '/no/such/page', status: 404 },
    // A small script, like the bare server's answer (a large file would measure the network path).
    { label: 'static asset /static/js/hub.js', path: '/static/js/hub.js', status: 200 },
    { label: 'static asset, revalidated (If-None-Match: 304)', path: '/static/js/hub.js', headers: { 'if-none-match': await etagOf(`${base}/static/js/hub.js`) }, status: 304 },
  ];
}

async function run(name: string, databaseUrl: string, only?: (p: Page) => boolean): Promise<void> {
  const bare = await startBare();
  const hub = await startHub(databaseUrl);
  try {
    const pages = (await pagesOf(hub.base)).filter((p) => PAGES.test(p.label) && (only ?? (() => true))(p));
    console.log(`\n== hub on ${name}: ${DURATION} s per measurement, ${CONNECTIONS} connections`);
    console.log(`${'page'.padEnd(46)} ${'bare'.padStart(8)} ${'hub'.padStart(8)} ${'bare'.padStart(8)}   share`);
    for (const page of pages) {
      const shares: number[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        const before = await measure(bare.url);
        const hubRun = await measure(hub.base + page.path, page.headers, page.status, page.method, page.body);
        const after = await measure(bare.url);
        const ceiling = (before.rps + after.rps) / 2;
        const share = (100 * hubRun.rps) / ceiling;
        shares.push(share);
        const errors = hubRun.bad > 0 ? `   (${hubRun.bad} unexpected answers)` : '';
        const label = ROUNDS > 1 ? `${page.label} #${round}` : page.label;
        console.log(`${label.padEnd(46)} ${before.rps.toFixed(0).padStart(8)} ${hubRun.rps.toFixed(0).padStart(8)} ${after.rps.toFixed(0).padStart(8)}   ${share.toFixed(1).padStart(5)} %${errors}`);
      }
      if (ROUNDS > 1) {
        const sorted = [...shares].sort((a, b) => a - b);
        console.log(`${'  median of the rounds'.padEnd(46)} ${''.padStart(26)}   ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1).padStart(5)} %`);
      }
    }
  } finally {
    await stop(hub.child);
    await stop(bare.child);
    rmSync(hub.work, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const [command, ...args] = hubCommand();
  console.log(`hub command: ${[command, ...args].map((a) => a.replace(projectPath(), '.')).join(' ')}`);
  await run('SQLite', 'sqlite:<work>/hub.sqlite');
  const servers = (process.env.BENCH_DATABASE_URLS ?? process.env.TEST_DATABASE_URLS ?? '')
    .split(',').map((s) => s.trim()).filter((s) => /^postgres(ql)?:\/\//.test(s));
  for (const server of servers) {
    const database = await createTestDatabase(server);
    try {
      await run(`PostgreSQL (${new URL(server).host})`, database.url, (p) => p.path.startsWith('/doi/') || p.path.startsWith('/explore'));
    } finally {
      await database.drop();
    }
  }
  if (servers.length === 0) console.log('\n(no PostgreSQL server: set BENCH_DATABASE_URLS or TEST_DATABASE_URLS)');
}

await main();
