// Personal access tokens and the API's rate-limit counters (extensions section 3).
import { PostgresAdapter, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.createTable('api_token')
    .addColumn('id', postgres ? 'serial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    // The token is `hub_<public_id>_<secret>`: the row is found by its public id, and only a
    // SHA-256 of the secret is stored (compared in constant time).
    .addColumn('public_id', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('secret_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('scopes', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_used_at', 'varchar(32)')
    .addColumn('revoked_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('api_token_user_idx').on('api_token').column('user_id').execute();

  // One row per (caller, minute): the count of that minute, shared by every instance.
  await db.schema.createTable('api_rate_limit')
    .addColumn('bucket', 'varchar(100)', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('api_rate_limit_pk', ['bucket', 'window_start'])
    .execute();
  await db.schema.createIndex('api_rate_limit_window_idx').on('api_rate_limit').column('window_start').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('api_rate_limit').ifExists().execute();
  await db.schema.dropTable('api_token').ifExists().execute();
}
