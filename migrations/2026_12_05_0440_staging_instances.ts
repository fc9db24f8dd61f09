// Issue 37, item 9: a claim of staged files names the instance holding it, and each instance has a
// row it dates every few seconds (a clean stop deletes it). A claim whose instance's row is gone,
// is not dated any more, or names a process of this machine that no longer runs, is free at once:
// a restarted server no longer refuses the same files for a minute.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('staging_instance')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    // The kernel's boot and process-id namespace, and the process id: another process of the same
    // space that finds the pid gone knows the instance died, without waiting for its date to age.
    .addColumn('pid_space', 'varchar(128)')
    .addColumn('pid', 'integer')
    .addColumn('heartbeat_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('staged_claim').addColumn('instance_id', 'varchar(36)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('staged_claim').dropColumn('instance_id').execute();
  await db.schema.dropTable('staging_instance').ifExists().execute();
}
