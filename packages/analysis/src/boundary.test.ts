// The engine stays a library: its code imports only its own files and the UVL library's public
// entry point — no Node modules, no packages, nothing of the hub.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const src = dirname(fileURLToPath(import.meta.url));
const uvlEntry = resolve(src, '../../uvl/src/index.ts');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const path = join(dir, e);
    if (statSync(path).isDirectory()) return sources(path);
    return e.endsWith('.ts') && !e.endsWith('.test.ts') && !e.endsWith('.support.ts') ? [path] : [];
  });
}

test('engine code imports only its own modules and the UVL library entry point', () => {
  const offences: string[] = [];
  for (const file of sources(src)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/g)) {
      const spec = m[1]!;
      const target = resolve(dirname(file), spec);
      const inside = spec.startsWith('.') && !relative(src, target).startsWith('..');
      if (!inside && target !== uvlEntry) offences.push(`${relative(src, file)}: ${spec}`);
    }
  }
  assert.deepEqual(offences, []);
});
