// Statistics benchmark (extensions section 8): `npm run bench:statistics`. Over N synthetic
// synchronized datasets (each model with a synthetic analysis) on SQLite: the time of building the
// statistics document from the database (a rebuild, as after a dataset is saved), the answer that
// starts it (from the kept document), and GET /api/v1/statistics answered from the kept document.
//
//   BENCH_SIZES  dataset counts (default 100000)
//   BENCH_RUNS   timed requests of each kind (default 5 cold builds, 50 kept answers)
import { performance } from 'node:perf_hooks';
import { startTestServer } from '../test/support/server.ts';
import { seedSynthetic } from '../src/modules/explore/explore.synthetic.ts';

const sizes = (process.env.BENCH_SIZES ?? '100000').split(',').map(Number).filter((n) => n > 0);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

for (const size of sizes) {
  const server = await startTestServer({ databaseBaseUrl: 'sqlite:', seed: true, env: { ANALYSIS_WORKERS: '0' } });
  try {
    await seedSynthetic(server.hub.ctx, size);
    const service = server.hub.ctx.services.statistics;
    const cold: number[] = [];
    await service.current();
    const stale: number[] = [];
    for (let i = 0; i < 5; i++) {
      service.datasetsChanged();
      const started = performance.now();
      await service.current();
      stale.push(performance.now() - started);
      await service.settled();
      cold.push(performance.now() - started);
    }
    const kept: number[] = [];
    for (let i = 0; i < 50; i++) {
      const started = performance.now();
      const res = await fetch(`${server.baseUrl}/api/v1/statistics`);
      await res.json();
      kept.push(performance.now() - started);
    }
    const stats = await service.current();
    console.log(`${size} datasets (${stats.models} models): rebuild median ${median(cold).toFixed(0)} ms; answer right after a change (kept figures, rebuild started) median ${median(stale).toFixed(1)} ms; kept answer over HTTP median ${median(kept).toFixed(1)} ms`);
  } finally {
    await server.close();
  }
}
