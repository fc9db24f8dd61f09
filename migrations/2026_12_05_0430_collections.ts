// Collections (extensions section 13): a user's chosen models across datasets, optionally the
// frozen result of a saved search (`query`), publishable with a DOI. A published collection is
// never edited: a new version is a new row sharing the concept DOI. And the sources of models
// imported from a URL (same section), which become related identifiers of their dataset.
import { PostgresAdapter, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const table = db.schema.createTable('collection');
  // PostgreSQL numbers rows with serial; the others with their own auto-increment.
  await (db.getExecutor().adapter instanceof PostgresAdapter
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('title', 'varchar(200)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('tags', 'varchar(500)')
    // A saved search: the query and filters as JSON text; null for a hand-made collection.
    .addColumn('query', 'text')
    .addColumn('doi', 'varchar(250)')
    .addColumn('concept_doi', 'varchar(250)')
    .addColumn('deposition_id', 'integer')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    // The collection this one is a new version of.
    .addColumn('previous_id', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('published_at', 'varchar(32)')
    // One publish at a time: set while a deposit runs (a claim older than 30 minutes is a dead process's).
    .addColumn('publish_claimed_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('collection_user_idx').on('collection').column('user_id').execute();
  await db.schema.createTable('collection_member')
    .addColumn('collection_id', 'integer', (c) => c.notNull().references('collection.id').onDelete('cascade'))
    // A file deleted with its dataset leaves every unpublished collection; a published one keeps its manifest in the deposit.
    .addColumn('file_id', 'integer', (c) => c.notNull().references('file.id').onDelete('cascade'))
    .addColumn('added_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('collection_member_pk', ['collection_id', 'file_id'])
    .execute();
  const sources = db.schema.createTable('import_source');
  await (db.getExecutor().adapter instanceof PostgresAdapter
    ? sources.addColumn('id', 'serial', (c) => c.primaryKey())
    : sources.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    // Null while the imported model is staged; the dataset once an upload took it.
    .addColumn('dataset_id', 'integer', (c) => c.references('data_set.id').onDelete('cascade'))
    .addColumn('staged_name', 'varchar(255)')
    .addColumn('url', 'varchar(2000)', (c) => c.notNull())
    .addColumn('doi', 'varchar(250)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('import_source_user_idx').on('import_source').column('user_id').execute();
  await db.schema.createIndex('import_source_dataset_idx').on('import_source').column('dataset_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('import_source').ifExists().execute();
  await db.schema.dropTable('collection_member').ifExists().execute();
  await db.schema.dropTable('collection').ifExists().execute();
}
