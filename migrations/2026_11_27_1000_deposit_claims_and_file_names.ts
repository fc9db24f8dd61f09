// Issue 26, races: one deposit however many publishes race, one file per name under concurrent
// uploads. `ds_meta_data.deposit_claimed_at` is the deposit claim, taken by a conditional UPDATE
// that only one request wins (a claim older than the stale limit is a crashed process's and is
// taken over). `dataset_file_name` holds one row per (dataset, file name): its primary key lets
// exactly one of two simultaneous uploads of one name into one dataset in, on every database.
import { MysqlAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ds_meta_data').addColumn('deposit_claimed_at', 'varchar(32)').execute();
  // File names are case-sensitive: MariaDB's default collation would make `A.uvl` and `a.uvl` one.
  const name = db.getExecutor().adapter instanceof MysqlAdapter
    ? sql`varchar(255) character set utf8mb4 collate utf8mb4_bin`
    : sql`varchar(255)`;
  await db.schema.createTable('dataset_file_name')
    .addColumn('data_set_id', 'integer', (c) => c.notNull().references('data_set.id').onDelete('cascade'))
    .addColumn('name', name, (c) => c.notNull())
    .addPrimaryKeyConstraint('dataset_file_name_pk', ['data_set_id', 'name'])
    .execute();
  // The files already kept: one row per dataset and name (DISTINCT: older rows were never checked).
  await db.insertInto('dataset_file_name').columns(['data_set_id', 'name'])
    .expression(db.selectFrom('file as f').innerJoin('feature_model as fm', 'fm.id', 'f.feature_model_id')
      .select(['fm.data_set_id', 'f.name']).distinct())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('dataset_file_name').ifExists().execute();
  await db.schema.alterTable('ds_meta_data').dropColumn('deposit_claimed_at').execute();
}
