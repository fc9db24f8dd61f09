// Issue 10: the explore index now holds each dataset's DOI and publication DOI too. Emptying
// the index makes the explore module rebuild every row at its next start (syncIndex indexes
// the datasets it lacks), so no row keeps the old text.
import { SqliteAdapter, sql, type Kysely } from 'kysely';

async function emptyIndex(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) await sql`DELETE FROM explore_search_fts`.execute(db);
  await db.deleteFrom('explore_search').execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  await emptyIndex(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await emptyIndex(db);
}
