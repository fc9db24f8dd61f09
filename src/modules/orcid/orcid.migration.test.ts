// Migration 2026_12_05_0400 on every dialect: links that earlier first sign-ins made (created_account
// 1, their address never confirmed) are marked address_confirmed 0, links made from a profile 1;
// down removes the column and the claims' table.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestDatabase, testDialects } from '../../../test/support/databases.ts';
import { connect } from '../../core/db/connect.ts';
import { migrateTo, migrateToLatest } from '../../core/db/migrate.ts';

const BEFORE = '2026_11_27_1600_pending_deposition';

for (const dialect of testDialects()) {
  describe(`orcid claim migration [${dialect.name}]`, () => {
    it('marks the links of accounts made by an earlier first sign-in as unconfirmed, and goes back down', async () => {
      const database = await createTestDatabase(dialect.baseUrl);
      const db = connect(database.url);
      try {
        await migrateTo(db, BEFORE);
        const now = new Date().toISOString();
        for (const [id, email] of [[1, 'made@example.org'], [2, 'linked@example.org']] as const) {
          await sql`INSERT INTO ${sql.id('user')} (id, email, password, created_at) VALUES (${id}, ${email}, ${'x'}, ${now})`.execute(db);
        }
        await sql`INSERT INTO orcid_account (user_id, orcid, created_account, linked_at) VALUES (1, ${'0000-0002-0000-0001'}, 1, ${now}), (2, ${'0000-0002-0000-0002'}, 0, ${now})`.execute(db);
        await migrateToLatest(db);
        const rows = await db.selectFrom('orcid_account').select(['user_id', 'address_confirmed']).orderBy('user_id').execute();
        assert.deepEqual(rows.map((r) => [Number(r.user_id), Number(r.address_confirmed)]), [[1, 0], [2, 1]]);
        assert.deepEqual(await db.selectFrom('orcid_claim').selectAll().execute(), []);
        await migrateTo(db, BEFORE);
        const columns = (await db.introspection.getTables()).find((t) => t.name === 'orcid_account')!.columns.map((c) => c.name);
        assert.ok(!columns.includes('address_confirmed'));
        assert.ok(!(await db.introspection.getTables()).some((t) => t.name === 'orcid_claim'));
      } finally {
        await db.destroy();
        await database.drop();
      }
    });
  });
}
