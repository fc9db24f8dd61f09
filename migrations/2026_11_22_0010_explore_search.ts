// The explore search index (issue 5): one row per dataset with the normalized text of
// its eleven searchable columns, plus the index each database offers for substring
// search: SQLite an FTS5 trigram table, PostgreSQL a pg_trgm GIN index, MariaDB none
// (a LIKE over the one column).
import { MysqlAdapter, PostgresAdapter, SqliteAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const adapter = db.getExecutor().adapter;
  await db.schema.createTable('explore_search')
    // The row goes with its dataset even when a deletion event is missed.
    .addColumn('dataset_id', 'integer', (c) => c.primaryKey().references('data_set.id').onDelete('cascade'))
    .addColumn('searchable', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('publication_type', 'varchar(40)', (c) => c.notNull())
    .addColumn('tags_norm', 'text', (c) => c.notNull())
    .addColumn('search_text', adapter instanceof MysqlAdapter ? sql`mediumtext` : 'text', (c) => c.notNull())
    .execute();
  // Blank queries list by creation time; the id breaks ties in the same order.
  await db.schema.createIndex('explore_search_order_idx').on('explore_search').columns(['searchable', 'created_at', 'dataset_id']).execute();

  if (adapter instanceof SqliteAdapter) {
    // rowid = dataset_id; kept in step by the explore repository in the same transaction.
    await sql`CREATE VIRTUAL TABLE explore_search_fts USING fts5(search_text, tokenize = 'trigram')`.execute(db);
  } else if (adapter instanceof PostgresAdapter) {
    const available = await sql<{ name: string }>`SELECT name FROM pg_available_extensions WHERE name = 'pg_trgm'`.execute(db);
    // Without the extension the search still answers correctly, by a sequential scan.
    if (available.rows.length > 0) {
      await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
      await sql`CREATE INDEX explore_search_text_trgm_idx ON explore_search USING gin (search_text gin_trgm_ops)`.execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) await sql`DROP TABLE IF EXISTS explore_search_fts`.execute(db);
  await db.schema.dropTable('explore_search').ifExists().execute();
}
