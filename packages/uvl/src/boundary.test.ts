// The library stays self-contained (design habit 4): its code imports only its own files —
// no Node modules, nothing of the hub, and one package: the XML parser of the FeatureIDE and
// SXFM readers (issue 27 asks for a well-kept parser rather than a hand-written one).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const src = dirname(fileURLToPath(import.meta.url));
const ALLOWED_PACKAGES = new Set(['fast-xml-parser']);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const path = join(dir, e);
    if (statSync(path).isDirectory()) return sources(path);
    return e.endsWith('.ts') && !e.endsWith('.test.ts') && !e.endsWith('.support.ts') ? [path] : [];
  });
}

test('library code imports only its own modules', () => {
  const offences: string[] = [];
  for (const file of sources(src)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/g)) {
      const spec = m[1]!;
      if (ALLOWED_PACKAGES.has(spec)) continue;
      const target = resolve(dirname(file), spec);
      if (!spec.startsWith('.') || relative(src, target).startsWith('..')) offences.push(`${relative(src, file)}: ${spec}`);
    }
  }
  assert.deepEqual(offences, []);
});
