// Samples kept compactly in the file store (extensions section 10, "Large results as streams"):
// `model_sample.stored_key` names the object holding a sample's bit rows (packages/analysis
// sample/compact.ts); `result` stays for the commonality and for a sample that could not be packed.
// Samples stored before as JSON of names are removed: the next request computes them again in the
// new form (same engine version, so the same configurations), instead of a conversion that would
// have to parse answers of up to 400 MB.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('model_sample').addColumn('stored_key', 'varchar(255)').execute();
  await db.deleteFrom('model_sample').where('kind', 'in', ['uniform', 'twise']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  // Rows whose sample is only in the store mean nothing without the column: computed again.
  await db.deleteFrom('model_sample').where('stored_key', 'is not', null).execute();
  await db.schema.alterTable('model_sample').dropColumn('stored_key').execute();
}
