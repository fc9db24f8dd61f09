// Shared configurations (issue 37, item 2): a configuration too long for an address (a complete one
// of automotive2_4 holds 18,616 decisions, about 500,000 characters) is stored once under a short
// key derived from its content, and the model page's address names the key instead.
import { MysqlAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // Far beyond MariaDB's 64 KiB TEXT for a large model's complete configuration.
  const big = db.getExecutor().adapter instanceof MysqlAdapter ? sql`longtext` : 'text';
  await db.schema.createTable('shared_configuration')
    .addColumn('share_key', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('file_id', 'integer', (c) => c.notNull())
    // `{"selected": [...], "deselected": [...]}`.
    .addColumn('decisions', big, (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('shared_configuration').ifExists().execute();
}
