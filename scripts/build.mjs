#!/usr/bin/env node
// npm run build: compiles the runtime code (src, packages, migrations) to JavaScript in build/
// with tsc (tsconfig.build.json), bundles the model editor's browser code (esbuild, into
// .cache/editor/), then writes the stamp that says the build is current.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { buildDir, root, stampFile } from './build-state.mjs';

const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
rmSync(buildDir, { recursive: true, force: true });
const started = Date.now();
const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
if (result.status !== 0) {
  console.error('hub build: tsc failed');
  process.exit(result.status ?? 1);
}
// The model editor's browser bundle (esbuild, from the same sources), so the first visitor of
// /editor does not wait for it; the server would build it on that request otherwise.
const { editorBundle } = await import('../build/src/modules/editor/editor.bundle.js');
await editorBundle();
writeFileSync(stampFile, `${new Date().toISOString()}\n`);
console.log(`hub build: compiled to build/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
