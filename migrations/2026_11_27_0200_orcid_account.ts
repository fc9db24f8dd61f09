// ORCID sign-in (extensions section 8): the ORCID iD an account signs in with, proven by the
// provider (the profile's own ORCID field is whatever the user typed). One iD per account and
// one account per iD.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('orcid_account')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('user.id').onDelete('cascade'))
    .addColumn('orcid', 'varchar(19)', (c) => c.notNull().unique())
    // 1 when the first ORCID sign-in created the account: it has no password anyone knows until one is set.
    .addColumn('created_account', 'integer', (c) => c.notNull())
    .addColumn('linked_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('orcid_account').ifExists().execute();
}
