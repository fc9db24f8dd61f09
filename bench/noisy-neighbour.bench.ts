// `npm run bench:noisy-neighbour` (extensions section 10, "Measured"): the hub as production runs
// it (compiled by the build script, SQLite, a temporary working folder) in a child process, with
// three clients that keep 4 heavy requests each in flight:
//   - anonymous 203.0.113.1: configure steps on linux-2.6.33.3 (random decisions);
//   - anonymous 203.0.113.2: 10,000-configuration CSV samples of automotive2_4 (samples API, seeds in turn);
//   - user2 (staging needs an account): staging a generated 25 MB FeatureIDE model with 10^6 features;
// and a fourth client (anonymous 198.51.100.4) that measures `GET /` and a configure step of a
// 20-feature model, one after the other. The clients are told apart by X-Forwarded-For, which the
// hub trusts from the loopback address. Prints p50/p95 of each, the answers by status, the 5xx
// count and the hub's peak RSS (VmHWM: its worker threads included). Asserts nothing.
// BENCH_DURATION_S (default 120) bounds the run; BENCH_SKIP_BUILD=1 uses the build as it is.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { projectPath } from '../src/core/config.ts';
import { findCorpus } from '../packages/uvl/src/corpus.support.ts';
import { freePort } from '../test/support/ports.ts';
import { TestClient } from '../test/support/client.ts';
import { uploadDataset } from '../test/support/uploads.ts';
import { featureIdeXml } from '../test/support/featureide-model.ts';

const DURATION_MS = Number(process.env.BENCH_DURATION_S ?? 120) * 1000;
const IN_FLIGHT = 4;
/** The fourth client's pause between its pairs of requests: at most 240 configure steps a minute. */
const PACE_MS = 250;
const LINUX = 'real/Feature_Models/Operating_Systems/Linux/linux-2.6.33.3.uvl';
const AUTOMOTIVE = 'real/Feature_Models/Automotive/Automotive02/automotive2_4.uvl';
const SMALL = `features\n    Root\n        optional\n${Array.from({ length: 19 }, (_, i) => `            F${i}\n`).join('')}`;

const corpus = findCorpus();
if (!corpus) {
  console.error('UVL corpus not found (set UVL_CORPUS)');
  process.exit(1);
}

/** Latencies and statuses of one kind of request. */
class Series {
  readonly times: number[] = [];
  readonly statuses = new Map<number, number>();
  constructor(readonly label: string) {}
  add(status: number, ms: number): void {
    this.times.push(ms);
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
  }
  line(): string {
    const sorted = [...this.times].sort((a, b) => a - b);
    const q = (p: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!);
    const statuses = [...this.statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ');
    return `${this.label.padEnd(44)} n=${String(sorted.length).padStart(5)}  p50 ${q(0.5).toFixed(0).padStart(6)} ms  p95 ${q(0.95).toFixed(0).padStart(6)} ms   ${statuses}`;
  }
}

/** Requests the bench itself cut off at its deadline (still running then): neither answers nor failures. */
const cutAtDeadline = { count: 0 };

async function timed(series: Series, send: () => Promise<Response>, signal?: AbortSignal): Promise<Response | undefined> {
  const start = performance.now();
  try {
    const res = await send();
    await res.arrayBuffer();
    series.add(res.status, performance.now() - start);
    return res;
  } catch {
    if (signal?.aborted) cutAtDeadline.count++;
    else series.add(0, performance.now() - start);
    return undefined;
  }
}

async function startHub(): Promise<{ base: string; child: ChildProcess; work: string }> {
  if (process.env.BENCH_SKIP_BUILD !== '1') {
    const build = spawnSync(process.execPath, [projectPath('scripts/build.mjs')], { cwd: projectPath(), stdio: 'inherit' });
    if (build.status !== 0) throw new Error('npm run build failed');
  }
  const work = mkdtempSync(join(tmpdir(), 'hub-noisy-'));
  const port = await freePort();
  const env = {
    ...process.env,
    PORT: String(port), HOST: '127.0.0.1', WORKING_DIR: work, DATABASE_URL: `sqlite:${work}/hub.sqlite`,
    FLASK_ENV: 'production', LOG_LEVEL: 'warn', SECRET_KEY: 'bench-secret-key-long-enough-for-sessions',
    DOMAIN: `127.0.0.1:${port}`, ZENODO_ACCESS_TOKEN: '', HUB_MODULES_FILE: projectPath('modules.json'), ANALYSIS_WORKERS: '0',
  };
  const hub = [process.execPath, projectPath('build/src/cli/hub.js')];
  const seed = spawnSync(hub[0]!, [hub[1]!, 'db:seed', '--reset'], { cwd: projectPath(), env, stdio: 'inherit' });
  if (seed.status !== 0) throw new Error('hub db:seed failed');
  const child = spawn(hub[0]!, [hub[1]!, 'serve'], { cwd: projectPath(), env, stdio: ['ignore', 'inherit', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null || i > 600) throw new Error('the hub did not start');
    const up = await fetch(`${base}/`).then((r) => r.arrayBuffer().then(() => true), () => false);
    if (up) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, child, work };
}

/** Peak resident memory of the process (all its threads), from /proc. */
function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** Resolves at the deadline: a request still unanswered then is not waited for (it is counted as such). */
const untilDeadline = (deadline: number) => new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), Math.max(0, deadline - performance.now())).unref());

/**
 * Runs `one` IN_FLIGHT times at once, each starting again as it ends, until the deadline; a
 * request that fails or is still running at the deadline is counted in `unanswered`.
 */
async function keepInFlight(deadline: number, unanswered: { count: number }, one: (slot: number, round: number) => Promise<void>): Promise<void> {
  await Promise.all(Array.from({ length: IN_FLIGHT }, async (_, slot) => {
    for (let round = 0; performance.now() < deadline; round++) {
      const outcome = await Promise.race([one(slot, round).then(() => 'done' as const, () => 'failed' as const), untilDeadline(deadline)]);
      if (outcome !== 'done') unanswered.count++;
    }
  }));
}

async function main(): Promise<void> {
  const { base, child, work } = await startHub();
  try {
    const owner = new TestClient(base);
    await owner.login('user1@example.com', '1234');
    await owner.get('/dataset/upload');
    const fileOf = async (title: string, name: string, text: string) => {
      const { dataset_id } = await uploadDataset(owner, title, [[name, text]]);
      return (await (await fetch(`${base}/api/v1/datasets/${dataset_id}`)).json()).files[0].file_id as number;
    };
    const linux = await fileOf('Linux', 'linux.uvl', corpus!.read(LINUX));
    const automotive = await fileOf('Automotive', 'automotive2_4.uvl', corpus!.read(AUTOMOTIVE));
    const small = await fileOf('Small', 'small.uvl', SMALL);
    const xml = featureIdeXml(1_000_000);
    console.log(`hub at ${base} (build/, SQLite); FeatureIDE model ${(xml.length / 1e6).toFixed(1)} MB; ${DURATION_MS / 1000} s`);
    const stager = new TestClient(base);
    await stager.login('user2@example.com', '1234');
    await stager.get('/dataset/upload');

    const series = {
      linux: new Series('heavy: configure linux-2.6.33.3'),
      samples: new Series('heavy: 10,000-configuration CSV automotive2_4'),
      staging: new Series('heavy: staging a 25 MB FeatureIDE model'),
      home: new Series('fourth client: GET /'),
      small: new Series('fourth client: configure a 20-feature model'),
    };
    const from = (address: string) => ({ 'x-forwarded-for': address, 'content-type': 'application/json' });
    const unanswered = { count: 0 };
    // Four open features of linux to deselect in turn (its first step, untimed, also starts its compile).
    const opening = await (await fetch(`${base}/api/v1/files/${linux}/configure`, { method: 'POST', headers: from('203.0.113.9'), body: '{}' })).json();
    const linuxNames = Object.keys(opening.features ?? {}).filter((name) => opening.features[name] === 'open').slice(0, IN_FLIGHT);
    const deadline = performance.now() + DURATION_MS;
    await Promise.all([
      keepInFlight(deadline, unanswered, async (slot, round) => {
        const body = JSON.stringify(round % 2 === 0 ? { selected: [] } : { deselected: linuxNames.slice(slot, slot + 1) });
        await timed(series.linux, () => fetch(`${base}/api/v1/files/${linux}/configure`, { method: 'POST', headers: from('203.0.113.1'), body }));
      }),
      keepInFlight(deadline, unanswered, async (slot, round) => {
        const res = await timed(series.samples, () => fetch(`${base}/api/v1/files/${automotive}/samples?kind=uniform&n=10000&seed=${1 + ((slot + round) % 8)}`, { headers: { ...from('203.0.113.2'), accept: 'text/csv' } }));
        if (res && res.status !== 200) await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
      }),
      keepInFlight(deadline, unanswered, async (slot, round) => {
        const form = new FormData();
        form.append('file', new Blob([xml], { type: 'application/xml' }), `generated-${slot}-${round}.xml`);
        const start = performance.now();
        const res = await stager.post('/dataset/file/upload', { body: form });
        series.staging.add(res.status, performance.now() - start);
        if (res.status === 200) await stager.post('/dataset/file/delete', { json: { file: res.json.filename } });
        else if (res.status === 429) await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
      }),
      (async () => {
        // Sequential, and never waited for past the deadline either (each request times out there).
        while (performance.now() < deadline) {
          const signal = AbortSignal.timeout(Math.max(1, Math.ceil(deadline - performance.now())));
          await timed(series.home, () => fetch(`${base}/`, { headers: { 'x-forwarded-for': '198.51.100.4' }, signal }), signal);
          await timed(series.small, () => fetch(`${base}/api/v1/files/${small}/configure`, { method: 'POST', headers: from('198.51.100.4'), body: JSON.stringify({ selected: ['F3'] }), signal }), signal);
          // Paced under the API's rate limit (API_RATE_LIMIT, 600 a minute per address), which the
          // first run's unpaced client hit after 1,470 answers.
          await new Promise((r) => setTimeout(r, PACE_MS));
        }
      })(),
    ]);
    for (const s of Object.values(series)) console.log(s.line());
    const fivexx = Object.values(series).reduce((n, s) => n + [...s.statuses].filter(([status]) => status >= 500 || status === 0).reduce((m, [, c]) => m + c, 0), 0);
    console.log(`5xx (or no answer): ${fivexx}; heavy requests failed or still unanswered at the end: ${unanswered.count}; fourth client's requests cut off by the bench's own deadline: ${cutAtDeadline.count}`);
    console.log(`peak RSS of the hub: ${peakRssMb(child.pid!).toFixed(0)} MB`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
