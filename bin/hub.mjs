#!/usr/bin/env node
// Entry of the `hub` executable: the compiled build when it is current (npm run build), else the
// TypeScript sources through tsx (development, or a build older than the sources).
import { buildIsCurrent } from '../scripts/build-state.mjs';

if (buildIsCurrent()) {
  await import('../build/src/cli/hub.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/hub.ts');
}
