// Reading the project's imports from its source text, for the tests that enforce the layout
// (src/core/boundaries.test.ts, src/app/structure.test.ts).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Every .ts file under `dir`, browser assets and node_modules left out. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return entry === 'assets' || entry === 'node_modules' ? [] : sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** The specifiers a file imports, re-exports, loads dynamically or augments (`declare module`). */
export function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|declare module\s+['"]([^'"]+)['"]|^import\s+['"]([^'"]+)['"]/gm)]
    .map((m) => m[1] ?? m[2] ?? m[3] ?? m[4]!);
}

/** The absolute paths of a file's relative imports (package imports left out). */
export function relativeImportsOf(file: string): string[] {
  return importsOf(file).filter((spec) => spec.startsWith('.')).map((spec) => resolve(dirname(file), spec));
}

/** Tests and their helpers assemble the whole application; the layout rules are about the code they test. */
export function isTestCode(file: string): boolean {
  return /\.test\.ts$|\.support\.ts$|test-support\.ts$/.test(file);
}

/**
 * The relative imports that load code when the file runs: `import type`, `export type` and
 * `typeof import(...)` are erased by the compiler and left out.
 */
export function runtimeImportsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const pattern = /(?:^|[;\n])\s*(?:import|export)\s+(?!type\b)[^'";]*?from\s+['"]([^'"]+)['"]|(?<!typeof\s+)import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm;
  return [...text.matchAll(pattern)]
    .map((m) => m[1] ?? m[2] ?? m[3]!)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => resolve(dirname(file), spec));
}
