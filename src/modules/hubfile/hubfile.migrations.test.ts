// Migration 2026_11_27_1000_file_original (issue 27) on every database: the file table gains the
// columns describing a converted model's original, and they go down and up again cleanly.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Migrator, type Kysely } from 'kysely';
import { connect } from '../../core/db/connect.ts';
import { createTestDatabase, testDialects } from '../../../test/support/databases.ts';
import { migrations } from '../../../migrations/index.ts';

const BEFORE = '2026_11_25_0100_staged_claims';
const ADDED = ['original_name', 'original_format', 'original_size', 'original_sha256', 'conversion_losses'];

for (const dialect of testDialects()) {
  describe(`file original migration [${dialect.name}]`, () => {
    it('adds the original and loss columns to file, removes them going down, adds them again', async () => {
      const database = await createTestDatabase(dialect.baseUrl);
      const db = connect(database.url);
      try {
        const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
        const check = (r: { error?: unknown }) => { if (r.error) throw r.error; };
        const columns = async () => (await (db as unknown as Kysely<any>).introspection.getTables()).find((t) => t.name === 'file')!.columns.map((c) => c.name);
        check(await migrator.migrateToLatest());
        for (const column of ADDED) assert.ok((await columns()).includes(column), column);
        check(await migrator.migrateTo(BEFORE));
        for (const column of ADDED) assert.ok(!(await columns()).includes(column), `${column} is gone`);
        assert.ok((await columns()).includes('checksum'), 'the other columns stay');
        check(await migrator.migrateToLatest());
        for (const column of ADDED) assert.ok((await columns()).includes(column), `${column} is back`);
      } finally {
        await db.destroy();
        await database.drop();
      }
    });
  });
}
