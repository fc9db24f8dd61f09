// The samples' store bounded (SAMPLE_STORE_MAX_BYTES, src/modules/configurator/README.md): each
// sample row says how many bytes it holds (its packed object, or its JSON or error message in the
// row, plus an allowance for the row) and when it was last served, and the least recently used
// ones are deleted past the bound. Commonality rows (one per model) are not counted.
// Rows stored before: served last when they were finished; a packed sample's size is measured in
// the store by the configurator's first cleanups (a migration does not reach the store).
import { MysqlAdapter, sql, type Kysely } from 'kysely';

/** The allowance for a row itself (configurator.repository.ts ROW_BYTES at the time of writing). */
const ROW_BYTES = 256;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('model_sample').addColumn('stored_bytes', 'bigint').execute();
  await db.schema.alterTable('model_sample').addColumn('last_used_at', 'varchar(32)').execute();
  await db.updateTable('model_sample').set({ last_used_at: sql`coalesce(finished_at, created_at)` }).execute();
  await db.updateTable('model_sample').set({ stored_bytes: sql`length(result) + ${sql.lit(ROW_BYTES)}` })
    .where('kind', '<>', 'commonality').where('status', '=', 'done').where('stored_key', 'is', null).where('result', 'is not', null).execute();
  await db.updateTable('model_sample').set({ stored_bytes: sql`coalesce(length(error), 0) + ${sql.lit(ROW_BYTES)}` })
    .where('kind', '<>', 'commonality').where('status', '=', 'failed').execute();
  // The cleanup's order: the least recently used finished rows first.
  await db.schema.createIndex('model_sample_lru_idx').on('model_sample').columns(['status', 'last_used_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const drop = db.schema.dropIndex('model_sample_lru_idx');
  await (db.getExecutor().adapter instanceof MysqlAdapter ? drop.on('model_sample') : drop).execute();
  await db.schema.alterTable('model_sample').dropColumn('last_used_at').execute();
  await db.schema.alterTable('model_sample').dropColumn('stored_bytes').execute();
}
