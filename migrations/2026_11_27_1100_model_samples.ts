// Samples and commonality in the hub (issue 24): one result per (model content's SHA-256, kind,
// parameters), computed once: the unique index lets exactly one instance insert the claimed row,
// the others answer `pending` until the result is stored.
import { MysqlAdapter, PostgresAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const adapter = db.getExecutor().adapter;
  // A sample of 10,000 configurations of a large model is far beyond MariaDB's 64 KiB TEXT.
  const big = adapter instanceof MysqlAdapter ? sql`longtext` : 'text';
  const table = db.schema.createTable('model_sample');
  await (adapter instanceof PostgresAdapter
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()))
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    // `commonality`, `uniform` or `twise`.
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    // The parameters in one canonical text (`n=100;seed=1;select=A,B;deselect=`), hashed when long.
    .addColumn('params', 'varchar(128)', (c) => c.notNull())
    .addColumn('engine_version', 'varchar(16)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('result', big)
    // Commonality: every feature's probability alone (the page's and the histogram's, far smaller than the result).
    .addColumn('summary', big)
    .addColumn('error', 'text')
    .addColumn('claimed_by', 'varchar(64)')
    .addColumn('claimed_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('finished_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('model_sample_key_idx').on('model_sample').columns(['sha256', 'kind', 'params', 'engine_version']).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('model_sample').ifExists().execute();
}
