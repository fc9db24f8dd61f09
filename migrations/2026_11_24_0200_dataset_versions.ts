// Issue 11: dataset versions. All versions of one dataset form a concept: data_set.concept_id
// points at the concept's first version (NULL on the first version itself, so every existing
// dataset is version 1 of its own concept without rewriting its row), data_set.version_number
// counts from 1, and ds_meta_data.concept_doi keeps the DOI shared by all versions (Zenodo's
// `conceptdoi`; unknown, NULL, for datasets published before this migration until their next version).
// The unique index makes two concurrent "new version" requests unable to both take the same number
// (NULLs never collide, so first versions are unaffected on every database).
import { MysqlAdapter, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('data_set').addColumn('concept_id', 'integer').execute();
  await db.schema.alterTable('data_set').addColumn('version_number', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('ds_meta_data').addColumn('concept_doi', 'varchar(255)').execute();
  await db.schema.createIndex('data_set_concept_version').on('data_set').columns(['concept_id', 'version_number']).unique().execute();
  await db.schema.createIndex('ds_meta_data_concept_doi').on('ds_meta_data').column('concept_doi').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  // Only MariaDB names the table of an index it drops (SQLite refuses the ON clause).
  const mysql = db.getExecutor().adapter instanceof MysqlAdapter;
  const drop = (index: string, table: string) => (mysql ? db.schema.dropIndex(index).on(table) : db.schema.dropIndex(index)).execute();
  await drop('ds_meta_data_concept_doi', 'ds_meta_data');
  await drop('data_set_concept_version', 'data_set');
  await db.schema.alterTable('ds_meta_data').dropColumn('concept_doi').execute();
  await db.schema.alterTable('data_set').dropColumn('version_number').execute();
  await db.schema.alterTable('data_set').dropColumn('concept_id').execute();
}
