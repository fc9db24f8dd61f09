// `npm run bench:analysis`: for every valid corpus model, the time to count its configurations
// exactly and the time to compute its backbone (core and dead features), each alone and within
// a budget (BENCH_TIMEOUT_S, default 60 s). Each model runs in its own worker thread, one at a
// time, so a runaway one can be stopped and the timings do not compete with each other.
// Targets (issue 8, 2-core machine): every model of at most 1 000 features counted in < 1 s;
// automotive01 in < 5 s; each Automotive02 model in < 60 s; the backbone of automotive2_4 in < 10 s.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { startTypeScriptWorker } from '../src/core/worker.ts';
import { countConfigurations, Deadline, modelBackbone, satEncoding } from '../packages/analysis/src/index.ts';
import { parseUvl } from '../packages/uvl/src/index.ts';
import { fileLoader } from '../src/cli/uvl-files.ts';
import { validCorpusModels } from './corpus.ts';

interface Job {
  path: string;
  file: string;
  timeoutMs: number;
}
interface Outcome {
  path: string;
  features: number;
  countMs: number;
  count: string | null;
  backboneMs: number;
  backbone: boolean | null;
  error?: string;
}

if (!isMainThread) {
  const job = workerData as Job;
  const text = readFileSync(job.file, 'utf8');
  const { model } = parseUvl(text, { fileName: job.file, loader: fileLoader });
  const enc = satEncoding(model, text);
  let start = performance.now();
  const count = enc.names.length === 0 ? 0n : countConfigurations(model, enc, Deadline.after(job.timeoutMs), text);
  const countMs = performance.now() - start;
  start = performance.now();
  const backbone = enc.names.length === 0 ? null : modelBackbone(enc, Deadline.after(job.timeoutMs));
  const backboneMs = performance.now() - start;
  const outcome: Outcome = {
    path: job.path,
    features: enc.flat.features.length,
    countMs,
    count: count === null ? null : count.toString(),
    backboneMs,
    backbone: backbone === null ? null : backbone.satisfiable,
  };
  parentPort!.postMessage(outcome);
} else {
  await main();
}

async function main(): Promise<void> {
  const { corpusDir, files } = validCorpusModels();
  const timeoutMs = Number(process.env.BENCH_TIMEOUT_S ?? 60) * 1000;
  const outcomes: Outcome[] = [];
  let peakRss = 0;
  for (const [i, f] of files.entries()) {
    const outcome = await runOne({ path: f.path, file: join(corpusDir, f.path), timeoutMs });
    outcomes.push(outcome);
    peakRss = Math.max(peakRss, process.resourceUsage().maxRSS);
    const status = outcome.error ? `error: ${outcome.error}` : `count ${fmt(outcome.countMs)}${outcome.count === null ? ' TIMEOUT' : ''}, backbone ${fmt(outcome.backboneMs)}${outcome.backbone === null ? ' TIMEOUT' : ''}`;
    process.stderr.write(`[${i + 1}/${files.length}] ${f.path}: ${status}\n`);
  }

  const largest = [...outcomes].sort((a, b) => b.features - a.features).slice(0, 10);
  const header = ['model', 'features', 'count', 'digits', 'backbone'];
  const rows = largest.map((o) => [
    o.path.split('/').pop()!,
    String(o.features),
    o.count === null ? `timeout (${fmt(o.countMs)})` : fmt(o.countMs),
    o.count === null ? '-' : String(o.count.length),
    o.backbone === null ? `timeout (${fmt(o.backboneMs)})` : fmt(o.backboneMs),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(`\nThe ten largest models (budget ${timeoutMs / 1000} s per operation):`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));

  const counted = outcomes.filter((o) => o.count !== null);
  const within = (ms: number) => counted.filter((o) => o.countMs < ms).length;
  const small = outcomes.filter((o) => o.features <= 1000);
  const slowSmall = small.filter((o) => o.count === null || o.countMs >= 1000);
  console.log(`\nModels: ${outcomes.length}. Counted exactly: within 1 s ${within(1000)}, within 10 s ${within(10_000)}, within 60 s ${within(60_000)}; count timeouts ${outcomes.length - counted.length}; errors ${outcomes.filter((o) => o.error).length}.`);
  console.log(`Backbone: within 1 s ${outcomes.filter((o) => o.backbone !== null && o.backboneMs < 1000).length}, within 10 s ${outcomes.filter((o) => o.backbone !== null && o.backboneMs < 10_000).length}; timeouts ${outcomes.filter((o) => o.backbone === null && !o.error).length}.`);
  console.log(`Models of at most 1 000 features: ${small.length}; counted in under 1 s: ${small.length - slowSmall.length}${slowSmall.length ? ` (not: ${slowSmall.map((o) => `${o.path} ${o.count === null ? 'timeout' : fmt(o.countMs)}`).join('; ')})` : ''}.`);
  for (const name of ['automotive01.uvl', 'automotive02_01.uvl', 'automotive02_02.uvl', 'automotive02_03.uvl', 'automotive02_04.uvl', 'automotive2_4.uvl', 'linux-2.6.33.3.uvl']) {
    const o = outcomes.find((x) => x.path.endsWith(`/${name}`));
    if (o) console.log(`${name}: count ${o.count === null ? `timeout after ${fmt(o.countMs)}` : fmt(o.countMs)}, backbone ${o.backbone === null ? `timeout after ${fmt(o.backboneMs)}` : fmt(o.backboneMs)}`);
  }
  console.log(`Peak memory (maxRSS of the process and its workers): ${(peakRss / 1024).toFixed(0)} MB`);
}

function fmt(ms: number): string {
  return ms < 1000 ? `${ms.toFixed(0)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

function runOne(job: Job): Promise<Outcome> {
  return new Promise((resolvePromise) => {
    const worker = startTypeScriptWorker(new URL(import.meta.url), {
      workerData: job,
      resourceLimits: { maxOldGenerationSizeMb: 4096 },
    });
    let settled = false;
    const finish = (o: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(guard);
      void worker.terminate();
      resolvePromise(o);
    };
    const failed = (error: string): Outcome => ({ path: job.path, features: 0, countMs: NaN, count: null, backboneMs: NaN, backbone: null, error });
    // Both operations check their deadline; the guard only catches a worker that stopped checking.
    const guard = setTimeout(() => finish(failed('worker did not finish')), 2 * job.timeoutMs + 30_000);
    worker.once('message', (o: Outcome) => finish(o));
    worker.once('error', (e) => finish(failed(e.message)));
    worker.once('exit', (code) => finish(failed(`worker exited with ${code}`)));
  });
}
