// `npm run bench:frontier`: the models at the engine's frontier (extensions 6a), linux-2.6.33.3
// and automotive2_4 (BENCH_ONLY=<part of a path> narrows the list, BENCH_MODELS=<paths> replaces
// it), each: the approximate count (ApproxMC, ε 0.8, δ 0.2) with its time, guarantee and, where
// the exact count is known within the budget, its ratio to it; then the full analysis (budget
// 60 s, as the hub runs it) with its operations' times; then the configurator without the compiled
// form (extensions 6a: states by SAT under assumptions, no count): cold (build and first step) and
// BENCH_STEPS warm steps (default 20) of the decisions bench:configure-steps replays, their median
// and p95, wall and CPU time. Budget of the estimate: BENCH_TIMEOUT_S (default 600); BENCH_CELLS=1
// prints each hash cell as it is counted; BENCH_EXACT_MAX_VARS=N hashes the components of more
// than N variables instead of counting them exactly (to time the hashing), BENCH_FACTOR=0 hashes
// everything (estimate.ts `factor: false`; factoring is on by default, in the analysis too); BENCH_PARTS=estimate,exact,analysis,configure (default
// all) picks sections. Wall-clock and CPU times on whatever else the machine is doing, with
// `uptime` printed beside them: run it on a quiet one.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeModel, bigLog10, Configurator, countConfigurations, Deadline, estimateConfigurations, modelBackbone, satEncoding } from '../packages/analysis/src/index.ts';
import type { UvlModel } from '../packages/uvl/src/index.ts';
import { decisionSequence } from './configure-decisions.ts';
import { parseUvl } from '../packages/uvl/src/index.ts';
import { findCorpus } from '../packages/uvl/src/corpus.support.ts';
import { fileLoader } from '../src/cli/uvl-files.ts';
import { pairwiseSection } from './frontier-pairwise.ts';

const corpus = findCorpus();
if (!corpus) throw new Error('UVL corpus not found (set UVL_CORPUS or put it at ../shared/uvl-corpus)');
const DEFAULT_MODELS = ['real/Feature_Models/Operating_Systems/Linux/linux-2.6.33.3.uvl', 'real/Feature_Models/Automotive/Automotive02/automotive2_4.uvl'];
const paths = (process.env.BENCH_MODELS?.split(',') ?? DEFAULT_MODELS).filter((p) => !process.env.BENCH_ONLY || p.includes(process.env.BENCH_ONLY));
const budgetMs = Number(process.env.BENCH_TIMEOUT_S ?? 600) * 1000;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const parts = new Set((process.env.BENCH_PARTS ?? 'estimate,exact,analysis,configure').split(','));
const STEPS = Number(process.env.BENCH_STEPS ?? 20);
const load = () => execFileSync('uptime', { encoding: 'utf8' }).trim().replace(/.*load/, 'load');
const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))] ?? NaN;

/** The configurator without the compiled form: cold (build and first step), then warm steps. */
function configureSteps(model: UvlModel, text: string): void {
  let cpu = process.cpuUsage();
  let start = performance.now();
  const configurator = new Configurator(model, { text });
  const first = configurator.configure({ selected: [], deselected: [] }, { countTimeoutMs: 0 });
  if (!first.consistent) throw new Error('the model is void');
  let states: Record<string, string> = first.features;
  process.stdout.write(`  configure cold (build and first step, no count): ${(performance.now() - start).toFixed(0)} ms wall, ${cpuMs(cpu).toFixed(0)} ms CPU\n`);
  const decisions = decisionSequence();
  const wall: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < STEPS && decisions.next(states); i++) {
    cpu = process.cpuUsage();
    start = performance.now();
    const step = configurator.configure({ selected: decisions.selected, deselected: decisions.deselected }, { countTimeoutMs: 0 });
    wall.push(performance.now() - start);
    cpus.push(cpuMs(cpu));
    if (!step.consistent) throw new Error('a decision among open features cannot conflict');
    states = step.features;
  }
  const f = (xs: number[]) => `median ${quantile(xs, 0.5).toFixed(0)} ms, p95 ${quantile(xs, 0.95).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms`;
  process.stdout.write(`  configure warm, ${wall.length} steps of 1..${wall.length} decisions: wall ${f(wall)}; CPU ${f(cpus)} (${load()})\n`);
}

type Encoded = ReturnType<typeof satEncoding>;
type Estimate = ReturnType<typeof estimateConfigurations>;

/** The backbone, then the estimate with its time and guarantee. */
function estimateSection(enc: Encoded): Estimate {
  let start = performance.now();
  const backbone = modelBackbone(enc, Deadline.after(budgetMs))?.value;
  const variant = backbone ? Array.from(backbone.subarray(1, enc.featureVars + 1)).filter((v) => v === 0).length : enc.featureVars;
  process.stdout.write(`  backbone: ${seconds(performance.now() - start)} (${variant} variant features hashed)\n`);
  start = performance.now();
  // BENCH_CELLS=1: every cell as it is counted (iteration, XOR rows, solutions up to the threshold, time).
  const onCell = process.env.BENCH_CELLS ? (i: number, m: number, size: number | null, ms: number) => process.stdout.write(`    iteration ${i}, m ${m}: ${size ?? 'out of time'} in ${ms} ms\n`) : undefined;
  const cpu = process.cpuUsage();
  // BENCH_EXACT_MAX_VARS=N: components of more than N variables are hashed even when the exact counter would finish them.
  const exactMaxVars = process.env.BENCH_EXACT_MAX_VARS ? Number(process.env.BENCH_EXACT_MAX_VARS) : undefined;
  // BENCH_FACTOR=0: everything hashed (estimate.ts `factor: false`, as `hub uvl count --approx --hash-all`).
  const factor = process.env.BENCH_FACTOR !== '0';
  const estimate = estimateConfigurations(enc, { backbone, deadline: Deadline.after(budgetMs), onCell, exactMaxVars, factor });
  const ms = performance.now() - start;
  if (estimate === null) process.stdout.write(`  estimate: not within ${seconds(budgetMs)}\n`);
  else process.stdout.write(`  estimate: ${estimate.value.toString().length > 15 ? `10^${estimate.log10.toFixed(2)}` : estimate.value} in ${seconds(ms)} (${seconds(cpuMs(cpu))} CPU; ${load()}), within a factor ${1 + estimate.epsilon} with probability >= ${1 - estimate.delta}; ${estimate.method}\n`);
  return estimate;
}

for (const path of paths) {
  const file = join(corpus.dir, path);
  const text = readFileSync(file, 'utf8');
  const { model } = parseUvl(text, { fileName: file, loader: fileLoader });
  const enc = satEncoding(model, text);
  process.stdout.write(`\n${path}: ${enc.featureVars} features (${load()})\n`);
  const estimate = parts.has('estimate') ? estimateSection(enc) : null;
  if (parts.has('exact')) {
    const start = performance.now();
    const exact = countConfigurations(model, enc, Deadline.after(60_000), text);
    const exactMs = performance.now() - start;
    process.stdout.write(`  exact count (60 s): ${exact === null ? 'out of time' : `10^${bigLog10(exact).toFixed(2)} in ${seconds(exactMs)}`}`);
    if (exact !== null && estimate !== null && exact > 0n) process.stdout.write(`; estimate / exact = ${(Number((estimate.value * 1_000_000n) / exact) / 1e6).toFixed(3)}`);
    process.stdout.write('\n');
  }
  if (parts.has('analysis')) {
    const start = performance.now();
    const result = analyzeModel(model, { text, timeoutMs: 60_000 });
    process.stdout.write(`  analysis (60 s budget): ${seconds(performance.now() - start)}; timeouts: ${result.timeouts?.join(', ') ?? 'none'}; estimate: ${result.configurations_estimate ? `10^${result.configurations_estimate.log10}` : 'none'} (${load()})\n`);
    process.stdout.write(`  operations (ms): ${JSON.stringify(result.timings_ms)}\n`);
  }
  if (parts.has('configure')) configureSteps(model, text);
}

const PAIRWISE_MODELS = [
  ...DEFAULT_MODELS,
  'real/Feature_Models/Automotive/Automotive01/automotive01.uvl',
  'real/Feature_Models/Financial_Services/Financial_Services_01/Evolution/2018-04-23.uvl',
];
if (process.env.BENCH_PAIRWISE !== '0') {
  for (const path of (process.env.BENCH_MODELS?.split(',') ?? PAIRWISE_MODELS).filter((p) => !process.env.BENCH_ONLY || p.includes(process.env.BENCH_ONLY))) {
    process.stdout.write(`\n${path}\n`);
    pairwiseSection(path, join(corpus.dir, path));
  }
}
