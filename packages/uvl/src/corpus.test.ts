// Conformance with the reference parser on the corpus: every verdict, the first error's
// line, flamapy's counts, and the printer's round trip.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { corpusSkipReason, diskLoader, findCorpus, structuralDifference } from './corpus.support.ts';
import { checkUvl, countModel, formatDiagnostic, parseUvl, printUvl, type ParseResult } from './index.ts';

const corpus = findCorpus();

// Each model is parsed once (with imports resolved on disk) and shared by the tests below.
const parsed = new Map<string, ParseResult>();
function parse(path: string): ParseResult {
  let r = parsed.get(path);
  if (!r) {
    r = parseUvl(corpus!.read(path), { fileName: join(corpus!.dir, path), loader: diskLoader });
    parsed.set(path, r);
  }
  return r;
}

describe('UVL corpus conformance', { skip: corpus ? false : corpusSkipReason }, () => {
  const files = corpus?.files ?? [];

  test('the manifest lists 315 models', () => {
    assert.equal(files.length, 315);
  });

  test('checkUvl gives the same verdict and strings as the parse', () => {
    for (const f of files.filter((x) => x.bytes < 5_000)) {
      const check = checkUvl(corpus!.read(f.path));
      assert.equal(check.valid, f.valid, f.path);
      for (const s of [...check.errors, ...check.warnings]) assert.match(s, /^Line \d+:\d+ - .+/);
    }
  });

  test('every model gets the reference verdict; invalid ones fail on the reference line', () => {
    const wrong: string[] = [];
    for (const f of files) {
      const diagnostics = parse(f.path).diagnostics;
      const result = {
        valid: !diagnostics.some((d) => d.severity === 'error'),
        errors: diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic),
      };
      if (result.valid !== f.valid) wrong.push(`${f.path}: expected ${f.valid ? 'valid' : 'invalid'}, got ${JSON.stringify(result.errors.slice(0, 2))}`);
      else if (!f.valid) {
        const line = Number(/^Line (\d+):/.exec(result.errors[0]!)![1]);
        if (line !== f.first_error_line) wrong.push(`${f.path}: first error on line ${line}, reference ${f.first_error_line}: ${result.errors[0]}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  test('valid models have flamapy\'s feature and constraint counts (skipped where flamapy\'s reader failed: reader_error)', () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const f of files) {
      if (!f.valid || f.features === undefined || f.reader_error) continue;
      const counts = countModel(parse(f.path).model);
      checked++;
      if (counts.features !== f.features || counts.constraints !== f.constraints) {
        wrong.push(`${f.path}: reference ${f.features}/${f.constraints}, got ${counts.features}/${counts.constraints}`);
      }
    }
    assert.deepEqual(wrong, []);
    assert.ok(checked > 300, `only ${checked} models had counts`);
  });

  test('imports resolve relative to the importing file, and expanded counts include the submodels', () => {
    const f = files.find((x) => x.path === 'parser-tests/composition/composition_root.uvl');
    assert.ok(f);
    const path = join(corpus!.dir, f.path);
    const { model, diagnostics } = parseUvl(corpus!.read(f.path), { fileName: path, loader: diskLoader });
    assert.deepEqual(diagnostics, []);
    assert.ok(model.imports[0]!.resolved, 'composition_sub1 resolved');
    const flat = countModel(model);
    const expanded = countModel(model, { expandImports: true });
    assert.equal(flat.features, 12);
    assert.ok(expanded.features > flat.features);
    assert.ok(expanded.constraints > flat.constraints);
  });

  test('printUvl round-trips every valid model (same tree, positions aside)', () => {
    const wrong: string[] = [];
    for (const f of files) {
      if (!f.valid) continue;
      const { model } = parse(f.path);
      const printed = printUvl(model);
      const again = parseUvl(printed);
      if (again.diagnostics.some((d) => d.severity === 'error')) wrong.push(`${f.path}: printed text has errors: ${again.diagnostics[0]!.message}`);
      else {
        const diff = structuralDifference(again.model, model);
        if (diff) wrong.push(`${f.path}: printed model differs at ${diff}`);
      }
    }
    assert.deepEqual(wrong, []);
  });
});
