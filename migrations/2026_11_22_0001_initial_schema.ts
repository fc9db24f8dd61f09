// The whole schema of the specification, on SQLite, PostgreSQL and MariaDB alike.
// Timestamps are ISO 8601 UTC text (see src/core/db/database.ts).
import { PostgresAdapter, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely } from 'kysely';

type Table = CreateTableBuilder<string, never>;

function withId(db: Kysely<any>, table: Table): Table {
  // PostgreSQL has no AUTO_INCREMENT keyword; serial is its equivalent.
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

const timestamp = 'varchar(32)';
const cascade = (c: ColumnDefinitionBuilder) => c.onDelete('cascade');

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('user'))
    .addColumn('email', 'varchar(256)', (c) => c.notNull().unique())
    .addColumn('password', 'varchar(256)', (c) => c.notNull())
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('user_profile'))
    .addColumn('user_id', 'integer', (c) => cascade(c.notNull().unique().references('user.id')))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('surname', 'varchar(100)', (c) => c.notNull())
    .addColumn('orcid', 'varchar(19)')
    .addColumn('affiliation', 'varchar(100)')
    .execute();

  await withId(db, db.schema.createTable('ds_metrics'))
    .addColumn('number_of_models', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('number_of_features', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await withId(db, db.schema.createTable('ds_meta_data'))
    .addColumn('deposition_id', 'bigint')
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('publication_type', 'varchar(40)', (c) => c.notNull())
    .addColumn('publication_doi', 'varchar(255)')
    .addColumn('dataset_doi', 'varchar(255)', (c) => c.unique())
    .addColumn('tags', 'text')
    .addColumn('ds_metrics_id', 'integer', (c) => c.references('ds_metrics.id').onDelete('set null'))
    .execute();

  await withId(db, db.schema.createTable('data_set'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id'))
    .addColumn('ds_meta_data_id', 'integer', (c) => c.notNull().unique().references('ds_meta_data.id'))
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('data_set_user_created_idx').on('data_set').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('data_set_created_idx').on('data_set').column('created_at').execute();

  await withId(db, db.schema.createTable('fm_meta_data'))
    .addColumn('uvl_filename', 'varchar(255)', (c) => c.notNull())
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('publication_type', 'varchar(40)', (c) => c.notNull())
    .addColumn('publication_doi', 'varchar(255)')
    .addColumn('tags', 'text')
    .addColumn('uvl_version', 'varchar(50)')
    .execute();

  await withId(db, db.schema.createTable('feature_model'))
    .addColumn('data_set_id', 'integer', (c) => cascade(c.notNull().references('data_set.id')))
    .addColumn('fm_meta_data_id', 'integer', (c) => c.notNull().unique().references('fm_meta_data.id'))
    .execute();
  await db.schema.createIndex('feature_model_data_set_idx').on('feature_model').column('data_set_id').execute();

  await withId(db, db.schema.createTable('author'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('affiliation', 'varchar(255)')
    .addColumn('orcid', 'varchar(19)')
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ds_meta_data_id', 'integer', (c) => cascade(c.references('ds_meta_data.id')))
    .addColumn('fm_meta_data_id', 'integer', (c) => cascade(c.references('fm_meta_data.id')))
    .execute();
  await db.schema.createIndex('author_ds_meta_data_idx').on('author').column('ds_meta_data_id').execute();
  await db.schema.createIndex('author_fm_meta_data_idx').on('author').column('fm_meta_data_id').execute();

  await withId(db, db.schema.createTable('file'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('checksum', 'varchar(32)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('feature_model_id', 'integer', (c) => cascade(c.notNull().references('feature_model.id')))
    .execute();
  await db.schema.createIndex('file_feature_model_idx').on('file').column('feature_model_id').execute();

  // Record tables: user_key is the user id or 0 for anonymous visitors, so that the
  // unique index enforces "one record per (user or anonymous, item, cookie)" even
  // though SQL unique indexes treat NULL user ids as all distinct.
  for (const [table, item, itemTable] of [
    ['ds_download_record', 'dataset_id', 'data_set'],
    ['ds_view_record', 'dataset_id', 'data_set'],
    ['file_download_record', 'file_id', 'file'],
    ['file_view_record', 'file_id', 'file'],
  ] as const) {
    await withId(db, db.schema.createTable(table))
      .addColumn('user_id', 'integer', (c) => c.references('user.id').onDelete('set null'))
      .addColumn('user_key', 'integer', (c) => c.notNull())
      .addColumn(item, 'integer', (c) => cascade(c.notNull().references(`${itemTable}.id`)))
      .addColumn('date', timestamp, (c) => c.notNull())
      .addColumn('cookie', 'varchar(64)', (c) => c.notNull())
      .addUniqueConstraint(`${table}_once`, [item, 'user_key', 'cookie'])
      .execute();
  }

  await withId(db, db.schema.createTable('doi_mapping'))
    .addColumn('dataset_doi_old', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('dataset_doi_new', 'varchar(255)', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('webhook')).execute();

  await db.schema.createTable('session')
    .addColumn('sid', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('expires_at', timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('session_expires_idx').on('session').column('expires_at').execute();

  await withId(db, db.schema.createTable('login_attempt'))
    .addColumn('subject', 'varchar(300)', (c) => c.notNull())
    .addColumn('attempted_at', timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_attempt_subject_idx').on('login_attempt').columns(['subject', 'attempted_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'login_attempt', 'session', 'webhook', 'doi_mapping', 'file_view_record', 'file_download_record',
    'ds_view_record', 'ds_download_record', 'file', 'author', 'feature_model', 'fm_meta_data',
    'data_set', 'ds_meta_data', 'ds_metrics', 'user_profile', 'user',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
