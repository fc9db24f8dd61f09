// Robustness: mutated corpus models (fixed seed) never make the parser throw, and every
// diagnostic is well formed. Plus the pathological inputs the contract names.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { corpusSkipReason, findCorpus, prng } from './corpus.support.ts';
import { checkUvl, formatDiagnostic, parseUvl, printUvl, toCnf, toGlencoe, toSplot, UvlExportError, type Diagnostic } from './index.ts';

const LINE = /^Line \d+:\d+ - .+/;

function assertWellFormed(text: string, diagnostics: Diagnostic[], label: string): void {
  for (const d of diagnostics) {
    const ok =
      Number.isInteger(d.line) && d.line >= 1 && Number.isInteger(d.column) && d.column >= 0 &&
      typeof d.message === 'string' && d.message.trim().length > 0 &&
      d.offset >= 0 && d.offset <= text.length && d.length >= 0 &&
      (d.severity === 'error' || d.severity === 'warning') && typeof d.code === 'string' &&
      LINE.test(formatDiagnostic(d));
    if (!ok) assert.fail(`${label}: malformed diagnostic ${JSON.stringify(d)}`);
  }
}

const TOKENS = [
  'features', 'constraints', 'imports', 'include', 'namespace', 'mandatory', 'optional', 'alternative', 'or',
  '[1..2]', '[3]', '[1..*]', '{', '}', '[', ']', '(', ')', '!', '&', '|', '=>', '<=>', '==', '<', '>=', '+', '-', '*', '/',
  '"quoted name"', "'string'", '1', '-2', '3.5', 'true', 'Integer', 'String', 'cardinality', 'constraint', 'sum(', 'len(',
  '/*', '*/', '//', '\t', '    ', '\n', '\r\n', '.', ',', 'as', '<INDENT>', '\u0000', '§', '"unterminated', "'open",
];

describe('robustness', () => {
  test('10 000 mutations of corpus models: nothing throws, diagnostics well formed', { skip: findCorpus() ? false : corpusSkipReason }, () => {
    const corpus = findCorpus()!;
    // Small and medium models make many cheap cases; a few large ones too.
    const sources = corpus.files.filter((f) => f.bytes < 20_000).map((f) => corpus.read(f.path));
    assert.ok(sources.length > 100);
    const random = prng(0xc0ffee);
    const int = (n: number) => Math.floor(random() * n);
    let cases = 0;
    for (; cases < 10_000; cases++) {
      let text = sources[int(sources.length)]!;
      const mutations = 1 + int(4);
      for (let m = 0; m < mutations; m++) {
        const at = int(text.length + 1);
        switch (int(7)) {
          case 0: // byte flip
            text = text.slice(0, at) + String.fromCharCode(int(256)) + text.slice(at + 1);
            break;
          case 1: // deletion
            text = text.slice(0, at) + text.slice(at + 1 + int(20));
            break;
          case 2: // duplication
            text = text.slice(0, at) + text.slice(at, at + int(60)) + text.slice(at);
            break;
          case 3: // random token
            text = text.slice(0, at) + TOKENS[int(TOKENS.length)]! + text.slice(at);
            break;
          case 4: // tab/space swap
            text = int(2) ? text.replace(/\t/g, '    ') : text.replace(/ {4}/g, '\t');
            break;
          case 5: // truncation
            text = text.slice(0, at);
            break;
          default: // swap two lines
            {
              const lines = text.split('\n');
              const a = int(lines.length);
              const b = int(lines.length);
              [lines[a], lines[b]] = [lines[b]!, lines[a]!];
              text = lines.join('\n');
            }
            break;
        }
      }
      const result = parseUvl(text);
      assertWellFormed(text, result.diagnostics, `case ${cases}`);
      const check = checkUvl(text);
      assert.equal(check.valid, !result.diagnostics.some((d) => d.severity === 'error'));
      for (const s of [...check.errors, ...check.warnings]) assert.match(s, LINE);
      // A model that parses cleanly prints and parses again cleanly.
      if (check.valid && cases % 10 === 0) {
        assert.equal(checkUvl(printUvl(result.model)).valid, true, `case ${cases} printed`);
        // The converters either convert or say which feature is unknown; nothing else escapes.
        for (const convert of [toCnf, toSplot, toGlencoe]) {
          try {
            convert(result.model);
          } catch (error) {
            assert.ok(error instanceof UvlExportError, `case ${cases}: ${String(error)}`);
          }
        }
      }
    }
    assert.equal(cases, 10_000);
  });

  // No clock in the assertions: a hang is caught by the test's timeout, and the linear growth of parse time is
  // measured by `npm run bench:uvl`.
  test('binary garbage, empty input, a megabyte on one line, deep nesting: errors, never exceptions', { timeout: 120_000 }, () => {
    const random = prng(7);
    const garbage = Array.from({ length: 50_000 }, () => String.fromCharCode(Math.floor(random() * 65536))).join('');
    const inputs: Array<[string, string]> = [
      ['empty', ''],
      ['garbage', garbage],
      ['megabyte line', `features\n    A\nconstraints\n    ${'A & '.repeat(262_144)}A\n`],
      ['megabyte of one name', `features\n    ${'a'.repeat(1 << 20)}\n`],
      ['10 000 parentheses', `features\n    A\nconstraints\n    ${'('.repeat(10_000)}A${')'.repeat(10_000)}\n`],
      ['10 000 open parentheses', `features\n    A\nconstraints\n    ${'('.repeat(10_000)}\n`],
      ['10 000 negations', `features\n    A\nconstraints\n    ${'!'.repeat(10_000)}A\n`],
      ['deep tree', `features\n${Array.from({ length: 2_000 }, (_, i) => `${'  '.repeat(2 * i + 1)}F${i}\n${'  '.repeat(2 * i + 2)}optional\n`).join('')}`],
      ['deep attributes', `features\n    A ${'{a '.repeat(5_000)}${'}'.repeat(5_000)}\n`],
      ['long implication chain', `features\n    A\nconstraints\n    ${'A => '.repeat(5_000)}A\n`],
    ];
    for (const [label, text] of inputs) {
      const result = parseUvl(text);
      assertWellFormed(text, result.diagnostics, label);
    }
    assert.equal(checkUvl('').valid, true, 'an empty file is an empty, valid model');
    assert.equal(checkUvl(inputs[2]![1]).valid, true, 'a megabyte of A & A & … is one valid constraint');
    // Parentheses nest to any depth (an explicit stack); only operators deeper than MAX_DEPTH are an error.
    assert.equal(checkUvl(inputs[4]![1]).valid, true, '10 000 nested parentheses around one feature');
    assert.match(checkUvl(inputs[6]![1]).errors[0]!, /nested more than \d+ levels/);
  });
});
