// Which staged files an upload is taking (issue 12, the object store): a row per (staging folder,
// name) whose unique index lets exactly one upload take a file, on every instance, also on
// object stores without an atomic rename or conditional writes. Rows live for one upload.
import { MysqlAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // File names are case-sensitive: MariaDB's default collation would make `A.uvl` and `a.uvl` one.
  const text = (length: number) => (db.getExecutor().adapter instanceof MysqlAdapter
    ? sql`varchar(${sql.raw(String(length))}) character set utf8mb4 collate utf8mb4_bin`
    : sql`varchar(${sql.raw(String(length))})`);
  await db.schema.createTable('staged_claim')
    // `temp/<user_id>/` or `temp/.api/<user_id>/`: the staging folder the name is in.
    .addColumn('folder', text(64), (c) => c.notNull())
    .addColumn('name', text(255), (c) => c.notNull())
    .addColumn('claim_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('claimed_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('staged_claim_pk', ['folder', 'name'])
    .execute();
  await db.schema.createIndex('staged_claim_claim_idx').on('staged_claim').column('claim_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('staged_claim').ifExists().execute();
}
