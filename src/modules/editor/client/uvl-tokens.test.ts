// The editor's highlighting tokenizer against the hub's scanner: every corpus model the hub's
// parser accepts highlights without an invalid token, and what the scanner rejects is marked.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { StringStream } from '@codemirror/language';
import { parseUvl } from '../../../../packages/uvl/src/index.ts';
import { corpusSkipReason, findCorpus } from '../../../../packages/uvl/src/corpus.support.ts';
import { startState, token, type UvlTokenStyle } from './uvl-tokens.ts';

/** Each line through the tokenizer as CodeMirror drives it: [line, style, text] of every token. */
function tokenize(text: string): [number, UvlTokenStyle | null, string][] {
  const out: [number, UvlTokenStyle | null, string][] = [];
  const state = startState();
  text.split(/\r\n|\r|\n/).forEach((line, i) => {
    const stream = new StringStream(line, 8, 4);
    while (!stream.eol()) {
      const start = stream.pos;
      const style = token(stream, state);
      assert.ok(stream.pos > start, `line ${i + 1}: the tokenizer must consume input`);
      out.push([i + 1, style, line.slice(start, stream.pos)]);
      stream.start = stream.pos;
    }
  });
  return out;
}

const corpus = findCorpus();

describe('UVL tokenizer of the editor', () => {
  it('highlights every valid corpus model without an invalid token', { skip: corpus ? false : corpusSkipReason }, () => {
    let checked = 0;
    for (const entry of corpus!.files) {
      const text = corpus!.read(entry.path);
      if (parseUvl(text).diagnostics.some((d) => d.severity === 'error')) continue;
      const invalid = tokenize(text).filter(([, style]) => style === 'invalid');
      assert.deepEqual(invalid, [], `${entry.path}`);
      checked++;
    }
    assert.ok(checked > 100, `only ${checked} valid models found`);
  });

  it('classifies keywords, hyphenated keywords, names, quoted names, cardinalities, numbers, strings and comments', () => {
    const tokens = tokenize('features\n  Car {abstract, weight 1.5, label \'car\'}\n    group-cardinality [1..*] // note\n      "Car part" cardinality [0..2]\nconstraints\n  order => !Car & true\n/* a\n b */ x');
    const styles = new Map(tokens.map(([, style, text]) => [text, style]));
    assert.equal(styles.get('features'), 'keyword');
    assert.equal(styles.get('group-cardinality'), 'keyword');
    assert.equal(styles.get('order'), 'variableName', 'a longer name wins over the keyword or');
    assert.equal(styles.get('"Car part"'), 'variableName');
    assert.equal(styles.get('[1..*]'), 'number');
    assert.equal(styles.get('1.5'), 'number');
    assert.equal(styles.get("'car'"), 'string');
    assert.equal(styles.get('// note'), 'comment');
    assert.equal(styles.get('=>'), 'operator');
    assert.equal(styles.get('true'), 'bool');
    assert.equal(styles.get(' b */'), 'comment', 'a block comment continues on the next line');
    assert.equal(styles.get('x'), 'variableName');
  });

  it('marks what the scanner rejects: a lone =, an unclosed or dotted quoted name, an empty string, a stray character', () => {
    for (const bad of ['A = B', '"open name', '"a.b"', "''", 'A ~ B']) {
      const invalid = tokenize(`constraints\n  ${bad}`).filter(([, style]) => style === 'invalid');
      assert.equal(invalid.length, 1, bad);
      assert.equal(invalid[0]![0], 2, `${bad}: on its line`);
      assert.equal(parseUvl(`constraints\n  ${bad}`).diagnostics.some((d) => d.severity === 'error'), true, `the hub's parser refuses ${bad} too`);
    }
  });
});
