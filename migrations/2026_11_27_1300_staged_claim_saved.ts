// Issue 26, crash tests: a claim of staged files whose upload committed its dataset is marked in
// the same transaction (`saved_at`), so that a process killed after that commit, before it
// removed the claimed files, leaves a claim that is discarded, not put back into the staging area
// (the files would otherwise be offered again beside the dataset that holds them).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('staged_claim').addColumn('saved_at', 'varchar(32)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('staged_claim').dropColumn('saved_at').execute();
}
