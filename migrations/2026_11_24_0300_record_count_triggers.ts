// The dataset view and download counts (migration 0010) raised by the database itself, in the
// statement that writes the record: a trigger per record table. The hub then writes a record with
// one INSERT … ON CONFLICT DO NOTHING (INSERT IGNORE), as before the counts, instead of a
// transaction around the insert and an update (which cost the DOI page a third of its speed on
// SQLite). A duplicate inserts no row, so no trigger fires, on all three databases.
import { MysqlAdapter, PostgresAdapter, sql, type Kysely } from 'kysely';

const COUNTERS = [
  { table: 'ds_view_record', column: 'view_count' },
  { table: 'ds_download_record', column: 'download_count' },
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  const adapter = db.getExecutor().adapter;
  for (const { table, column } of COUNTERS) {
    const trigger = sql.id(`${table}_counts`);
    const raise = sql`UPDATE data_set SET ${sql.id(column)} = ${sql.id(column)} + 1 WHERE id = NEW.dataset_id`;
    if (adapter instanceof PostgresAdapter) {
      const fn = sql.id(`${table}_counts_fn`);
      await sql`CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger AS $$ BEGIN ${raise}; RETURN NULL; END $$ LANGUAGE plpgsql`.execute(db);
      await sql`CREATE TRIGGER ${trigger} AFTER INSERT ON ${sql.id(table)} FOR EACH ROW EXECUTE FUNCTION ${fn}()`.execute(db);
    } else if (adapter instanceof MysqlAdapter) {
      await sql`CREATE TRIGGER ${trigger} AFTER INSERT ON ${sql.id(table)} FOR EACH ROW ${raise}`.execute(db);
    } else {
      await sql`CREATE TRIGGER ${trigger} AFTER INSERT ON ${sql.id(table)} BEGIN ${raise}; END`.execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const { table } of COUNTERS) {
    await sql`DROP TRIGGER IF EXISTS ${sql.id(`${table}_counts`)}${postgres ? sql` ON ${sql.id(table)}` : sql``}`.execute(db);
    if (postgres) await sql`DROP FUNCTION IF EXISTS ${sql.id(`${table}_counts_fn`)}()`.execute(db);
  }
}
