// The view and download counts of each dataset, kept beside its row and raised in the same
// transaction as the record that counts (issue 12): counting the records at every page view
// took time in proportion to a dataset's popularity. Existing datasets start with their counts.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('data_set').addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('data_set').addColumn('download_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await sql`update data_set set
    view_count = (select count(*) from ds_view_record r where r.dataset_id = data_set.id),
    download_count = (select count(*) from ds_download_record r where r.dataset_id = data_set.id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('data_set').dropColumn('download_count').execute();
  await db.schema.alterTable('data_set').dropColumn('view_count').execute();
}
