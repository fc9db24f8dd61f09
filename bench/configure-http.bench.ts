// `npm run bench:configure-http`: the configurator's API on the largest corpus model
// (automotive2_4, 18 616 features) stored in a hub started in this process (fresh seeded SQLite,
// no analysis workers). Prints the first configure step (the worker compiles the model), the
// warm configure steps' median and p95 (random decisions among the open features, each step
// adding one), the commonality's first answer (202 until computed) and its time from the stored
// result, and a uniform sample of 100. Asserts nothing.
import { performance } from 'node:perf_hooks';
import { findCorpus } from '../packages/uvl/src/corpus.support.ts';
import { startTestServer } from '../test/support/server.ts';
import { storeModel } from '../src/modules/model/model.test-support.ts';

const STEPS = Number(process.env.BENCH_RUNS ?? 40);
const LARGEST = 'real/Feature_Models/Automotive/Automotive02/automotive2_4.uvl';
const corpus = findCorpus();
if (!corpus) {
  console.error('UVL corpus not found (set UVL_CORPUS)');
  process.exit(1);
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;
const ms = (x: number) => `${x.toFixed(0)} ms`;

async function waitReady(url: string): Promise<{ waited: number; body: string }> {
  const start = performance.now();
  for (;;) {
    const res = await fetch(url);
    const body = await res.text();
    if (res.status === 200) return { waited: performance.now() - start, body };
    if (res.status !== 202) throw new Error(`${url}: ${res.status} ${body.slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const server = await startTestServer({ seed: true, env: { ANALYSIS_WORKERS: '0', LOG_LEVEL: 'warn', ANALYSIS_TIMEOUT_S: '600' } });
try {
  const { fileId } = await storeModel(server, { content: corpus.read(LARGEST), name: 'automotive2_4.uvl' });
  const api = `${server.baseUrl}/api/v1/files/${fileId}`;
  const configure = async (body: unknown) => {
    const start = performance.now();
    const res = await fetch(`${api}/configure`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    const json = await res.json() as any;
    if (res.status !== 200) throw new Error(`configure: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
    return { time: performance.now() - start, json };
  };
  console.log(`automotive2_4 (${LARGEST})`);
  const first = await configure({});
  console.log(`first configure step (compiles the model in the worker): ${ms(first.time)}, remaining ${first.json.remaining.length} digits`);
  const selected: string[] = [];
  const deselected: string[] = [];
  let states = first.json.features as Record<string, string>;
  const times: number[] = [];
  let seed = 42;
  const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  for (let i = 0; i < STEPS; i++) {
    const open = Object.keys(states).filter((n) => states[n] === 'open');
    if (open.length === 0) break;
    const name = open[Math.floor(random() * open.length)]!;
    (random() < 0.5 ? selected : deselected).push(name);
    const step = await configure({ selected, deselected });
    times.push(step.time);
    if (!step.json.consistent) throw new Error('a decision among open features cannot conflict');
    states = step.json.features;
  }
  console.log(`configure, warm, ${times.length} steps of 1..${times.length} decisions: median ${ms(quantile(times, 0.5))}, p95 ${ms(quantile(times, 0.95))}, max ${ms(Math.max(...times))}`);
  const computed = await waitReady(`${api}/commonality`);
  console.log(`commonality: computed and stored in ${ms(computed.waited)} (${(computed.body.length / 1024).toFixed(0)} KB)`);
  const stored: number[] = [];
  for (let i = 0; i < 9; i++) {
    const start = performance.now();
    await (await fetch(`${api}/commonality`)).text();
    stored.push(performance.now() - start);
  }
  console.log(`commonality from the stored result: median ${ms(quantile(stored, 0.5))}, max ${ms(Math.max(...stored))}`);
  const sample = await waitReady(`${api}/samples?kind=uniform&n=100&seed=1`);
  console.log(`uniform sample of 100: ${ms(sample.waited)} until stored (${(sample.body.length / 1024).toFixed(0)} KB)`);
} finally {
  await server.close();
}
