// Each dataset carries a licence, an SPDX identifier (extensions section 2); the datasets that
// exist already get the default, CC-BY-4.0 (src/modules/dataset/licenses.ts).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ds_meta_data')
    .addColumn('license', 'varchar(40)', (c) => c.notNull().defaultTo('CC-BY-4.0'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ds_meta_data').dropColumn('license').execute();
}
