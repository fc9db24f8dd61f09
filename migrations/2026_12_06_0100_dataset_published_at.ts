// When a dataset got its DOI (`ds_meta_data.published_at`, beside `dataset_doi` and written by the
// same statement): the OAI-PMH datestamp of a draft published days after its creation is its
// publication, so an incremental harvest (from=) gets it. The datasets published before are
// dated by their creation, the best value known (and the datestamp they were harvested with).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ds_meta_data').addColumn('published_at', 'varchar(32)').execute();
  await db.updateTable('ds_meta_data')
    .set({ published_at: sql`(select ds.created_at from data_set ds where ds.ds_meta_data_id = ds_meta_data.id)` })
    .where('dataset_doi', 'is not', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ds_meta_data').dropColumn('published_at').execute();
}
