// Migrations 2026_11_24_0100 (licence) and 0101 (edit history) on every database: the datasets
// that existed before get the default licence, and both migrations go down and up again.
// Migration 2026_12_06_0100 (publication time): the published datasets that existed before are
// dated by their creation, the drafts stay undated, and it goes down and up again.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Migrator } from 'kysely';
import { connect } from '../../core/db/connect.ts';
import { createTestDatabase, testDialects } from '../../../test/support/databases.ts';
import { migrations } from '../../../migrations/index.ts';
import { migrateTo, migrateToLatest } from '../../core/db/migrate.ts';

const BEFORE = '2026_11_23_1840_explore_reindex_dois';
const BEFORE_PUBLISHED_AT = '2026_12_05_0450_sample_store_bound';

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

  describe(`dataset publication time migration [${dialect.name}]`, () => {
    it('dates the published datasets by their creation, leaves drafts undated, and reverts cleanly', async () => {
      const database = await createTestDatabase(dialect.baseUrl);
      const db = connect(database.url);
      try {
        await migrateTo(db, BEFORE_PUBLISHED_AT);
        const any = db as unknown as import('kysely').Kysely<any>;
        await any.insertInto('user').values({ email: 'old@example.com', password: 'x', created_at: '2025-01-01T00:00:00.000Z' }).execute();
        const userId = Number((await any.selectFrom('user').select('id').executeTakeFirstOrThrow()).id);
        const dataset = async (doi: string | null, createdAt: string) => {
          await any.insertInto('ds_meta_data').values({ title: doi ?? 'Draft', description: 'Before publication times', publication_type: 'none', publication_doi: null, dataset_doi: doi, tags: null, deposition_id: null, ds_metrics_id: null }).execute();
          const metaId = Number((await any.selectFrom('ds_meta_data').select('id').where('title', '=', doi ?? 'Draft').executeTakeFirstOrThrow()).id);
          await any.insertInto('data_set').values({ user_id: userId, ds_meta_data_id: metaId, created_at: createdAt }).execute();
          return metaId;
        };
        const published = await dataset('10.5555/old.published', '2025-02-03T04:05:06.789Z');
        const draft = await dataset(null, '2025-03-04T05:06:07.890Z');
        const publishedAt = async (metaId: number) => (await db.selectFrom('ds_meta_data').select('published_at').where('id', '=', metaId).executeTakeFirstOrThrow()).published_at;

        await migrateToLatest(db);
        assert.equal(await publishedAt(published), '2025-02-03T04:05:06.789Z');
        assert.equal(await publishedAt(draft), null);

        await migrateTo(db, BEFORE_PUBLISHED_AT);
        const columns = (await any.introspection.getTables()).find((t) => t.name === 'ds_meta_data')!.columns.map((c) => c.name);
        assert.ok(!columns.includes('published_at'), 'the column is gone');
        await migrateToLatest(db);
        assert.equal(await publishedAt(published), '2025-02-03T04:05:06.789Z');
      } finally {
        await db.destroy();
        await database.drop();
      }
    });
  });
}
