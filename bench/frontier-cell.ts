// Profiling aid for the approximate counter (extensions 6a): one hash cell of a frontier model,
// `node --import tsx bench/frontier-cell.ts <corpus path> <m> [seed]`, the support being the
// variant features (or the independent support cached in $CELL_SUPPORT, a JSON list). Prints the
// cell's size up to the threshold, the models the solver found and the wall and CPU time.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Deadline, modelBackbone, satEncoding } from '../packages/analysis/src/index.ts';
import { Cell } from '../packages/analysis/src/count/approx-cell.ts';
import { generator, Hash } from '../packages/analysis/src/count/approx.ts';
import { independentSupport } from '../packages/analysis/src/count/independent-support.ts';
import { modelClauses } from '../packages/analysis/src/encode.ts';
import { parseUvl } from '../packages/uvl/src/index.ts';
import { findCorpus } from '../packages/uvl/src/corpus.support.ts';
import { fileLoader } from '../src/cli/uvl-files.ts';

const corpus = findCorpus()!;
const file = join(corpus.dir, process.argv[2]!);
const m = Number(process.argv[3] ?? 0);
const seed = Number(process.argv[4] ?? 1);
const text = readFileSync(file, 'utf8');
const enc = satEncoding(parseUvl(text, { fileName: file, loader: fileLoader }).model!, text);
const clauses = modelClauses(enc);
const backbone = modelBackbone(enc, Deadline.after(60_000))!.value;
const variant: number[] = [];
for (let v = enc.featureVars; v >= 1; v--) if (backbone[v] === 0) variant.push(v);
const cache = process.env.CELL_SUPPORT;
let support = variant;
if (cache && existsSync(cache)) support = JSON.parse(readFileSync(cache, 'utf8')) as number[];
else if (cache) {
  support = independentSupport(enc.numVars, clauses, variant, { featureVars: enc.featureVars, deadline: Deadline.after(600_000) });
  writeFileSync(cache, JSON.stringify(support));
}
const random = generator(seed);
random(); // the unhashed check's Hash draws nothing: the first iteration's rows come next
const hash = new Hash(support.length, random);
const cpu = process.cpuUsage();
const start = performance.now();
const cell = new Cell(enc.numVars, clauses, support, hash.first(m), enc.featureVars);
const built = performance.now() - start;
const size = cell.count(73, Deadline.after(Number(process.env.CELL_TIMEOUT_S ?? 120) * 1000));
const used = process.cpuUsage(cpu);
process.stdout.write(`${process.argv[2]} m ${m} seed ${seed}: support ${support.length}, size ${size ?? 'out of time'}, ${cell.models} models, largest class 2^${cell.largestClass}; built ${built.toFixed(0)} ms, total ${(performance.now() - start).toFixed(0)} ms wall, ${((used.user + used.system) / 1000).toFixed(0)} ms CPU\n`);
