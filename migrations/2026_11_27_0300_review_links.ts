// Review links (extensions section 8): a dataset shown without its authors and owner through a
// secret link, for double-blind review, until a date or until revoked.
import { PostgresAdapter, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const table = db.schema.createTable('review_link');
  await (db.getExecutor().adapter instanceof PostgresAdapter
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()))
    .addColumn('dataset_id', 'integer', (c) => c.notNull().references('data_set.id').onDelete('cascade'))
    // SHA-256 (hex) of the token in the link: the database never holds a usable link.
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    // The last day the link works (YYYY-MM-DD, UTC).
    .addColumn('expires_on', 'varchar(10)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('revoked_at', 'varchar(32)')
    // Views through the link, counted apart from the dataset's own.
    .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('review_link_dataset_idx').on('review_link').column('dataset_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('review_link').ifExists().execute();
}
