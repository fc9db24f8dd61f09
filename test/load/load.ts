// Load test (issue 5): `npm run load`. Drives a mix of anonymous and logged-in visitors
// with autocannon, each scenario bounded in time and in request count, and prints
// requests per second, p50/p99 latency and errors per scenario.
//
//   LOAD_TARGET        base URL of a running hub; default: start one (`npm start` in a child process,
//                      so that the load generator does not share its event loop) on a seeded SQLite database
//   LOAD_SECONDS       seconds per scenario (default 5)
//   LOAD_CONNECTIONS   concurrent connections per scenario (default 10)
//   LOAD_MAX_REQUESTS  requests per scenario at most (default 20000)
//   LOAD_SYNTHETIC     synthetic datasets added to the self-started hub (default 1000)
//   LOAD_EMAIL / LOAD_PASSWORD  the account of the logged-in visitors (default the seeded user1)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { freePort } from '../support/ports.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon, { type Request as CannonRequest, type Result } from 'autocannon';
import { startTestServer } from '../support/server.ts';
import { projectPath } from '../../src/core/config.ts';
import { seedSynthetic } from '../../src/modules/explore/explore.synthetic.ts';

const seconds = Number(process.env.LOAD_SECONDS ?? 5);
const connections = Number(process.env.LOAD_CONNECTIONS ?? 10);
const maxRequests = Number(process.env.LOAD_MAX_REQUESTS ?? 20000);
const email = process.env.LOAD_EMAIL ?? 'user1@example.com';
const password = process.env.LOAD_PASSWORD ?? '1234';

interface Scenario {
  name: string;
  requests: CannonRequest[];
  /** Requests that need a logged-in session carry its cookie. */
  loggedIn?: boolean;
  /** Fewer connections for expensive requests (password hashing). */
  connections?: number;
}

const json = { 'content-type': 'application/json' };
const SEARCH_WORDS = ['sample', 'automotive', 'robotics model', 'josé', 'uvl', 'zzz-no-match', 'a', 'product line'];

async function discover(baseUrl: string): Promise<{ dois: string[]; fileIds: number[]; datasetIds: number[] }> {
  const res = await fetch(`${baseUrl}/explore`, { method: 'POST', headers: json, body: JSON.stringify({ sorting: 'newest', limit: 200 }) });
  if (!res.ok) throw new Error(`POST /explore answered ${res.status}: is explore enabled on ${baseUrl}?`);
  const results = await res.json() as { dataset_doi: string; id: number; files: { id: number }[] }[];
  const candidates = results.flatMap((r) => r.files.map((f) => ({ file: f.id, dataset: r.id })));
  const fileIds: number[] = [];
  const datasetIds = new Set<number>();
  // Synthetic datasets have file rows but no bytes on disk: keep the files that really serve.
  for (const { file, dataset } of candidates) {
    if (fileIds.length >= 12) break;
    if ((await fetch(`${baseUrl}/file/view/${file}`)).ok) {
      fileIds.push(file);
      datasetIds.add(dataset);
    }
  }
  return { dois: results.slice(0, 20).map((r) => r.dataset_doi), fileIds, datasetIds: [...datasetIds] };
}

function scenarios(found: Awaited<ReturnType<typeof discover>>): Scenario[] {
  const searches = SEARCH_WORDS.map((query, i): CannonRequest => ({
    method: 'POST', path: '/explore', headers: json,
    body: JSON.stringify({ query, sorting: i % 2 ? 'oldest' : 'newest', limit: 20 }),
  }));
  return [
    { name: 'landing page (anonymous)', requests: [{ method: 'GET', path: '/' }] },
    { name: 'explore page + searches (anonymous)', requests: [{ method: 'GET', path: '/explore' }, ...searches] },
    { name: 'explore blank query, limit 20', requests: [{ method: 'POST', path: '/explore', headers: json, body: '{"limit":20}' }] },
    { name: 'DOI pages (anonymous)', requests: found.dois.map((doi) => ({ method: 'GET', path: `/doi/${doi}/` })) },
    { name: 'file views (anonymous)', requests: found.fileIds.map((id) => ({ method: 'GET', path: `/file/view/${id}` })) },
    { name: 'file downloads (anonymous)', requests: found.fileIds.map((id) => ({ method: 'GET', path: `/file/download/${id}` })) },
    { name: 'dataset zip downloads (anonymous)', requests: found.datasetIds.map((id) => ({ method: 'GET', path: `/dataset/download/${id}` })) },
    {
      name: 'logged-in browsing (profile, explore, DOI page)',
      loggedIn: true,
      requests: [
        { method: 'GET', path: '/profile/summary' },
        { method: 'GET', path: '/' },
        ...searches.slice(0, 3),
        ...(found.dois[0] ? [{ method: 'GET' as const, path: `/doi/${found.dois[0]}/` }] : []),
      ],
    },
    {
      name: 'login (form + POST, scrypt)',
      connections: Math.min(connections, 4),
      requests: [
        {
          method: 'GET', path: '/login',
          onResponse: (_status, body, shared, headers) => {
            const context = shared as Record<string, unknown>;
            const token = /<meta name="csrf-token" content="([^"]+)"/.exec(body);
            const setCookie = headers?.['set-cookie'];
            const raw = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
            context.cookie = raw.map((c: string) => c.split(';')[0]).join('; ');
            context.token = token?.[1] ?? '';
          },
        },
        {
          method: 'POST', path: '/login',
          setupRequest: (request, shared) => ({
            ...request,
            headers: { ...request.headers, 'content-type': 'application/x-www-form-urlencoded', cookie: String((shared as Record<string, unknown>).cookie ?? '') },
            body: new URLSearchParams({ email, password, csrf_token: String((shared as Record<string, unknown>).token ?? '') }).toString(),
          }),
        },
      ],
    },
  ];
}

function errorsOf(result: Result): number {
  const failedStatuses = Object.entries(result.statusCodeStats ?? {})
    .filter(([code]) => Number(code) >= 400)
    .reduce((sum, [, stats]) => sum + (stats as { count: number }).count, 0);
  return failedStatuses + result.errors + result.timeouts;
}

/** Logs in once, as a browser would (form, CSRF token, session cookie), for the logged-in scenario. */
async function sessionCookie(baseUrl: string, headers: Record<string, string>): Promise<string> {
  const form = await fetch(`${baseUrl}/login`, { headers });
  const token = /<meta name="csrf-token" content="([^"]+)"/.exec(await form.text())?.[1] ?? '';
  const cookie = form.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const res = await fetch(`${baseUrl}/login`, {
    method: 'POST', redirect: 'manual',
    headers: { ...headers, cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password, csrf_token: token }).toString(),
  });
  if (res.status !== 302) throw new Error(`Logging in as ${email} failed (${res.status}); set LOAD_EMAIL and LOAD_PASSWORD.`);
  const session = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ') || cookie;
  // A redirect to /login would not count as an error: check that the session really works.
  const check = await fetch(`${baseUrl}/profile/summary`, { headers: { ...headers, cookie: session }, redirect: 'manual' });
  if (check.status !== 200) throw new Error(`The session of ${email} does not open /profile/summary (${check.status}).`);
  return session;
}


/** Seeds a SQLite database here, then serves it from a separate `npm start` process. */
async function startHub(dir: string): Promise<{ baseUrl: string; child: ChildProcess }> {
  const synthetic = Number(process.env.LOAD_SYNTHETIC ?? 1000);
  console.log(`Seeding a SQLite database with the sample data and ${synthetic} synthetic datasets…`);
  const databaseUrl = `sqlite:${join(dir, 'hub.sqlite')}`;
  const seeding = await startTestServer({ databaseUrl, workingDir: dir, seed: true });
  if (synthetic > 0) await seedSynthetic(seeding.hub.ctx, synthetic);
  await seeding.close();
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/app/server.ts'], {
    cwd: projectPath(),
    // Production settings (template cache, no auto-seeding), as a deployed instance runs.
    env: { ...process.env, FLASK_ENV: 'production', DATABASE_URL: databaseUrl, WORKING_DIR: dir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SECRET_KEY: 'load-test-secret-key-long-enough-for-sessions' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`the hub exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/`)).ok) return { baseUrl, child };
    } catch { /* not listening yet */ }
    await sleep(100);
  }
  child.kill('SIGTERM');
  throw new Error('the hub did not answer within 20 s');
}

async function main(): Promise<void> {
  let child: ChildProcess | null = null;
  let dir: string | null = null;
  let baseUrl = process.env.LOAD_TARGET?.replace(/\/$/, '');
  if (!baseUrl) {
    dir = mkdtempSync(join(tmpdir(), 'hub-load-'));
    ({ baseUrl, child } = await startHub(dir));
  }
  try {
    const found = await discover(baseUrl);
    // The self-started hub runs with production settings (Secure cookies), as behind the
    // TLS proxy of docs/deployment.md: the requests say so the way the proxy does.
    const viaProxy: Record<string, string> = child ? { 'x-forwarded-proto': 'https' } : {};
    const cookie = await sessionCookie(baseUrl, viaProxy);
    console.log(`Target ${baseUrl}: ${seconds} s or ${maxRequests} requests per scenario, ${connections} connections.\n`);
    const rows: string[][] = [];
    for (const scenario of scenarios(found)) {
      if (scenario.requests.length === 0) {
        rows.push([scenario.name, '-', '-', '-', '-', 'skipped: nothing to request']);
        continue;
      }
      const result = await autocannon({
        url: baseUrl,
        connections: scenario.connections ?? connections,
        duration: seconds,
        maxOverallRequests: Math.max(maxRequests, scenario.connections ?? connections),
        headers: { ...viaProxy, ...(scenario.loggedIn ? { cookie } : {}) },
        requests: scenario.requests,
      });
      rows.push([
        scenario.name,
        String(result.requests.total),
        result.requests.average.toFixed(0),
        `${result.latency.p50} ms`,
        `${result.latency.p99} ms`,
        String(errorsOf(result)),
      ]);
    }
    const header = ['scenario', 'requests', 'req/s', 'p50', 'p99', 'errors'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
    console.log(line(header));
    console.log(widths.map((w) => '-'.repeat(w)).join('  '));
    for (const row of rows) console.log(line(row));
  } finally {
    if (child) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
