// The search index on every dialect: the same answers from SQLite's FTS5 trigram table,
// PostgreSQL's pg_trgm index and MariaDB's plain LIKE (issue 5), and the normalization
// rules of explore rule 1 and decisions section 7.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects, openMigratedDatabase } from '../../../test/support/databases.ts';
import { insertDatasetRow } from '../../../test/support/fixtures.ts';
import { insertAndGetId, type Db } from '../../core/db/connect.ts';
import { normalizeText, queryWords } from './explore.normalize.ts';
import { indexRow, type SearchDocument } from './explore.service.ts';
import * as repo from './explore.repository.ts';

describe('search normalization', () => {
  it('removes accents, strips punctuation and lowercases', () => {
    assert.equal(normalizeText('Modélo Ñandú ÇA'), 'modelo nandu ca');
    assert.equal(normalizeText('Straße, Øresund; Łódź!'), 'strasse oresund lodz');
    assert.equal(normalizeText('10.1234/dataset-1 (v2)'), '101234dataset1 v2');
    assert.equal(normalizeText('  many\t\nspaces  '), 'many spaces');
    assert.equal(normalizeText('50% _under_ a|b'), '50 under ab');
  });

  it('splits a query into distinct words and a blank query into none', () => {
    assert.deepEqual(queryWords('Feature, feature MODELS'), ['feature', 'models']);
    assert.deepEqual(queryWords('   \t '), []);
    assert.deepEqual(queryWords('?!.'), []);
  });
});

function doc(id: number, texts: string[], extra: Partial<SearchDocument> = {}): SearchDocument {
  return { id, revision: 0, synchronized: true, featureModelCount: 1, createdAt: `2025-01-0${id}T00:00:00.000Z`, publicationType: 'none', tags: [], texts, ...extra };
}

const all = { words: [], publicationType: null, tags: [], sorting: 'newest' as const, limit: null, offset: 0 };

for (const dialect of testDialects()) {
  describe(`explore search index [${dialect.name}]`, () => {
    let db: Db;
    let close: () => Promise<void>;
    const ids: number[] = [];
    before(async () => {
      ({ db, close } = await openMigratedDatabase(dialect.baseUrl));
      const userId = await insertAndGetId(db, 'user', { email: 'u@example.com', password: 'x', created_at: '2025-01-01T00:00:00.000Z' });
      for (let i = 1; i <= 6; i++) ids.push(await insertDatasetRow(db, userId, { title: `d${i}`, doi: `10.1/${i}`, createdAt: `2025-01-0${i}T00:00:00.000Z` }));
      const [a, b, c, d, e, f] = ids as [number, number, number, number, number, number];
      await repo.upsertRows(db, [
        indexRow(doc(a, ['Modélo de línea', 'José Núñez', 'Universidad de Sevilla'], { publicationType: 'article', tags: ['Automotive', 'SPL'], createdAt: '2025-01-01T00:00:00.000Z' })),
        indexRow(doc(b, ['Printer product line', 'xy'], { publicationType: 'book', tags: ['printers'], createdAt: '2025-01-02T00:00:00.000Z' })),
        indexRow(doc(c, ['Avionics', '10.1234/zenodo.99'], { publicationType: 'article', tags: ['aero'], createdAt: '2025-01-03T00:00:00.000Z' })),
        indexRow(doc(d, ['Hidden unsynchronized modelo'], { synchronized: false, createdAt: '2025-01-04T00:00:00.000Z' })),
        indexRow(doc(e, ['Hidden modelo without models'], { featureModelCount: 0, createdAt: '2025-01-05T00:00:00.000Z' })),
        indexRow(doc(f, ['foo', 'bar'], { createdAt: '2025-01-06T00:00:00.000Z' })),
      ]);
    });
    after(async () => close());

    const search = (filter: Partial<repo.SearchFilter>) => repo.searchIds(db, { ...all, ...filter });

    it('lists only searchable datasets, newest first, with an empty filter', async () => {
      assert.deepEqual(await search({}), [ids[5], ids[2], ids[1], ids[0]]);
      assert.deepEqual(await search({ sorting: 'oldest' }), [ids[0], ids[1], ids[2], ids[5]]);
    });

    it('matches accent- and case-insensitively on both sides', async () => {
      assert.deepEqual(await search({ words: queryWords('modelo') }), [ids[0]]);
      assert.deepEqual(await search({ words: queryWords('MODÉLO') }), [ids[0]]);
      assert.deepEqual(await search({ words: queryWords('nunez') }), [ids[0]]);
    });

    it('matches substrings, and OR-combines the words', async () => {
      assert.deepEqual(await search({ words: queryWords('rint') }), [ids[1]]);
      assert.deepEqual(await search({ words: queryWords('avionics sevilla nothing') }), [ids[2], ids[0]]);
      assert.deepEqual(await search({ words: queryWords('zzzz') }), []);
    });

    it('finds words shorter than three characters (no trigram) the same way', async () => {
      assert.deepEqual(await search({ words: queryWords('xy') }), [ids[1]]);
      assert.deepEqual(await search({ words: queryWords('xy avionics') }), [ids[2], ids[1]]);
      assert.deepEqual(await search({ words: queryWords('y') }), [ids[1]]);
      assert.deepEqual(await search({ words: queryWords('ne') }), [ids[1], ids[0]]);
    });

    it('finds a DOI with its punctuation, normalized like the stored text', async () => {
      assert.deepEqual(await search({ words: queryWords('10.1234/zenodo.99') }), [ids[2]]);
    });

    it('does not match across two columns', async () => {
      assert.deepEqual(await search({ words: queryWords('foobar') }), []);
      assert.deepEqual(await search({ words: queryWords('oob') }), []);
    });

    it('filters by publication type and by tags (OR of substrings, case-insensitive)', async () => {
      assert.deepEqual(await search({ publicationType: 'article' }), [ids[2], ids[0]]);
      assert.deepEqual(await search({ tags: ['auto'] }), [ids[0]]);
      assert.deepEqual(await search({ tags: ['PRINTER', 'aero'].map(normalizeText) }), [ids[2], ids[1]]);
      assert.deepEqual(await search({ tags: ['spl'], publicationType: 'book' }), []);
    });

    it('pages with limit and offset, and applies an offset without a limit', async () => {
      assert.deepEqual(await search({ limit: 2 }), [ids[5], ids[2]]);
      assert.deepEqual(await search({ limit: 2, offset: 2 }), [ids[1], ids[0]]);
      assert.deepEqual(await search({ offset: 3 }), [ids[0]]);
      assert.deepEqual(await search({ limit: 0 }), []);
    });

    it('replaces a row on upsert (the old text no longer matches) and forgets a deleted one', async () => {
      await repo.upsertRows(db, [indexRow(doc(ids[5]!, ['quux renamed'], { createdAt: '2025-01-06T00:00:00.000Z' }))]);
      assert.deepEqual(await search({ words: ['foo'] }), []);
      assert.deepEqual(await search({ words: ['quux'] }), [ids[5]]);
      await repo.upsertRows(db, [indexRow(doc(ids[5]!, ['quux'], { synchronized: false }))]);
      assert.deepEqual(await search({ words: ['quux'] }), [], 'a dataset that stops being searchable leaves the results');
      await repo.deleteRows(db, [ids[5]!]);
      assert.ok(!(await repo.indexedRevisions(db)).has(ids[5]!));
    });

    it('keeps the row of the newer revision when an older one is written after it', async () => {
      // Two quick edits index the dataset twice; the first indexing, which read revision 1, ends last.
      const id = ids[4]!;
      await repo.upsertRows(db, [indexRow(doc(id, ['newer title'], { revision: 2 }))]);
      await repo.upsertRows(db, [indexRow(doc(id, ['older title'], { revision: 1 }))]);
      assert.equal((await repo.indexedRevisions(db)).get(id), 2);
      assert.deepEqual(await search({ words: ['newer'] }), [id]);
      assert.deepEqual(await search({ words: ['older'] }), []);
      // The same revision written again (a rebuild) and a later one still replace it.
      await repo.upsertRows(db, [indexRow(doc(id, ['rebuilt title'], { revision: 2 }))]);
      assert.deepEqual(await search({ words: ['rebuilt'] }), [id]);
      await repo.upsertRows(db, [indexRow(doc(id, ['third title'], { revision: 3 }))]);
      assert.deepEqual(await search({ words: ['third'] }), [id]);
      assert.deepEqual(await search({ words: ['rebuilt'] }), []);
    });
  });
}
