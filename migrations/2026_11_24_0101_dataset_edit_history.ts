// The history of a dataset's metadata edits (extensions section 2): who changed which fields,
// and when. A row goes with its dataset.
import { PostgresAdapter, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const table = db.schema.createTable('dataset_edit');
  await (db.getExecutor().adapter instanceof PostgresAdapter
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()))
    .addColumn('dataset_id', 'integer', (c) => c.notNull().references('data_set.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('edited_at', 'varchar(32)', (c) => c.notNull())
    // The names of the changed fields, comma-separated (title, description, publication_type,
    // publication_doi, tags, authors, license).
    .addColumn('fields', 'varchar(255)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dataset_edit_dataset_idx').on('dataset_edit').columns(['dataset_id', 'edited_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('dataset_edit').ifExists().execute();
}
