// `npm run bench:configure-http`: the configurator's API on the largest corpus model
// (automotive2_4, 18 616 features) stored in a hub started in this process (fresh seeded SQLite,
// no analysis workers). Prints the first configure step (the worker compiles the model), the
// warm configure steps' median and p95 (random decisions among the open features, each step
// adding one), the commonality's first answer (202 until computed) and its time from the stored
// result, and a uniform sample of 100 (first, then another seed on the warm worker). Asserts nothing.
//
// How times are taken: a configure step is timed from sending the request to the last byte of
// the body (the client's JSON.parse comes after, not counted: it is the client's work); the
// engine's own time (timings_ms: propagate + count) is read from the answer, so "the rest" is
// worker messaging, serialisation, HTTP and the database lookups. The stored commonality is timed
// to its last byte twice: by this process's fetch (which shares the event loop with the server),
// and by curl in a separate process (`time_total`), plain and compressed (curl decodes).
import { execFile } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { findCorpus } from '../packages/uvl/src/corpus.support.ts';
import { startTestServer } from '../test/support/server.ts';
import { storeModel } from '../src/modules/model/model.test-support.ts';
import { decisionSequence } from './configure-decisions.ts';

const STEPS = Number(process.env.BENCH_RUNS ?? 40);
const LARGEST = 'real/Feature_Models/Automotive/Automotive02/automotive2_4.uvl';
const corpus = findCorpus();
if (!corpus) {
  console.error('UVL corpus not found (set UVL_CORPUS)');
  process.exit(1);
}

const run = promisify(execFile);
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
    const bytes = await res.arrayBuffer();
    const time = performance.now() - start;
    const json = JSON.parse(Buffer.from(bytes).toString('utf8'));
    if (res.status !== 200) throw new Error(`configure: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
    const engine = (json.timings_ms?.propagate ?? 0) + (json.timings_ms?.count ?? 0);
    return { time, engine, json };
  };
  console.log(`automotive2_4 (${LARGEST})`);
  const first = await configure({});
  console.log(`first configure step (compiles the model in the worker): ${ms(first.time)}, remaining ${first.json.remaining.length} digits`);
  const decisions = decisionSequence();
  let states = first.json.features as Record<string, string>;
  const times: number[] = [];
  const rest: number[] = [];
  const engine: number[] = [];
  for (let i = 0; i < STEPS; i++) {
    if (!decisions.next(states)) break;
    const step = await configure({ selected: decisions.selected, deselected: decisions.deselected });
    times.push(step.time);
    rest.push(step.time - step.engine);
    engine.push(step.engine);
    if (!step.json.consistent) throw new Error('a decision among open features cannot conflict');
    states = step.json.features;
  }
  console.log(`configure, warm, ${times.length} steps of 1..${times.length} decisions, to the body's last byte: median ${ms(quantile(times, 0.5))}, p95 ${ms(quantile(times, 0.95))}, max ${ms(Math.max(...times))}`);
  console.log(`  of which the engine (timings_ms: propagate + count): median ${ms(quantile(engine, 0.5))}, p95 ${ms(quantile(engine, 0.95))}, max ${ms(Math.max(...engine))}`);
  console.log(`  of which not the engine (messaging, JSON, HTTP, lookups): median ${ms(quantile(rest, 0.5))}, p95 ${ms(quantile(rest, 0.95))}`);
  const computed = await waitReady(`${api}/commonality`);
  console.log(`commonality: computed and stored in ${ms(computed.waited)} (${(computed.body.length / 1024).toFixed(0)} KB)`);
  // The compressed forms are made in the background once the result is read: given time first.
  await new Promise((r) => setTimeout(r, 3000));
  const timed = async (headers: Record<string, string>) => {
    const times: number[] = [];
    let size = 0;
    for (let i = 0; i < 9; i++) {
      const start = performance.now();
      size = (await (await fetch(`${api}/commonality`, { headers })).arrayBuffer()).byteLength;
      times.push(performance.now() - start);
    }
    return `median ${ms(quantile(times, 0.5))}, max ${ms(Math.max(...times))} (${(size / 1024).toFixed(0)} KB decoded)`;
  };
  console.log(`commonality from the stored result, this process's fetch: plain ${await timed({ 'accept-encoding': 'identity' })}; gzip/br ${await timed({})}`);
  const curl = async (compressed: boolean) => {
    const times: number[] = [];
    let line = '';
    for (let i = 0; i < 9; i++) {
      const { stdout } = await run('curl', ['-s', '-o', '/dev/null', ...(compressed ? ['--compressed'] : []), '-w', '%{time_total} %{size_download}', `${api}/commonality`]);
      const [total, size] = stdout.trim().split(' ');
      times.push(Number(total) * 1000);
      line = `${(Number(size) / 1024).toFixed(0)} KB sent`;
    }
    return `median ${ms(quantile(times, 0.5))}, max ${ms(Math.max(...times))} (${line})`;
  };
  console.log(`commonality from the stored result, curl to the last byte: plain ${await curl(false)}; compressed ${await curl(true)}`);
  const sample = await waitReady(`${api}/samples?kind=uniform&n=100&seed=1`);
  console.log(`uniform sample of 100: ${ms(sample.waited)} until stored (${(sample.body.length / 1024).toFixed(0)} KB; the sample worker compiles the model first)`);
  const again = await waitReady(`${api}/samples?kind=uniform&n=100&seed=2`);
  console.log(`uniform sample of 100, another seed (the sample worker warm): ${ms(again.waited)} until stored`);
} finally {
  await server.close();
}
