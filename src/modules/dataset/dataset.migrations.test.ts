// Migrations 2026_11_24_0100 (licence) and 0101 (edit history) on every database: the datasets
// that existed before get the default licence, and both migrations go down and up again.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Migrator } from 'kysely';
import { connect } from '../../core/db/connect.ts';
import { createTestDatabase, testDialects } from '../../../test/support/databases.ts';
import { migrations } from '../../../migrations/index.ts';

const BEFORE = '2026_11_23_1840_explore_reindex_dois';

for (const dialect of testDialects()) {
  describe(`dataset licence and history migrations [${dialect.name}]`, () => {
    it('gives existing datasets CC-BY-4.0, creates dataset_edit, and reverts cleanly', async () => {
      const database = await createTestDatabase(dialect.baseUrl);
      const db = connect(database.url);
      try {
        const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
        const check = (r: { error?: unknown }) => { if (r.error) throw r.error; };
        check(await migrator.migrateTo(BEFORE));
        const any = db as unknown as import('kysely').Kysely<any>;
        await any.insertInto('user').values({ email: 'old@example.com', password: 'x', created_at: new Date().toISOString() }).execute();
        const userId = Number((await any.selectFrom('user').select('id').executeTakeFirstOrThrow()).id);
        await any.insertInto('ds_meta_data').values({ title: 'Old', description: 'Before licences', publication_type: 'none', publication_doi: null, dataset_doi: null, tags: null, deposition_id: null, ds_metrics_id: null }).execute();
        const metaId = Number((await any.selectFrom('ds_meta_data').select('id').executeTakeFirstOrThrow()).id);
        await any.insertInto('data_set').values({ user_id: userId, ds_meta_data_id: metaId, created_at: new Date().toISOString() }).execute();
        const datasetId = Number((await any.selectFrom('data_set').select('id').executeTakeFirstOrThrow()).id);

        check(await migrator.migrateToLatest());
        assert.equal((await db.selectFrom('ds_meta_data').select('license').where('id', '=', metaId).executeTakeFirstOrThrow()).license, 'CC-BY-4.0');
        await db.insertInto('dataset_edit').values({ dataset_id: datasetId, user_id: userId, edited_at: new Date().toISOString(), fields: 'title,license' }).execute();
        assert.equal((await db.selectFrom('dataset_edit').select('fields').executeTakeFirstOrThrow()).fields, 'title,license');

        check(await migrator.migrateTo(BEFORE));
        const columns = (await any.introspection.getTables()).find((t) => t.name === 'ds_meta_data')!.columns.map((c) => c.name);
        assert.ok(!columns.includes('license'), 'the column is gone');
        assert.ok(!(await any.introspection.getTables()).some((t) => t.name === 'dataset_edit'), 'the table is gone');
        assert.equal((await any.selectFrom('ds_meta_data').select('title').where('id', '=', metaId).executeTakeFirstOrThrow()).title, 'Old', 'the rows stay');
        check(await migrator.migrateToLatest());
        assert.equal((await db.selectFrom('ds_meta_data').select('license').where('id', '=', metaId).executeTakeFirstOrThrow()).license, 'CC-BY-4.0');
      } finally {
        await db.destroy();
        await database.drop();
      }
    });
  });
}
