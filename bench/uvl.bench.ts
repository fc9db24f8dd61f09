// `npm run bench:uvl`: the five largest corpus models: size, median parse+validate time,
// throughput, peak memory, and the time of each conversion.
// Targets (2-core machine): the largest (~800 KB) parsed and validated in < 50 ms,
// converted to CNF in < 200 ms.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkUvl, MAX_DEPTH, parseUvl, printUvl, toCnf, toGlencoe, toSplot, type UvlModel } from '../packages/uvl/src/index.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const corpusDir = process.env.UVL_CORPUS ?? join(root, '../shared/uvl-corpus');
const runs = Number(process.env.BENCH_RUNS ?? 15);

let manifest: { files: { path: string; bytes: number; valid: boolean }[] };
try {
  manifest = JSON.parse(readFileSync(join(corpusDir, 'manifest.json'), 'utf8'));
} catch {
  console.error(`UVL corpus not found at ${corpusDir} (set UVL_CORPUS)`);
  process.exit(1);
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}
function time(fn: () => unknown): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

const largest = manifest.files.filter((f) => f.valid).sort((a, b) => b.bytes - a.bytes).slice(0, 5);
const rows: string[][] = [];
for (const f of largest) {
  const text = readFileSync(join(corpusDir, f.path), 'utf8');
  const bytes = statSync(join(corpusDir, f.path)).size;
  for (let i = 0; i < 3; i++) checkUvl(text); // warm up
  const parse = median(Array.from({ length: runs }, () => time(() => checkUvl(text))));
  const model: UvlModel = parseUvl(text).model;
  const conversions = Object.entries({ cnf: toCnf, splot: toSplot, glencoe: toGlencoe, uvl: printUvl }).map(([name, fn]) => {
    fn(model);
    return [name, median(Array.from({ length: Math.max(5, Math.floor(runs / 2)) }, () => time(() => fn(model))))] as const;
  });
  rows.push([
    f.path.split('/').pop()!,
    `${(bytes / 1024).toFixed(0)} KB`,
    `${parse.toFixed(1)} ms`,
    `${(bytes / 1024 / 1024 / (parse / 1000)).toFixed(1)}`,
    ...conversions.map(([, ms]) => `${ms.toFixed(1)} ms`),
  ]);
}
const usage = process.resourceUsage();
const header = ['model', 'size', 'parse+validate (median)', 'MB/s', 'to CNF', 'to SPLOT', 'to Glencoe', 'to UVL'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const r of rows) console.log(line(r));
console.log(`\npeak memory: maxRSS ${(usage.maxRSS / 1024).toFixed(0)} MB; heap used now ${(process.memoryUsage().heapUsed / 1024 / 1024).toFixed(0)} MB; ${runs} runs per median`);
const big = rows[0]!;
const parseMs = Number.parseFloat(big[2]!);
const cnfMs = Number.parseFloat(big[4]!);
console.log(`targets on ${big[0]}: parse+validate ${parseMs.toFixed(1)} ms (< 50: ${parseMs < 50 ? 'met' : 'MISSED'}), CNF ${cnfMs.toFixed(1)} ms (< 200: ${cnfMs < 200 ? 'met' : 'MISSED'})`);

// Linear time: the same model shape at growing sizes; linear growth keeps the time per KB flat.
const unit = 'features\n    Root\n        optional\n' + Array.from({ length: 200 }, (_, i) => `            F${i} {price ${i}}\n`).join('') + 'constraints\n';
const constraintLine = (i: number) => `    F${i % 200} => (F${(i + 1) % 200} | !F${(i + 2) % 200}) & F${(i + 3) % 200}.price > 2\n`;
console.log('\nscaling (parse+validate of n generated constraints, median):');
for (const n of [2_000, 8_000, 32_000]) {
  const text = unit + Array.from({ length: n }, (_, i) => constraintLine(i)).join('');
  checkUvl(text);
  const ms = median(Array.from({ length: 5 }, () => time(() => checkUvl(text))));
  console.log(`  n=${String(n).padStart(6)}  ${(text.length / 1024).toFixed(0).padStart(5)} KB  ${ms.toFixed(1).padStart(7)} ms  ${(ms / (text.length / 1024) * 1000).toFixed(1)} µs/KB`);
}

// Generated extremes (packages/uvl/src/generated.test.ts checks their results): one group of
// n features, where each feature of a mandatory group is a relation of its own (Glencoe was
// quadratic there: 10 000 features took 1.9 s), and a chain as deep as the parser allows.
const wide = (n: number, group: string) => `features\n    Root\n        ${group}\n${Array.from({ length: n }, (_, i) => `            F${i}\n`).join('')}`;
const chain = (n: number) => `features\n${Array.from({ length: n }, (_, i) => `${'    '.repeat(1 + 2 * i)}F${i}\n${i < n - 1 ? `${'    '.repeat(2 + 2 * i)}optional\n` : ''}`).join('')}`;
console.log('\ngenerated models (median of 3):');
const genHeader = ['model', 'parse+validate', 'to CNF', 'to SPLOT', 'to Glencoe', 'to UVL'];
const genRows: string[][] = [];
for (const [label, text] of [
  ['10 000 in one mandatory group', wide(10_000, 'mandatory')],
  ['50 000 in one mandatory group', wide(50_000, 'mandatory')],
  ['50 000 in one [2..5] group', wide(50_000, '[2..5]')],
  [`chain of ${MAX_DEPTH} features`, chain(MAX_DEPTH)],
] as const) {
  const med3 = (fn: () => unknown) => `${median(Array.from({ length: 3 }, () => time(fn))).toFixed(1)} ms`;
  const model = parseUvl(text).model;
  genRows.push([label, med3(() => checkUvl(text)), ...[toCnf, toSplot, toGlencoe, printUvl].map((fn) => med3(() => fn(model)))]);
}
const genWidths = genHeader.map((h, i) => Math.max(h.length, ...genRows.map((r) => r[i]!.length)));
const genLine = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(genWidths[i]!) : c.padStart(genWidths[i]!))).join('  ');
console.log(genLine(genHeader));
for (const r of genRows) console.log(genLine(r));
