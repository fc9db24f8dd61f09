import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createReadAheadLoader, parseUvl } from './index.ts';

test('the read-ahead loader asks for unread imports, serves read ones, and never leaves the root folder', () => {
  const main = 'imports\n    sub.part as p\nfeatures\n    Root\n';
  const wanted = new Set<string>();
  parseUvl(main, { fileName: 'models/main.uvl', loader: createReadAheadLoader('models/main.uvl', {}, wanted) });
  assert.deepEqual([...wanted], ['models/sub/part.uvl']);

  const again = new Set<string>();
  const read = { 'models/sub/part.uvl': 'features\n    Part\n', 'models/gone.uvl': null };
  const loader = createReadAheadLoader('models/main.uvl', read, again);
  const parsed = parseUvl(main, { fileName: 'models/main.uvl', loader });
  assert.ok(parsed.model);
  assert.equal(loader({ namespace: 'n', relativePath: 'gone.uvl', importer: 'models/main.uvl' }), undefined, 'read and not there');
  assert.equal(loader({ namespace: 'n', relativePath: '../../outside.uvl', importer: 'models/main.uvl' }), undefined);
  assert.equal(loader({ namespace: 'n', relativePath: '../top.uvl', importer: 'models/main.uvl' }), undefined, 'top.uvl is unread');
  assert.deepEqual([...again], ['top.uvl'], 'only paths inside the root folder are asked for');
});
