// `npm run bench:model-page`: the model page of the largest corpus model (automotive2_4, 18 616
// features, 22 307 lines) in a hub started in this process on a fresh seeded SQLite database (no
// analysis workers: the page is the pending one, whose label is the smallest; the finished label
// adds at most 300 names per list). Prints the HTML size, the time to first byte and to the last
// byte, cold (parse, highlight and draw) and warm (median of BENCH_RUNS), and the requests the
// page's scripts make: a chunk of source lines, a search by name, an expansion in place.
// The browser's load time is printed by test/browser/model-large.test.ts. Asserts nothing.
import { performance } from 'node:perf_hooks';
import { findCorpus } from '../packages/uvl/src/corpus.support.ts';
import { startTestServer } from '../test/support/server.ts';
import { storeModel } from '../src/modules/model/model.test-support.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const LARGEST = 'real/Feature_Models/Automotive/Automotive02/automotive2_4.uvl';
const corpus = findCorpus();
if (!corpus) {
  console.error('UVL corpus not found (set UVL_CORPUS)');
  process.exit(1);
}

async function timed(url: string): Promise<{ ttfb: number; total: number; bytes: number; status: number }> {
  const start = performance.now();
  const response = await fetch(url);
  const ttfb = performance.now() - start;
  const body = await response.text();
  return { ttfb, total: performance.now() - start, bytes: Buffer.byteLength(body), status: response.status };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(0).padStart(5)} ms`;

const server = await startTestServer({ seed: true, env: { ANALYSIS_WORKERS: '0', LOG_LEVEL: 'warn' } });
try {
  const { fileId } = await storeModel(server, { content: corpus.read(LARGEST), name: 'automotive2_4.uvl' });
  const base = `${server.baseUrl}/model/${fileId}`;
  const report = async (label: string, url: string) => {
    const cold = await timed(url);
    const warm: { ttfb: number; total: number }[] = [];
    for (let i = 0; i < RUNS; i++) warm.push(await timed(url));
    console.log(`${label.padEnd(34)} ${String(cold.status).padStart(3)} ${(cold.bytes / 1024).toFixed(0).padStart(5)} KB  cold TTFB ${ms(cold.ttfb)} total ${ms(cold.total)}  warm TTFB ${ms(median(warm.map((w) => w.ttfb)))} total ${ms(median(warm.map((w) => w.total)))}`);
  };
  console.log(`automotive2_4 (${LARGEST}), warm: median of ${RUNS}`);
  await report('model page', `${base}/`);
  await report('lines 12 001-12 500 (on demand)', `${base}/lines?from=12001&to=12500`);
  await report('features.json?q=d23121922727', `${base}/features.json?q=d23121922727`);
  await report('diagram.svg (contract: depth 3)', `${base}/diagram.svg`);
  await report('diagram.svg?depth=2 (page view)', `${base}/diagram.svg?depth=2`);
} finally {
  await server.close();
}
