// `npm run bench:uvl`: the five largest corpus models: size, median parse+validate time,
// throughput, peak memory, and the time of each conversion.
// Targets (2-core machine): the largest (~800 KB) parsed and validated in < 50 ms,
// converted to CNF in < 200 ms.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkUvl, parseUvl, printUvl, toCnf, toGlencoe, toSplot, type UvlModel } from '../packages/uvl/src/index.ts';

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
