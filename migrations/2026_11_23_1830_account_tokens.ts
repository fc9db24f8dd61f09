// Accounts (extensions section 5): single-use tokens of the emailed links (password reset,
// email change) and the moment an account's credentials last changed, which ends the
// sessions logged in before it.
import { PostgresAdapter, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const table = db.schema.createTable('account_token');
  await (db.getExecutor().adapter instanceof PostgresAdapter
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    // 'reset' or 'email'.
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
    // SHA-256 of the token (hex): the database never holds a usable link.
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('new_email', 'varchar(256)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('account_token_user_idx').on('account_token').columns(['user_id', 'purpose', 'created_at']).execute();
  await db.schema.alterTable('user').addColumn('credentials_changed_at', 'varchar(32)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('user').dropColumn('credentials_changed_at').execute();
  await db.schema.dropTable('account_token').ifExists().execute();
}
