// Failures remembered (extensions section 10): a model that did not compile within its budget is
// not compiled again for the same content and engine version; the configurator then answers by
// propagation at once. One row per (content SHA-256, engine version).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('model_compile_failure')
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('engine_version', 'varchar(16)', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('model_compile_failure_pk', ['sha256', 'engine_version'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('model_compile_failure').ifExists().execute();
}
