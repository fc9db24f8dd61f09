#!/usr/bin/env node
// Runs the type check, then every *.test.ts file with Node's own test runner.
// Arguments narrow the run to files whose path contains one of them.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const roots = ['packages', 'src', 'test'];
const filters = process.argv.slice(2);

function findTests(dir, found) {
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) findTests(path, found);
    else if (entry.endsWith('.test.ts')) found.push(relative(root, path));
  }
  return found;
}

const files = roots
  .flatMap((r) => { try { return findTests(join(root, r), []); } catch { return []; } })
  .filter((f) => filters.length === 0 || filters.some((needle) => f.includes(needle)))
  .sort();

if (filters.length === 0 || process.env.TYPECHECK === '1') {
  console.log('Type check (tsc --noEmit)…');
  const tsc = spawnSync('npx', ['tsc', '--noEmit', '-p', root], { stdio: 'inherit', cwd: root });
  if (tsc.status !== 0) { console.error('Type check failed.'); process.exit(1); }
}

if (files.length === 0) { console.error('No test files found.'); process.exit(1); }
console.log(`Running ${files.length} test files…`);
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
const run = spawnSync(process.execPath, [
  '--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files,
], { stdio: 'inherit', cwd: root, env: process.env });
process.exit(run.status ?? 1);
