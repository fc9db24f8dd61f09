// The pairwise part of `npm run bench:frontier`: a complete pairwise sample of each model (seed 1,
// budget BENCH_PAIRWISE_TIMEOUT_S, default 3 600 s), its size, lower bound, time and peak memory
// beside the anchors, then the independent check (testing/pairwise-check.support.ts): every
// configuration a model of the formula, and the uncovered pairs proven impossible, all of them
// where BENCH_PAIRWISE_EXHAUSTIVE allows it (default: models of at most 3 000 features), else
// 20 000 random uncovered ones. Also `node --import tsx bench/frontier-pairwise.ts FILE.uvl
// SAMPLE.csv` checks a sample written by `hub uvl sample --twise 2` (its CSV) in the same way.
import { createReadStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Deadline, satEncoding, twiseSample } from '../packages/analysis/src/index.ts';
import type { EncodedModel } from '../packages/analysis/src/encode.ts';
import { checkPairwise, type PairwiseCheck } from '../packages/analysis/src/testing/pairwise-check.support.ts';
import { parseUvl } from '../packages/uvl/src/index.ts';
import { fileLoader } from '../src/cli/uvl-files.ts';

/** Best known sizes (Sammy; linux's and Financial Services' are optimal) and the hub's earlier sizes (CPU time: the machine is shared). */
export const PAIRWISE_ANCHORS: Record<string, string> = {
  'linux-2.6.33.3.uvl': 'optimal 483; before: 493 in 167 s',
  'automotive2_4.uvl': 'best known 38 577 (Sammy, 2 273 s); before: refused ("coverage table over 2^31 bits")',
  'automotive01.uvl': 'best known 727, lower bound 529; before: 811 in 222 s CPU (the 600 s budget, load 7-11)',
  '2018-04-23.uvl': 'optimal 4 352; before: 4 404 in 79 s CPU',
};

const exhaustiveUpTo = Number(process.env.BENCH_PAIRWISE_EXHAUSTIVE ?? 3000);

export function pairwiseSection(path: string, file: string): void {
  const text = readFileSync(file, 'utf8');
  const { model } = parseUvl(text, { fileName: file, loader: fileLoader });
  const enc = satEncoding(model, text);
  const budgetMs = Number(process.env.BENCH_PAIRWISE_TIMEOUT_S ?? 3600) * 1000;
  let peak = process.memoryUsage().rss;
  const start = performance.now();
  const result = twiseSample(model, {
    t: 2, seed: 1, text, packed: true, deadline: Deadline.after(budgetMs), progressMs: 5_000,
    onProgress: () => (peak = Math.max(peak, process.memoryUsage().rss)),
  });
  const seconds = (performance.now() - start) / 1000;
  peak = Math.max(peak, process.memoryUsage().rss);
  const anchor = Object.entries(PAIRWISE_ANCHORS).find(([k]) => path.endsWith(k))?.[1] ?? '';
  process.stdout.write(`  pairwise: ${result.size} configurations${result.complete ? '' : ' (INCOMPLETE)'} in ${seconds.toFixed(1)} s, peak RSS ${Math.round(peak / 2 ** 20)} MB; lower bound ${result.lower_bound}; ${result.covered} pairs covered${anchor ? ` [${anchor}]` : ''}\n`);
  process.stdout.write(`    timings (ms): ${JSON.stringify(result.timings_ms)}${result.note ? `; ${result.note}` : ''}\n`);
  const position = new Map(result.features.map((name, p) => [name, p]));
  const columns = enc.names.map((name) => position.get(name)!);
  let selected: (c: number, v: number) => boolean;
  if (result.packed) {
    const { data, rowBytes } = result.packed;
    selected = (c, v) => ((data[c * rowBytes + (columns[v - 1]! >> 3)]! >> (columns[v - 1]! & 7)) & 1) === 1;
  } else {
    const sets = result.configurations.map((names) => new Set(names));
    selected = (c, v) => sets[c]!.has(enc.names[v - 1]!);
  }
  report(enc, result.size, selected);
}

function report(enc: EncodedModel, count: number, selected: (c: number, v: number) => boolean): PairwiseCheck {
  const start = performance.now();
  const exhaustive = enc.featureVars <= exhaustiveUpTo;
  // BENCH_CHECK_CONFIGS: check that many random configurations only; BENCH_CHECK_S: stop drawing pairs then.
  const validity = process.env.BENCH_CHECK_CONFIGS ? Number(process.env.BENCH_CHECK_CONFIGS) : undefined;
  const until = process.env.BENCH_CHECK_S ? Date.now() + Number(process.env.BENCH_CHECK_S) * 1000 : undefined;
  const check = checkPairwise(enc, count, selected, { exhaustive, uncoveredToProve: 20_000, validity, until });
  const uncovered = check.pairsChecked - check.covered;
  process.stdout.write(
    `    independent check (${((performance.now() - start) / 1000).toFixed(1)} s): ${check.validityChecked - check.invalid.length} of ${check.validityChecked} configurations checked valid (of ${check.configurations}); ` +
      `${exhaustive ? 'all' : 'random'} ${check.pairsChecked} pairs: ${check.covered} covered, ${check.provenImpossible} of ${uncovered} uncovered proven impossible` +
      `${check.missed.length > 0 ? `; MISSED ${JSON.stringify(check.missed)}` : ''}${check.invalid.length > 0 ? `; INVALID ${JSON.stringify(check.invalid)}` : ''}\n`,
  );
  return check;
}

/** A CLI sample's CSV (header: the features; one 0/1 row per configuration), checked against the model. */
async function checkCsv(modelFile: string, csvFile: string): Promise<void> {
  const text = readFileSync(modelFile, 'utf8');
  const { model } = parseUvl(text, { fileName: modelFile, loader: fileLoader });
  const enc = satEncoding(model, text);
  const n = enc.featureVars;
  const words = Math.ceil(n / 32);
  const rows: Uint32Array[] = [];
  let columns: number[] = [];
  for await (const line of createInterface({ input: createReadStream(csvFile), crlfDelay: Infinity })) {
    if (columns.length === 0) {
      const variable = new Map(enc.names.map((name, i) => [name, i]));
      columns = line.split(',').map((name) => variable.get(name.replace(/^"|"$/g, '').replace(/""/g, '"')) ?? -1);
      if (columns.some((c) => c < 0) || columns.length !== n) throw new Error('the header does not list the model\'s features');
      continue;
    }
    if (line === '') continue;
    const row = new Uint32Array(words);
    for (let p = 0; p < columns.length; p++) if (line.charCodeAt(2 * p) === 49) row[columns[p]! >>> 5]! |= 1 << (columns[p]! & 31);
    rows.push(row);
  }
  process.stdout.write(`${csvFile}: ${rows.length} configurations of ${n} features\n`);
  report(enc, rows.length, (c, v) => ((rows[c]![(v - 1) >>> 5]! >>> ((v - 1) & 31)) & 1) === 1);
}

if (process.argv[1]?.endsWith('frontier-pairwise.ts') && process.argv.length >= 4) await checkCsv(process.argv[2]!, process.argv[3]!);
