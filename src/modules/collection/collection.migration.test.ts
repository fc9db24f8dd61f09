// Migration 2026_12_05_0460 on every dialect: one newer version per collection (a unique index on
// previous_id, many first versions beside it). Versions made twice before it: the published one
// (else the first made) stays the newer version, each other one becomes a collection of its own
// (an unpublished one a first version without the concept DOI), nothing deleted. Down drops the index.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDatabase, testDialects } from '../../../test/support/databases.ts';
import { connect, isUniqueViolation } from '../../core/db/connect.ts';
import { migrateTo, migrateToLatest } from '../../core/db/migrate.ts';
import { insertCollection } from './collection.repository.ts';

const BEFORE = '2026_12_05_0450_sample_store_bound';

for (const dialect of testDialects()) {
  describe(`collection one-next-version migration [${dialect.name}]`, () => {
    it('keeps one newer version per collection, the others on their own, then refuses a second; and goes back down', async () => {
      const database = await createTestDatabase(dialect.baseUrl);
      const db = connect(database.url);
      try {
        await migrateTo(db, BEFORE);
        await db.insertInto('user').values({ email: 'a@example.com', password: 'x', created_at: '2026-01-01T00:00:00.000Z' } as never).execute();
        const userId = Number((await db.selectFrom('user').select('id').executeTakeFirstOrThrow()).id);
        const make = async (title: string, previousId: number | null, doi: string | null) => {
          const id = await insertCollection(db, { userId, title, description: '', tags: null, query: null, previousId, conceptDoi: previousId === null ? null : '10.1/c', version: previousId === null ? 1 : 2 });
          if (doi !== null) await db.updateTable('collection').set({ doi }).where('id', '=', id).execute();
          return id;
        };
        const first = await make('First', null, '10.1/a');
        await make('Draft A', first, null);
        await make('Published B', first, '10.1/b');
        const other = await make('Other', null, '10.1/o');
        await make('Draft C', other, null);
        await make('Draft D', other, null);
        await make('Plain', null, null);

        await migrateToLatest(db);
        const rows = Object.fromEntries((await db.selectFrom('collection').select(['title', 'previous_id', 'version', 'concept_doi']).execute())
          .map((r) => [r.title, [r.previous_id === null ? null : Number(r.previous_id), Number(r.version), r.concept_doi]]));
        assert.deepEqual(rows, {
          First: [null, 1, null],
          'Draft A': [null, 1, null],
          'Published B': [first, 2, '10.1/c'],
          Other: [null, 1, null],
          'Draft C': [other, 2, '10.1/c'],
          'Draft D': [null, 1, null],
          Plain: [null, 1, null],
        });
        await assert.rejects(make('Again', other, null), isUniqueViolation, 'one newer version per collection');
        await make('Another plain', null, null);

        await migrateTo(db, BEFORE);
        await make('Again after down', other, null);
      } finally {
        await db.destroy();
        await database.drop();
      }
    });
  });
}
