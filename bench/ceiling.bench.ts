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
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
/** Seconds each hub serves a page, unmeasured, before its rounds. */
const WARM_UP = Math.max(1, Math.round(DURATION / 3));
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

/**
 * CPU time (user and system, ms) the process has used so far, read from /proc; undefined where
 * there is none. Per request it stays meaningful on a machine that others load, where requests/s
 * do not: a server that waits for the processor serves fewer requests but spends the same on each.
 */
function cpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, in clock ticks (USER_HZ, 100 a second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

interface Measured {
  rps: number;
  bad: number;
  /** The server's CPU time per answered request (µs), when /proc tells. */
  cpuUs?: number;
}

async function measure(url: string, pid: number | undefined, page: Partial<Page> = {}): Promise<Measured> {
  const { headers = {}, status = 200, method = 'GET', body } = page;
  let bad = 0;
  const cpuBefore = cpuMs(pid);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, headers, method, body, connections: CONNECTIONS, duration: DURATION }, (error, r) => (error ? reject(error) : resolve(r)));
    instance.on('response', (_client: unknown, statusCode: number) => { if (statusCode !== status) bad++; });
  });
  const cpuAfter = cpuMs(pid);
  const cpuUs = cpuBefore !== undefined && cpuAfter !== undefined && result.requests.total > 0 ? ((cpuAfter - cpuBefore) * 1000) / result.requests.total : undefined;
  return { rps: result.requests.average, bad: bad + result.errors + result.timeouts, cpuUs };
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

type Bare = Awaited<ReturnType<typeof startBare>>;

interface Share {
  before: Measured;
  hub: Measured;
  after: Measured;
  /** Requests/s as a share of the mean of the bare runs around. */
  share: number;
  /** The bare server's CPU time per request as a share of the hub's (when /proc tells). */
  cpuShare?: number;
}

/** One page of one hub between two runs of the bare server: its share of their mean. */
async function shareOf(bare: Bare, hub: Started, page: Page, before?: Measured): Promise<Share> {
  const first = before ?? await measure(bare.url, bare.child.pid);
  const hubRun = await measure(hub.base + page.path, hub.child.pid, page);
  const after = await measure(bare.url, bare.child.pid);
  const bareCpu = first.cpuUs !== undefined && after.cpuUs !== undefined ? (first.cpuUs + after.cpuUs) / 2 : undefined;
  return {
    before: first, hub: hubRun, after,
    share: (100 * hubRun.rps) / ((first.rps + after.rps) / 2),
    cpuShare: bareCpu !== undefined && hubRun.cpuUs ? (100 * bareCpu) / hubRun.cpuUs : undefined,
  };
}

const cpuCell = (m: Share): string => `${(m.hub.cpuUs === undefined ? '-' : m.hub.cpuUs.toFixed(0)).padStart(6)} ${(m.cpuShare === undefined ? '-' : m.cpuShare.toFixed(1)).padStart(5)} %`;
const medianOf = (values: (number | undefined)[], digits: number): string => {
  const known = values.filter((v): v is number => v !== undefined);
  return known.length === 0 ? '-' : median(known).toFixed(digits);
};

/** Each hub serves the page for a while, unmeasured, before its first round: the rounds compare compiled code, not the compiler. */
async function warmUp(hub: Started, page: Page): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    autocannon({ url: hub.base + page.path, headers: page.headers, method: page.method ?? 'GET', body: page.body, connections: CONNECTIONS, duration: WARM_UP },
      (error) => (error ? reject(error) : resolve()));
  });
}

/** This checkout's hub alone: bare, hub, bare for each page and round. */
async function runOne(bare: Bare, hub: Started, pages: Page[]): Promise<void> {
  console.log(`${'page'.padEnd(46)} ${'bare'.padStart(8)} ${'hub'.padStart(8)} ${'bare'.padStart(8)}   share   cpu µs/req  cpu share`);
  for (const page of pages) {
    await warmUp(hub, page);
    const shares: Share[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const m = await shareOf(bare, hub, page);
      shares.push(m);
      const errors = m.hub.bad > 0 ? `   (${m.hub.bad} unexpected answers)` : '';
      const label = ROUNDS > 1 ? `${page.label} #${round}` : page.label;
      console.log(`${label.padEnd(46)} ${cell(m.before.rps)} ${cell(m.hub.rps)} ${cell(m.after.rps)}   ${percent(m.share)}   ${cpuCell(m)}${errors}`);
    }
    if (ROUNDS > 1) {
      console.log(`${'  median of the rounds'.padEnd(46)} ${''.padStart(26)}   ${percent(median(shares.map((m) => m.share)))}   ${medianOf(shares.map((m) => m.hub.cpuUs), 0).padStart(6)} ${medianOf(shares.map((m) => m.cpuShare), 1).padStart(5)} %`);
    }
  }
}

/**
 * BENCH_BASE_DIR: the base checkout's hub and this one in alternation, each between two runs of
 * the bare server (bare, base, bare, this, bare, base, …), the bare run between them shared, for
 * BENCH_ROUNDS rounds (default 3), then the median share of each, by requests/s and by CPU time
 * per request (the bare server's as a share of the hub's).
 */
async function runAlternating(bare: Bare, base: Started, hub: Started, pages: { base: Page; hub: Page }[]): Promise<void> {
  console.log(`${'page'.padEnd(46)} ${'bare'.padStart(7)} ${'base'.padStart(7)} ${'bare'.padStart(7)} ${'this'.padStart(7)} ${'bare'.padStart(7)}    base     this   base cpu µs/req, share   this cpu µs/req, share`);
  for (const page of pages) {
    await warmUp(base, page.base);
    await warmUp(hub, page.hub);
    const rounds: { b: Share; h: Share }[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const b = await shareOf(bare, base, page.base);
      const h = await shareOf(bare, hub, page.hub, b.after);
      rounds.push({ b, h });
      const bad = b.hub.bad + h.hub.bad > 0 ? `   (${b.hub.bad} / ${h.hub.bad} unexpected answers)` : '';
      console.log(`${`${page.hub.label} #${round}`.padEnd(46)} ${cell(b.before.rps, 7)} ${cell(b.hub.rps, 7)} ${cell(b.after.rps, 7)} ${cell(h.hub.rps, 7)} ${cell(h.after.rps, 7)}  ${percent(b.share)}  ${percent(h.share)}   ${cpuCell(b).padStart(22)}   ${cpuCell(h).padStart(22)}${bad}`);
    }
    const of = (pick: (r: { b: Share; h: Share }) => number | undefined, digits = 1) => medianOf(rounds.map(pick), digits);
    console.log(`${'  median of the rounds'.padEnd(46)} ${''.padStart(39)}  ${percent(median(rounds.map((r) => r.b.share)))}  ${percent(median(rounds.map((r) => r.h.share)))}   ${`${of((r) => r.b.hub.cpuUs, 0).padStart(6)} ${of((r) => r.b.cpuShare).padStart(5)} %`.padStart(22)}   ${`${of((r) => r.h.hub.cpuUs, 0).padStart(6)} ${of((r) => r.h.cpuShare).padStart(5)} %`.padStart(22)}`);
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
    if (BASE_CHECKOUT === undefined || databaseUrls.base === undefined) return await runOne(bare, hub, pages);
    const base = await startHub(BASE_CHECKOUT, databaseUrls.base);
    started.push(base);
    // Each hub's own returning visitor (its cookies) and asset revalidation (its ETag).
    const basePages = (await pagesOf(base.base)).filter(select);
    await runAlternating(bare, base, hub, pages.map((page, i) => ({ hub: page, base: basePages[i]! })));
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
