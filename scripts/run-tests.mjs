#!/usr/bin/env node
// Runs the type check, then every *.test.ts file with Node's own test runner.
// Arguments narrow the run to files whose path contains one of them.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

// The test files that stage, upload, serve, zip, export or analyse stored files: after the main
// run they run a second time with every test server on its own bucket of a test S3 server
// (TEST_STORAGE=s3, test/support/server.ts), on SQLite (the store does not depend on the database).
const STORED_FILE_TESTS = [
  'src/modules/analysis/analysis.test.ts',
  'src/modules/analysis/analysis.edit.test.ts',
  'src/modules/configurator/configurator.evict.test.ts',
  'src/modules/api/api.flow.test.ts',
  'src/modules/dataset/rest/dataset.api.test.ts',
  'src/modules/dataset/pages/dataset.doi-page.test.ts',
  'src/modules/dataset/lifecycle/dataset.edit.test.ts',
  'src/modules/cart/cart.routes.test.ts',
  'src/modules/dataset/dataset.everyday.test.ts',
  'src/modules/dataset/pages/dataset.pages.test.ts',
  'src/modules/dataset/staging/dataset.staging.test.ts',
  'src/modules/dataset/staging/dataset.formats.test.ts',
  'src/modules/dataset/publication/dataset.upload.test.ts',
  'src/modules/dataset/lifecycle/dataset.versions.test.ts',
  'src/modules/hubfile/hubfile.routes.test.ts',
  'src/modules/model/model.routes.test.ts',
  'src/modules/modeltool/modeltool.routes.test.ts',
  'src/modules/review/review.routes.test.ts',
  'test/browser/dataset.test.ts',
  'test/browser/formats.test.ts',
  'test/browser/lifecycle.test.ts',
  'test/crash/crash.test.ts',
  'test/crash/crash-lifecycle.test.ts',
];
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
const runFiles = (list, env) => spawnSync(process.execPath, [
  // --test-force-exit: a file whose tests have all ended exits even if a handle leaked (a worker
  // started while the app closed once kept a CI run waiting); the tests themselves still decide.
  '--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-force-exit', '--test-reporter=spec', ...list,
], { stdio: 'inherit', cwd: root, env }).status ?? 1;
const status = runFiles(files, process.env);
if (status !== 0) process.exit(status);

if (filters.length === 0 && process.env.TEST_STORAGE === undefined) {
  const missing = STORED_FILE_TESTS.filter((f) => !files.includes(f));
  if (missing.length > 0) { console.error(`STORED_FILE_TESTS names files that do not exist: ${missing.join(', ')}`); process.exit(1); }
  console.log(`Running ${STORED_FILE_TESTS.length} test files again on the test S3 server (TEST_STORAGE=s3, SQLite)…`);
  process.exit(runFiles(STORED_FILE_TESTS, { ...process.env, TEST_STORAGE: 's3', TEST_DATABASE_URLS: '' }));
}
process.exit(0);
