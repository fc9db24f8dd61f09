// Design habit 4: a module imports another only through its index.ts; packages/uvl imports nothing of the app.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { projectPath } from './config.ts';
import { importsOf, sourceFiles } from '../../test/support/imports.ts';

describe('module boundaries', () => {
  const modulesDir = projectPath('src/modules');

  it('modules reach each other only through index.ts', () => {
    const violations: string[] = [];
    for (const file of sourceFiles(modulesDir)) {
      const own = relative(modulesDir, file).split(sep)[0];
      for (const spec of importsOf(file)) {
        if (!spec.startsWith('.')) continue;
        const target = resolve(dirname(file), spec);
        if (!target.startsWith(modulesDir + sep)) continue;
        const [other, ...rest] = relative(modulesDir, target).split(sep);
        if (other !== own && rest.join('/') !== 'index.ts') violations.push(`${relative(projectPath(), file)} imports ${spec}`);
      }
    }
    assert.deepEqual(violations, []);
  });

  it('packages/uvl and packages/analysis use no Node global (they run in the editor\'s browser bundle too)', () => {
    // An import is caught above; a global is not: Buffer in the UVL library once broke the editor
    // in the browser ("Buffer is not defined") while every Node test passed.
    const nodeGlobal = /(?<![\w.$'"`])(Buffer|process|require|__dirname|__filename|setImmediate|global)\s*[.(]/;
    const violations = ['packages/uvl/src', 'packages/analysis/src'].flatMap((dir) => sourceFiles(projectPath(dir))
      .filter((f) => !f.endsWith('.test.ts') && !f.endsWith('.support.ts') && !f.includes('/testing/'))
      .flatMap((file) => readFileSync(file, 'utf8').split('\n').flatMap((line, i) => {
        const code = line.replace(/\/\/.*$/, '');
        return nodeGlobal.test(code) ? [`${relative(projectPath(), file)}:${i + 1}: ${line.trim()}`] : [];
      })));
    assert.deepEqual(violations, []);
  });

  it('packages/uvl imports nothing of the app, no web, database or file system', () => {
    const uvl = projectPath('packages/uvl/src');
    let files: string[] = [];
    // Tests and their support files read the corpus from disk; only the library itself must stay pure.
    try { files = sourceFiles(uvl).filter((f) => !f.endsWith('.test.ts') && !f.endsWith('.support.ts')); } catch { /* not there yet */ }
    assert.ok(files.length > 0, 'the UVL library exists');
    const forbidden = /^(node:)?(fs|fs\/promises|http|https|net|child_process)$|fastify|kysely|better-sqlite3|^pg$|mysql2|nunjucks/;
    const violations = files.flatMap((file) => importsOf(file)
      .filter((spec) => forbidden.test(spec) || spec.endsWith('.support.ts') || (spec.startsWith('.') && !resolve(dirname(file), spec).startsWith(projectPath('packages/uvl'))))
      .map((spec) => `${relative(projectPath(), file)} imports ${spec}`));
    assert.deepEqual(violations, []);
  });

  it('packages/analysis imports only its own files and the UVL library entry point', () => {
    const analysis = projectPath('packages/analysis/src');
    const uvlEntry = projectPath('packages/uvl/src/index.ts');
    const files = sourceFiles(analysis).filter((f) => !f.endsWith('.test.ts') && !f.endsWith('.support.ts'));
    assert.ok(files.length > 0, 'the analysis engine exists');
    const violations = files.flatMap((file) => importsOf(file)
      .filter((spec) => {
        const target = resolve(dirname(file), spec);
        return !spec.startsWith('.') || spec.endsWith('.support.ts') || (!target.startsWith(analysis + sep) && target !== uvlEntry);
      })
      .map((spec) => `${relative(projectPath(), file)} imports ${spec}`));
    assert.deepEqual(violations, []);
  });
});
