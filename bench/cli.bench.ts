// The command line's start-up (npm run bench:cli; issue 12): the wall time of `hub uvl check` on a
// one-line model, through the `hub` executable (which picks the compiled build when it is current)
// and through the compiled entry point directly, next to a bare `node -e 0` measured in the same
// run. Builds first when the build is missing or stale. Prints figures; asserts nothing.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectPath } from '../src/core/config.ts';
// @ts-expect-error: a plain JavaScript module of the scripts folder, without type declarations.
import { buildIsCurrent } from '../scripts/build-state.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);

if (!buildIsCurrent()) {
  const build = spawnSync(process.execPath, [projectPath('scripts/build.mjs')], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(1);
}
const dir = mkdtempSync(join(tmpdir(), 'hub-bench-cli-'));
const model = join(dir, 'one.uvl');
writeFileSync(model, 'features\n    A\n');

function wallTimes(args: string[]): number[] {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    const run = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (run.status !== 0) throw new Error(`${args.join(' ')} failed: ${run.stderr}`);
  }
  return times.sort((a, b) => a - b);
}

const rows: [string, string[]][] = [
  ['node -e 0 (bare Node start)', ['-e', '0']],
  ['hub uvl check (bin/hub.mjs)', [projectPath('bin/hub.mjs'), 'uvl', 'check', model]],
  ['hub uvl check (build/src/cli/hub.js)', [projectPath('build/src/cli/hub.js'), 'uvl', 'check', model]],
];
console.log(`${RUNS} runs each; wall time in ms`);
console.log(`${'command'.padEnd(40)} ${'median'.padStart(7)} ${'p90'.padStart(7)} ${'min'.padStart(7)}`);
for (const [label, args] of rows) {
  const t = wallTimes(args);
  const at = (q: number) => t[Math.min(t.length - 1, Math.floor(q * t.length))]!.toFixed(0);
  console.log(`${label.padEnd(40)} ${at(0.5).padStart(7)} ${at(0.9).padStart(7)} ${t[0]!.toFixed(0).padStart(7)}`);
}
rmSync(dir, { recursive: true, force: true });
