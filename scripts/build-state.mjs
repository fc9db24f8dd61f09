// Whether the compiled build (npm run build, in build/) is current: it exists and its stamp is
// newer than every TypeScript source it was compiled from. Plain JavaScript, so that the `hub`
// executable and `npm start` can ask before any loader is registered (a few hundred stats).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const root = new URL('..', import.meta.url).pathname;
export const buildDir = join(root, 'build');
export const stampFile = join(buildDir, '.stamp');
const SOURCES = ['src', 'packages', 'migrations'];

function newestSource(dir, newest = 0) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return newest;
  }
  for (const entry of entries) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = newestSource(path, newest);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

export function buildIsCurrent() {
  let stamp;
  try {
    stamp = statSync(stampFile).mtimeMs;
  } catch {
    return false;
  }
  return SOURCES.every((dir) => newestSource(join(root, dir)) <= stamp);
}
