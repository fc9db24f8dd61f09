// A publish records the Zenodo deposition it is about to publish (`ds_meta_data.pending_deposition_id`)
// before it sends the publish step, and clears it with the DOI it stores. A process killed after
// Zenodo published, or a publish whose answer was lost, leaves the id behind: the next publish asks
// Zenodo for that deposition and stores its DOI instead of making a second record.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ds_meta_data').addColumn('pending_deposition_id', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ds_meta_data').dropColumn('pending_deposition_id').execute();
}
