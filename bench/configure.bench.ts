// `npm run bench:configure`: for every valid corpus model, what an interactive configurator
// costs on the compiled form (issue 22): the compile time and size (nodes), every feature's
// commonality, 1 000 uniform samples, a configure step of 3 random decisions, and pairwise
// sampling. Each model runs in its own worker thread, one at a time, within a budget
// (BENCH_TIMEOUT_S, default 60 s) for the compile and one for the pairwise sampling (which needs
// no compiled form): an operation out of time is reported, a worker past both budgets is
// stopped, and the operations it finished are kept. BENCH_ONLY=<path substring> runs only the
// models whose path contains it. Times are CPU time (process.cpuUsage(): the machine is shared,
// and the main thread only waits while a worker runs).
// Target: every model of at most 1 000 features compiled, configured and sampled in under 1 s each.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { startTypeScriptWorker } from '../src/core/worker.ts';
import { compileModel, Configurator, Deadline, twiseSample, type CompiledModel, type Decisions } from '../packages/analysis/src/index.ts';
import { SeededRandom } from '../packages/analysis/src/sample/prng.ts';
import { parseUvl, type UvlModel } from '../packages/uvl/src/index.ts';
import { fileLoader } from '../src/cli/uvl-files.ts';
import { validCorpusModels } from './corpus.ts';

interface Job {
  path: string;
  file: string;
  timeoutMs: number;
}

/** The operations, in the order the worker runs them. */
const OPERATIONS = ['compile', 'commonality', 'sample', 'configurator', 'configure', 'pairwise'] as const;
type Operation = (typeof OPERATIONS)[number];

interface Outcome {
  path: string;
  features: number;
  nodes?: number;
  /** The pairwise sample's size and the sampler's lower bound on it, once the sampler has landed. */
  pairwise?: PairwiseSample;
  /** CPU milliseconds of each finished operation. */
  ms: Partial<Record<Operation, number | null>>;
  /** The operation that ran out of the budget, if one did. */
  timedOut?: Operation;
  error?: string;
}

/** A message from the worker: one more operation's figures, or the end. */
type Report =
  | { kind: 'features'; features: number }
  | { kind: 'op'; op: Operation; ms: number | null; nodes?: number; pairwise?: PairwiseSample }
  | { kind: 'timeout'; op: Operation }
  | { kind: 'done' };

interface PairwiseSample {
  size: number;
  lowerBound: number;
  /** The sampler's reason for not sampling at all (a coverage table too large), if it gave one. */
  notSampled?: string;
  /** False when the deadline cut the sample short. */
  complete: boolean;
}

/** Best-known pairwise sample sizes (Sammy, 2026; issue 22), printed beside the bench's. */
const PAIRWISE_ANCHORS: Record<string, number> = {
  'automotive01.uvl': 727,
  'Financial_Services_01/Evolution/2018-04-23.uvl': 4352,
  'linux-2.6.33.3.uvl': 483,
};

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

function runJob(job: Job, report: (r: Report) => void): void {
  const text = readFileSync(job.file, 'utf8');
  const { model } = parseUvl(text, { fileName: job.file, loader: fileLoader });
  let start = process.cpuUsage();
  const compiled = compileModel(model, { text, deadline: Deadline.after(job.timeoutMs) });
  const compileMs = cpuMs(start);
  if (compiled !== null) runQueries(model, text, compiled, compileMs, report);
  else report({ kind: 'timeout', op: 'compile' });
  // Pairwise sampling works on the model (SAT), compiled or not, within its own budget.
  start = process.cpuUsage();
  const pairwise = pairwiseSample(model, text, Deadline.after(job.timeoutMs));
  report({ kind: 'op', op: 'pairwise', ms: cpuMs(start), pairwise });
  report({ kind: 'done' });
}

function runQueries(model: UvlModel, text: string, compiled: CompiledModel, compileMs: number, report: (r: Report) => void): void {
  report({ kind: 'features', features: compiled.features });
  report({ kind: 'op', op: 'compile', ms: compileMs, nodes: compiled.form.nodes });
  let start = process.cpuUsage();
  compiled.commonality();
  report({ kind: 'op', op: 'commonality', ms: cpuMs(start) });
  start = process.cpuUsage();
  // One at a time, as a caller streaming them would (sampleUniform holds them all).
  for (const _ of compiled.uniformSamples(1000, 1));
  report({ kind: 'op', op: 'sample', ms: cpuMs(start) });
  start = process.cpuUsage();
  const configurator = new Configurator(model, { text, counter: (assumptions) => compiled.count(assumptions) });
  configurator.configure({ selected: [], deselected: [] });
  report({ kind: 'op', op: 'configurator', ms: cpuMs(start) });
  report({ kind: 'op', op: 'configure', ms: configureStep(configurator, new SeededRandom(1), 3) });
}

/**
 * A warm configure step of `decisions` decisions: the configurator is built and has answered
 * once; the decisions are chosen one at a time among the features still open (so that they
 * conflict only as a person's would not), then the step with all of them is timed: every
 * feature's state and the remaining count on the compiled form. CPU milliseconds.
 */
function configureStep(configurator: Configurator, random: SeededRandom, decisions: number): number {
  const chosen: Decisions = { selected: [], deselected: [] };
  for (let d = 0; d < decisions; d++) {
    const result = configurator.configure(chosen, { countTimeoutMs: 0 });
    if (!result.consistent) break;
    const open = Object.entries(result.features).filter(([, state]) => state === 'open').map(([name]) => name);
    if (open.length === 0) break;
    const name = open[random.nextUint32() % open.length]!;
    (random.nextUint32() & 1 ? chosen.selected : chosen.deselected).push(name);
  }
  const start = process.cpuUsage();
  configurator.configure(chosen);
  return cpuMs(start);
}

/** Pairwise sampling of the model within the deadline (SAT: no compiled form needed). */
function pairwiseSample(model: UvlModel, text: string, deadline: Deadline): PairwiseSample {
  const result = twiseSample(model, { t: 2, seed: 1, text, deadline });
  return { size: result.size, lowerBound: result.lower_bound, complete: result.complete, notSampled: result.note?.startsWith('not sampled') ? 'not sampled (table too large)' : undefined };
}

async function main(): Promise<void> {
  const { corpusDir, files } = validCorpusModels();
  const timeoutMs = Number(process.env.BENCH_TIMEOUT_S ?? 60) * 1000;
  const outcomes: Outcome[] = [];
  for (const [i, f] of files.entries()) {
    const outcome = await runOne({ path: f.path, file: join(corpusDir, f.path), timeoutMs }, f.features!);
    outcomes.push(outcome);
    process.stderr.write(`[${i + 1}/${files.length}] ${f.path}: ${describe(outcome)}\n`);
  }
  printTable(outcomes, timeoutMs);
  printSummary(outcomes);
}

function describe(o: Outcome): string {
  const parts = OPERATIONS.filter((op) => op in o.ms).map((op) => `${op} ${cell(o, op)}`);
  if (o.nodes !== undefined) parts.splice(1, 0, `${o.nodes} nodes`);
  if (o.timedOut) parts.push(`${o.timedOut} TIMEOUT`);
  if (o.error) parts.push(`error: ${o.error}`);
  return parts.join(', ');
}

function cell(o: Outcome, op: Operation): string {
  if (o.timedOut === op) return 'timeout';
  if (!(op in o.ms)) return '-';
  const ms = o.ms[op];
  if (ms === null || ms === undefined) return '-';
  const p = o.pairwise;
  if (op !== 'pairwise' || !p) return fmt(ms);
  const anchor = Object.entries(PAIRWISE_ANCHORS).find(([name]) => o.path.endsWith(name))?.[1];
  if (p.notSampled) return p.notSampled;
  return `${fmt(ms)}: ${p.size}${p.complete ? '' : ' (incomplete)'} >= ${p.lowerBound}${anchor ? `, best known ${anchor}` : ''}`;
}

const NAMED = ['automotive2_4.uvl', 'automotive01.uvl', 'Financial_Services', 'linux-2.6.33.3.uvl'];

function printTable(outcomes: Outcome[], timeoutMs: number): void {
  const largest = [...outcomes].sort((a, b) => b.features - a.features).slice(0, 10);
  const named = outcomes.filter((o) => NAMED.some((n) => o.path.includes(n)) && !largest.includes(o));
  const header = ['model', 'features', 'nodes', ...OPERATIONS];
  const rows = [...largest, ...named].map((o) => [o.path.split('/').slice(-2).join('/'), String(o.features), o.nodes === undefined ? '-' : String(o.nodes), ...OPERATIONS.map((op) => cell(o, op))]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(`\nThe ten largest models, then the named ones (CPU time; budget ${timeoutMs / 1000} s for the compile and for pairwise; sample: 1 000 uniform samples; configurator: its build and a first step; configure: a warm step of 3 random decisions):`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}

function printSummary(outcomes: Outcome[]): void {
  const small = outcomes.filter((o) => o.features <= 1000);
  console.log(`\nModels: ${outcomes.length}; timeouts ${outcomes.filter((o) => o.timedOut).length}; errors ${outcomes.filter((o) => o.error).length}.`);
  console.log(`Models of at most 1 000 features: ${small.length}. Within 1 s:`);
  for (const op of OPERATIONS) {
    const slow = small.filter((o) => !(typeof o.ms[op] === 'number' && o.ms[op]! < 1000));
    const names = slow.map((o) => `${o.path.split('/').pop()} ${cell(o, op)}`).join('; ');
    console.log(`  ${op}: ${small.length - slow.length}${slow.length ? ` (not: ${names})` : ''}`);
  }
}

function fmt(ms: number): string {
  return ms < 1000 ? `${ms.toFixed(0)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

function runOne(job: Job, manifestFeatures: number): Promise<Outcome> {
  return new Promise((resolvePromise) => {
    const outcome: Outcome = { path: job.path, features: manifestFeatures, ms: {} };
    const worker = startTypeScriptWorker(new URL(import.meta.url), { workerData: job, resourceLimits: { maxOldGenerationSizeMb: 4096 } });
    let settled = false;
    const finish = (error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(guard);
      if (error) outcome.error = error;
      void worker.terminate();
      resolvePromise(outcome);
    };
    // The compile and the pairwise sampling check their deadlines (a budget each); the queries
    // do not: past both budgets (and a margin for starting the worker) the operation in
    // progress is counted out of time.
    const guard = setTimeout(() => {
      outcome.timedOut ??= OPERATIONS.find((op) => !(op in outcome.ms));
      finish();
    }, 2 * job.timeoutMs + 10_000);
    worker.on('message', (r: Report) => {
      if (r.kind === 'features') outcome.features = r.features;
      else if (r.kind === 'op') {
        outcome.ms[r.op] = r.ms;
        if (r.nodes !== undefined) outcome.nodes = r.nodes;
        if (r.pairwise) outcome.pairwise = r.pairwise;
      } else if (r.kind === 'timeout') outcome.timedOut = r.op;
      else finish();
    });
    worker.once('error', (e) => finish(e.message));
    worker.once('exit', (code) => finish(`worker exited with ${code}`));
  });
}

if (!isMainThread) {
  runJob(workerData as Job, (r) => parentPort!.postMessage(r));
} else {
  await main();
}
