// The ceiling benchmark (npm run bench:ceiling; issue 12, item 2): a bare Node `http` server and
// the hub run side by side as child processes of this one, and autocannon (in this process)
// measures each page of the hub between two runs of the bare server (bare, hub, bare), so that
// the machine's noise moves both alike. It prints the hub's requests/s as a share of the mean
// of the two bare runs around it. The hub runs in production mode (cached templates, no
// auto-seeding), on SQLite and on every PostgreSQL server of BENCH_DATABASE_URLS (default: the
// PostgreSQL entries of TEST_DATABASE_URLS). It prints figures; it asserts nothing.
// BENCH_BASE_DIR=<another checkout, built>: that checkout's hub (say, the commit before a change)
// runs too, and each page is measured in alternation, bare, base, bare, this, bare, for three
// rounds (BENCH_ROUNDS), with the median share of both; the two compare within the same minutes.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { freePort } from '../test/support/ports.ts';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { projectPath } from '../src/core/config.ts';
import { createTestDatabase } from '../test/support/databases.ts';
import { TestClient } from '../test/support/client.ts';
// @ts-expect-error: a plain JavaScript module of the scripts folder, without type declarations.
import { buildIsCurrent } from '../scripts/build-state.mjs';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
/** Each page measured this many times (bare, hub, bare each; 3 by default with BENCH_BASE_DIR); with more than one, the median share is printed too. */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? (process.env.BENCH_BASE_DIR ? 3 : 1)));
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

/** A checkout whose hub is measured: this one, or the base of BENCH_BASE_DIR. */
interface Checkout {
  name: string;
  dir: string;
}

const THIS_CHECKOUT: Checkout = { name: 'hub', dir: projectPath() };
/** BENCH_BASE_DIR: another checkout (built with npm run build) measured in alternation with this one. */
const BASE_CHECKOUT: Checkout | undefined = process.env.BENCH_BASE_DIR ? { name: 'base', dir: resolve(process.env.BENCH_BASE_DIR) } : undefined;

async function startHub(checkout: Checkout, databaseUrl: string): Promise<{ base: string; child: ChildProcess; work: string }> {
  const work = mkdtempSync(join(tmpdir(), 'hub-ceiling-'));
  const port = await freePort();
  const env = {
    ...process.env,
    PORT: String(port), HOST: '127.0.0.1', WORKING_DIR: work, DATABASE_URL: databaseUrl.replace('<work>', work),
    FLASK_ENV: 'production', LOG_LEVEL: 'warn', SECRET_KEY: 'bench-secret-key-long-enough-for-sessions',
    DOMAIN: `127.0.0.1:${port}`, ZENODO_ACCESS_TOKEN: '', HUB_MODULES_FILE: join(checkout.dir, 'modules.json'),
  };
  const [command, ...args] = hubCommand(checkout);
  const seed = spawnSync(command!, [...args, 'db:seed', '--reset'], { cwd: checkout.dir, env, stdio: 'inherit' });
  if (seed.status !== 0) throw new Error('hub db:seed failed');
  const child = spawn(command!, [...args, 'serve'], { cwd: checkout.dir, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  await waitReady(`${base}/`, child);
  return { base, child, work };
}

/**
 * The hub as production runs it: the compiled build when there is one (npm run build), else
 * through tsx. The base checkout's build is used whenever it exists (build it there first).
 */
function hubCommand(checkout: Checkout): string[] {
  const built = checkout === THIS_CHECKOUT ? buildIsCurrent() : existsSync(join(checkout.dir, 'build/src/cli/hub.js'));
  if (process.env.BENCH_HUB_SOURCE !== '1' && built) return [process.execPath, join(checkout.dir, 'build/src/cli/hub.js')];
  return [process.execPath, '--import', 'tsx', join(checkout.dir, 'src/cli/hub.ts')];
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

type Started = Awaited<ReturnType<typeof startHub>>;

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const cell = (value: number, width = 8): string => value.toFixed(0).padStart(width);
const percent = (value: number): string => `${value.toFixed(1).padStart(5)} %`;

/** One page of one hub between two runs of the bare server: its share of their mean. */
async function shareOf(bareUrl: string, hub: Started, page: Page, before?: number): Promise<{ before: number; rps: number; after: number; share: number; bad: number }> {
  const first = before ?? (await measure(bareUrl)).rps;
  const hubRun = await measure(hub.base + page.path, page.headers, page.status, page.method, page.body);
  const after = (await measure(bareUrl)).rps;
  return { before: first, rps: hubRun.rps, after, share: (100 * hubRun.rps) / ((first + after) / 2), bad: hubRun.bad };
}

/** This checkout's hub alone: bare, hub, bare for each page and round. */
async function runOne(bareUrl: string, hub: Started, pages: Page[]): Promise<void> {
  console.log(`${'page'.padEnd(46)} ${'bare'.padStart(8)} ${'hub'.padStart(8)} ${'bare'.padStart(8)}   share`);
  for (const page of pages) {
    const shares: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const m = await shareOf(bareUrl, hub, page);
      shares.push(m.share);
      const errors = m.bad > 0 ? `   (${m.bad} unexpected answers)` : '';
      const label = ROUNDS > 1 ? `${page.label} #${round}` : page.label;
      console.log(`${label.padEnd(46)} ${cell(m.before)} ${cell(m.rps)} ${cell(m.after)}   ${percent(m.share)}${errors}`);
    }
    if (ROUNDS > 1) console.log(`${'  median of the rounds'.padEnd(46)} ${''.padStart(26)}   ${percent(median(shares))}`);
  }
}

/**
 * BENCH_BASE_DIR: the base checkout's hub and this one in alternation, each between two runs of
 * the bare server (bare, base, bare, this, bare, base, …), the bare run between them shared, for
 * BENCH_ROUNDS rounds (default 3), then the median share of each.
 */
async function runAlternating(bareUrl: string, base: Started, hub: Started, pages: { base: Page; hub: Page }[]): Promise<void> {
  console.log(`${'page'.padEnd(46)} ${'bare'.padStart(7)} ${'base'.padStart(7)} ${'bare'.padStart(7)} ${'this'.padStart(7)} ${'bare'.padStart(7)}    base     this`);
  for (const page of pages) {
    const baseShares: number[] = [];
    const hubShares: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const b = await shareOf(bareUrl, base, page.base);
      const h = await shareOf(bareUrl, hub, page.hub, b.after);
      baseShares.push(b.share);
      hubShares.push(h.share);
      const bad = b.bad + h.bad > 0 ? `   (${b.bad} / ${h.bad} unexpected answers)` : '';
      console.log(`${`${page.hub.label} #${round}`.padEnd(46)} ${cell(b.before, 7)} ${cell(b.rps, 7)} ${cell(b.after, 7)} ${cell(h.rps, 7)} ${cell(h.after, 7)}  ${percent(b.share)}  ${percent(h.share)}${bad}`);
    }
    console.log(`${'  median of the rounds'.padEnd(46)} ${''.padStart(39)}  ${percent(median(baseShares))}  ${percent(median(hubShares))}`);
  }
}

async function run(name: string, databaseUrls: { base?: string; hub: string }, only?: (p: Page) => boolean): Promise<void> {
  const bare = await startBare();
  const started: Started[] = [];
  try {
    const hub = await startHub(THIS_CHECKOUT, databaseUrls.hub);
    started.push(hub);
    const select = (p: Page) => PAGES.test(p.label) && (only ?? (() => true))(p);
    const pages = (await pagesOf(hub.base)).filter(select);
    console.log(`\n== hub on ${name}: ${DURATION} s per measurement, ${CONNECTIONS} connections`);
    if (BASE_CHECKOUT === undefined || databaseUrls.base === undefined) return await runOne(bare.url, hub, pages);
    const base = await startHub(BASE_CHECKOUT, databaseUrls.base);
    started.push(base);
    // Each hub's own returning visitor (its cookies) and asset revalidation (its ETag).
    const basePages = (await pagesOf(base.base)).filter(select);
    await runAlternating(bare.url, base, hub, pages.map((page, i) => ({ hub: page, base: basePages[i]! })));
  } finally {
    for (const hub of started) {
      await stop(hub.child);
      rmSync(hub.work, { recursive: true, force: true });
    }
    await stop(bare.child);
  }
}

async function main(): Promise<void> {
  for (const checkout of [THIS_CHECKOUT, ...(BASE_CHECKOUT ? [BASE_CHECKOUT] : [])]) {
    const [command, ...args] = hubCommand(checkout);
    console.log(`${checkout.name} command: ${[command, ...args].join(' ')}`);
  }
  await run('SQLite', { hub: 'sqlite:<work>/hub.sqlite', base: 'sqlite:<work>/hub.sqlite' });
  const servers = (process.env.BENCH_DATABASE_URLS ?? process.env.TEST_DATABASE_URLS ?? '')
    .split(',').map((s) => s.trim()).filter((s) => /^postgres(ql)?:\/\//.test(s));
  for (const server of servers) {
    const databases = [await createTestDatabase(server)];
    try {
      if (BASE_CHECKOUT) databases.push(await createTestDatabase(server));
      await run(`PostgreSQL (${new URL(server).host})`, { hub: databases[0]!.url, base: databases[1]?.url }, (p) => p.path.startsWith('/doi/') || p.path.startsWith('/explore'));
    } finally {
      for (const database of databases) await database.drop();
    }
  }
  if (servers.length === 0) console.log('\n(no PostgreSQL server: set BENCH_DATABASE_URLS or TEST_DATABASE_URLS)');
}

await main();
