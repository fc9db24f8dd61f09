// `npm run bench:configure-steps`: the configurator's warm steps on automotive2_4 in this process,
// with the same decisions as `bench:configure-http` (LCG seed 42: each step adds one random
// decision among the features the previous step left open), so that the engine's share of that
// bench is seen without HTTP, messaging and JSON. Prints per step the wall and CPU time of the
// propagation (states of every feature) and of the count on the compiled form, then median, p95
// and max of each. CPU time (process.cpuUsage) because the machine is shared; `uptime` beside it.
// BENCH_RUNS=<n> steps (default 40); BENCH_MODEL=<corpus path> another model; BENCH_WHY=<k> asks
// "why" for a forced or excluded feature after every k-th step (the step after it is the one the
// configurator page found slow); BENCH_COUNT=0 skips the count (and the compile);
// BENCH_PROFILE=<file> writes a CPU profile of the steps only (not the build) to that file.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import { compileModel, Configurator, Deadline, type ConfigurationCounter } from '../packages/analysis/src/index.ts';
import { parseUvl } from '../packages/uvl/src/index.ts';
import { findCorpus } from '../packages/uvl/src/corpus.support.ts';
import { decisionSequence } from './configure-decisions.ts';

const STEPS = Number(process.env.BENCH_RUNS ?? 40);
const MODEL = process.env.BENCH_MODEL ?? 'real/Feature_Models/Automotive/Automotive02/automotive2_4.uvl';
const WHY_EVERY = Number(process.env.BENCH_WHY ?? 0);
const COUNT = process.env.BENCH_COUNT !== '0';
const corpus = findCorpus();
if (!corpus) {
  console.error('UVL corpus not found (set UVL_CORPUS)');
  process.exit(1);
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;
const cpuSince = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
const load = () => execFileSync('uptime', { encoding: 'utf8' }).trim();

const text = corpus.read(MODEL);
const { model } = parseUvl(text);
let start = performance.now();
const compiled = COUNT ? compileModel(model, { text, deadline: Deadline.after(600_000) }) : null;
if (COUNT) console.log(`compiled in ${(performance.now() - start).toFixed(0)} ms`);
let countCpu = 0;
const counter: ConfigurationCounter = (assumptions) => {
  const s = process.cpuUsage();
  const n = compiled!.count(assumptions);
  countCpu += cpuSince(s);
  return n;
};
start = performance.now();
const configurator = new Configurator(model, { text, counter });
const first = configurator.configure({ selected: [], deselected: [] }, { countTimeoutMs: COUNT ? 30_000 : 0 });
console.log(`configurator built and first step in ${(performance.now() - start).toFixed(0)} ms; ${MODEL}`);
console.log(`load before: ${load()}`);
if (!first.consistent) throw new Error('the model is void');

const PROFILE = process.env.BENCH_PROFILE;
const session = PROFILE ? new Session() : null;
if (session) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}

interface Row { wall: number; cpu: number; propagate: number; propagateCpu: number; count: number; countCpu: number }
const rows: Row[] = [];
const decisions = decisionSequence();
const { selected, deselected } = decisions;
let states: Record<string, string> = first.features;
for (let i = 0; i < STEPS; i++) {
  if (!decisions.next(states)) break;
  countCpu = 0;
  const cpu = process.cpuUsage();
  const wallStart = performance.now();
  const step = configurator.configure({ selected, deselected }, { countTimeoutMs: COUNT ? 30_000 : 0 });
  const wall = performance.now() - wallStart;
  const stepCpu = cpuSince(cpu);
  if (!step.consistent) throw new Error('a decision among open features cannot conflict');
  states = step.features;
  const t = step.timings_ms;
  const row = { wall, cpu: stepCpu, propagate: t.propagate ?? 0, propagateCpu: stepCpu - countCpu, count: t.count ?? 0, countCpu };
  rows.push(row);
  const openNow = Object.values(states).filter((s) => s === 'open').length;
  console.log(`step ${String(i + 1).padStart(2)}: wall ${row.wall.toFixed(0).padStart(4)} ms (propagate ${row.propagate}, count ${row.count}); cpu ${row.cpu.toFixed(0).padStart(4)} ms (propagate ${row.propagateCpu.toFixed(0)}, count ${row.countCpu.toFixed(0)}); open ${openNow}`);
  const s = configurator.lastStepStats;
  console.log(`    witnesses ${s.witnesses}, candidates left ${s.candidates}, patches ${s.patches}, SAT calls ${s.satCalls}; ms: unit propagation ${s.ms.propagate.toFixed(1)}, witnesses ${s.ms.witnesses.toFixed(1)}, sweep ${s.ms.sweep.toFixed(1)}`);
  if (WHY_EVERY > 0 && (i + 1) % WHY_EVERY === 0) {
    // One the decisions implied (the model's own core is explained by the tree, at once).
    const isImplied = (n: string) => states[n] === 'forced' || states[n] === 'excluded';
    const implied = Object.keys(states).find((n) => isImplied(n) && first.features[n] === 'open') ?? Object.keys(states).find(isImplied);
    if (implied) {
      const whyStart = performance.now();
      configurator.why({ selected, deselected }, implied);
      console.log(`  why ${implied}: ${(performance.now() - whyStart).toFixed(0)} ms`);
    }
  }
}
if (session) {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(PROFILE!, JSON.stringify(profile));
}
const summary = (label: string, xs: number[]) => console.log(`${label.padEnd(16)} median ${quantile(xs, 0.5).toFixed(0).padStart(4)} ms, p95 ${quantile(xs, 0.95).toFixed(0).padStart(4)} ms, max ${Math.max(...xs).toFixed(0).padStart(4)} ms`);
console.log(`\n${rows.length} warm steps of 1..${rows.length} decisions:`);
summary('wall', rows.map((r) => r.wall));
summary('cpu', rows.map((r) => r.cpu));
summary('propagate wall', rows.map((r) => r.propagate));
summary('propagate cpu', rows.map((r) => r.propagateCpu));
summary('count wall', rows.map((r) => r.count));
summary('count cpu', rows.map((r) => r.countCpu));
console.log(`load after: ${load()}`);
