#!/usr/bin/env node
// npm start. Production (FLASK_ENV, else NODE_ENV, is `production`) runs the compiled build,
// compiling it first when it is missing or older than the sources (a deploy that pulled new
// code); development runs the TypeScript sources through tsx, so a fresh clone starts at once.
import { spawnSync } from 'node:child_process';
import 'dotenv/config';
import { buildIsCurrent, root } from './build-state.mjs';

const production = (process.env.FLASK_ENV || process.env.NODE_ENV) === 'production';
if (production && !buildIsCurrent()) {
  console.error('hub: the compiled build is missing or older than the sources; running npm run build first');
  const build = spawnSync(process.execPath, [new URL('./build.mjs', import.meta.url).pathname], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
// The server stays in this process, so that signals (SIGTERM from docker stop) reach it directly.
if (production) await import('../build/src/app/server.js').then((m) => m.serve());
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/app/server.ts').then((m) => m.serve());
}
