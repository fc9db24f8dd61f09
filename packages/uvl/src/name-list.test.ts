import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatNameList, parseNameList, unquoteName } from './name-list.ts';

test('plain lists: comma-separated, trimmed, empty parts ignored', () => {
  assert.deepEqual(parseNameList('A,B'), ['A', 'B']);
  assert.deepEqual(parseNameList(' A , ,B,'), ['A', 'B']);
  assert.deepEqual(parseNameList(''), []);
  assert.deepEqual(parseNameList(undefined), []);
  assert.deepEqual(parseNameList('Sun  Roof'), ['Sun  Roof']);
});

test('quoted names as in a UVL file: commas and outer spaces kept, quotes dropped', () => {
  assert.deepEqual(parseNameList('"a,b",B'), ['a,b', 'B']);
  assert.deepEqual(parseNameList('B, "a,b" ,"c"'), ['B', 'a,b', 'c']);
  assert.deepEqual(parseNameList('" padded "'), [' padded ']);
  assert.deepEqual(parseNameList('"Sun  Roof"'), ['Sun  Roof']);
  assert.deepEqual(parseNameList('"a"b,C'), ['"a"b', 'C'], 'a quote inside a part is not a quoted name');
});

test('one name, quoted or not', () => {
  assert.equal(unquoteName('"Sun  Roof"'), 'Sun  Roof');
  assert.equal(unquoteName('Turbo'), 'Turbo');
  assert.equal(unquoteName('a,b'), 'a,b');
});

test('formatNameList writes what parseNameList reads back', () => {
  const lists = [['A', 'B'], ['Sun, Roof', 'Turbo'], [' edge ', 'x y'], ['a.b', 'Ünïcode, too'], []];
  for (const names of lists) assert.deepEqual(parseNameList(formatNameList(names)), names, JSON.stringify(names));
  assert.equal(formatNameList(['A', 'Sun, Roof']), 'A,"Sun, Roof"');
});
