// Models uploaded in another format (issue 27, extensions section 7): the file row of the stored
// UVL says what it was converted from. The original is stored beside the model under
// `original_name`; its format, size and SHA-256, and the conversion's loss report (a JSON array
// of strings) are kept here. All null for a model uploaded as UVL.
import type { Kysely } from 'kysely';

const COLUMNS = ['original_name', 'original_format', 'original_size', 'original_sha256', 'conversion_losses'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  // One column per statement: SQLite adds only one column per ALTER TABLE.
  await db.schema.alterTable('file').addColumn('original_name', 'varchar(255)').execute();
  await db.schema.alterTable('file').addColumn('original_format', 'varchar(16)').execute();
  await db.schema.alterTable('file').addColumn('original_size', 'bigint').execute();
  await db.schema.alterTable('file').addColumn('original_sha256', 'varchar(64)').execute();
  await db.schema.alterTable('file').addColumn('conversion_losses', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of [...COLUMNS].reverse()) await db.schema.alterTable('file').dropColumn(column).execute();
}
