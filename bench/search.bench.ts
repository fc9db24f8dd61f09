// Search benchmark (issue 5): `npm run bench:search`. p50 and p95 of POST /explore for a
// one-word query, a blank query and a filtered one (one word, a features range and
// satisfiable: issue 9), all with limit 20, over N synchronized synthetic datasets (each
// model with a synthetic analysis), on SQLite and on PostgreSQL (when a PostgreSQL URL is
// given). Target: at 100 000 datasets the one-word and the filtered query's p95 stay under 100 ms.
//
//   BENCH_SIZES          dataset counts (default 1000,10000,100000)
//   BENCH_RUNS           timed requests per query kind (default 200)
//   BENCH_DATABASE_URLS  server databases (default: the postgres entries of TEST_DATABASE_URLS)
//   BENCH_SQLITE=0       leave SQLite out
import { performance } from 'node:perf_hooks';
import { startTestServer } from '../test/support/server.ts';
import { dialectOf } from '../src/core/db/connect.ts';
import { seedSynthetic, SYNTHETIC_DOMAINS } from '../src/modules/explore/explore.synthetic.ts';

const sizes = (process.env.BENCH_SIZES ?? '1000,10000,100000').split(',').map(Number).filter((n) => n > 0);
const runs = Number(process.env.BENCH_RUNS ?? 200);
const servers = (process.env.BENCH_DATABASE_URLS ?? process.env.TEST_DATABASE_URLS ?? '')
  .split(',').map((s) => s.trim()).filter((u) => u && dialectOf(u) === 'postgres');
const databases = [...(process.env.BENCH_SQLITE === '0' ? [] : ['sqlite:']), ...servers];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function time(baseUrl: string, bodies: () => unknown, count: number): Promise<{ p50: number; p95: number; results: number }> {
  const durations: number[] = [];
  let results = 0;
  for (let i = 0; i < count; i++) {
    const body = JSON.stringify(bodies());
    const started = performance.now();
    const res = await fetch(`${baseUrl}/explore`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const items = await res.json() as unknown[];
    durations.push(performance.now() - started);
    if (!res.ok) throw new Error(`POST /explore answered ${res.status}`);
    results += items.length;
  }
  durations.sort((a, b) => a - b);
  return { p50: percentile(durations, 50), p95: percentile(durations, 95), results: results / count };
}

const rows: string[][] = [];
for (const database of databases) {
  for (const size of sizes) {
    const dialect = dialectOf(database);
    const server = await startTestServer({ databaseBaseUrl: database, seed: true });
    try {
      const seeding = performance.now();
      await seedSynthetic(server.hub.ctx, size);
      const seedSeconds = ((performance.now() - seeding) / 1000).toFixed(1);
      let word = 0;
      const oneWord = () => ({ query: SYNTHETIC_DOMAINS[word++ % SYNTHETIC_DOMAINS.length], limit: 20 });
      const filtered = () => ({ query: SYNTHETIC_DOMAINS[word++ % SYNTHETIC_DOMAINS.length], limit: 20, models: { features: { min: 50, max: 500 }, satisfiable: true } });
      await time(server.baseUrl, oneWord, 20);
      await time(server.baseUrl, filtered, 20);
      await time(server.baseUrl, () => ({ limit: 20 }), 20);
      const one = await time(server.baseUrl, oneWord, runs);
      const blank = await time(server.baseUrl, () => ({ limit: 20 }), runs);
      const filter = await time(server.baseUrl, filtered, runs);
      const row = [dialect, String(size), `${seedSeconds} s`, one.p50.toFixed(1), one.p95.toFixed(1), blank.p50.toFixed(1), blank.p95.toFixed(1), filter.p50.toFixed(1), filter.p95.toFixed(1), filter.results.toFixed(1)];
      rows.push(row);
      console.log(`${dialect} ${size}: seeded in ${seedSeconds} s; one word p50 ${row[3]} ms p95 ${row[4]} ms; blank p50 ${row[5]} ms p95 ${row[6]} ms; filtered p50 ${row[7]} ms p95 ${row[8]} ms (${row[9]} results)`);
    } finally {
      await server.close();
    }
  }
}

const header = ['database', 'datasets', 'seed+index', 'one-word p50 ms', 'one-word p95 ms', 'blank p50 ms', 'blank p95 ms', 'filtered p50 ms', 'filtered p95 ms', 'filtered results'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
console.log(`\nPOST /explore, limit 20, ${runs} sequential requests per kind (one-word queries rotate over ${SYNTHETIC_DOMAINS.length} words; filtered: one word + features 50..500 + satisfiable)`);
console.log(header.map((h, i) => h.padStart(widths[i]!)).join('  '));
for (const row of rows) console.log(row.map((c, i) => c.padStart(widths[i]!)).join('  '));
