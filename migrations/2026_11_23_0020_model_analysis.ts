// Model analysis in the hub (issue 9): one result per distinct file content (SHA-256) with its
// status, claim and the per-model columns the explore filters compare; which file (and dataset)
// has which content; and the normalized feature names of each analysed model for the `feature`
// filter, indexed for substring search like explore's text (SQLite FTS5 trigram, PostgreSQL
// pg_trgm, MariaDB a LIKE over one column).
import { MysqlAdapter, PostgresAdapter, SqliteAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const adapter = db.getExecutor().adapter;
  const mysql = adapter instanceof MysqlAdapter;
  // A result of a large model (atomic sets, explanations) can pass MariaDB's 64 KiB TEXT.
  const big = mysql ? sql`longtext` : 'text';
  const table = db.schema.createTable('model_analysis');
  // PostgreSQL has no AUTO_INCREMENT keyword; serial is its equivalent.
  await (adapter instanceof PostgresAdapter
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()))
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('result', big)
    .addColumn('features', 'integer')
    .addColumn('constraints', 'integer')
    .addColumn('depth', 'integer')
    // The exact count, and its number of digits: two counts compare by digits first, then as
    // equal-length digit strings, so range filters stay exact for any size (no float rounding).
    .addColumn('configurations', big)
    .addColumn('config_digits', 'integer')
    .addColumn('satisfiable', 'integer')
    .addColumn('has_dead', 'integer')
    .addColumn('language_level', 'varchar(16)')
    .addColumn('claimed_by', 'varchar(64)')
    .addColumn('claimed_at', 'varchar(32)')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('finished_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('model_analysis_status_idx').on('model_analysis').columns(['status', 'id']).execute();
  await db.schema.createIndex('model_analysis_features_idx').on('model_analysis').columns(['features']).execute();

  await db.schema.createTable('model_analysis_file')
    // The rows go with their file even when a deletion event is missed.
    .addColumn('file_id', 'integer', (c) => c.primaryKey().references('file.id').onDelete('cascade'))
    .addColumn('dataset_id', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    // A copy of the content's status and filter columns (written with the result): the search's
    // per-dataset check reads one small row per file instead of joining the large result rows.
    .addColumn('analysis_id', 'integer')
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('pending'))
    .addColumn('features', 'integer')
    .addColumn('constraints', 'integer')
    .addColumn('depth', 'integer')
    .addColumn('configurations', big)
    .addColumn('config_digits', 'integer')
    .addColumn('satisfiable', 'integer')
    .addColumn('has_dead', 'integer')
    .addColumn('language_level', 'varchar(16)')
    .execute();
  await db.schema.createIndex('model_analysis_file_dataset_idx').on('model_analysis_file').columns(['dataset_id', 'status', 'features']).execute();
  await db.schema.createIndex('model_analysis_file_sha_idx').on('model_analysis_file').columns(['sha256']).execute();

  await db.schema.createTable('model_feature_names')
    .addColumn('analysis_id', 'integer', (c) => c.primaryKey().references('model_analysis.id').onDelete('cascade'))
    .addColumn('names_text', mysql ? sql`mediumtext` : 'text', (c) => c.notNull())
    .execute();
  if (adapter instanceof SqliteAdapter) {
    // rowid = analysis_id; kept in step by the analysis repository in the same transaction.
    await sql`CREATE VIRTUAL TABLE model_feature_names_fts USING fts5(names_text, tokenize = 'trigram')`.execute(db);
  } else if (adapter instanceof PostgresAdapter) {
    const available = await sql<{ name: string }>`SELECT name FROM pg_available_extensions WHERE name = 'pg_trgm'`.execute(db);
    if (available.rows.length > 0) {
      await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
      await sql`CREATE INDEX model_feature_names_trgm_idx ON model_feature_names USING gin (names_text gin_trgm_ops)`.execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) await sql`DROP TABLE IF EXISTS model_feature_names_fts`.execute(db);
  await db.schema.dropTable('model_feature_names').ifExists().execute();
  await db.schema.dropTable('model_analysis_file').ifExists().execute();
  await db.schema.dropTable('model_analysis').ifExists().execute();
}
