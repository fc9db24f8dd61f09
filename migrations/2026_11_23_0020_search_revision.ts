// A revision counter per dataset, raised by every write of its searchable content, and the
// revision each search index row was built from: at startup explore re-indexes the datasets
// whose revision moved while it was disabled (issue 12, item 5). Existing rows start equal.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('data_set').addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('explore_search').addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('explore_search').dropColumn('revision').execute();
  await db.schema.alterTable('data_set').dropColumn('revision').execute();
}
