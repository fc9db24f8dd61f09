// What `hub export` and `hub import` need to know of a database beyond Kysely's introspection:
// the tables in an order that satisfies their foreign keys, the kind of each column (so that
// big integers, booleans and bytes survive a change of database), the counters each dialect
// keeps for generated ids, and SQLite's full-text tables, which are derived and rebuilt.
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../core/db/connect.ts';

/** How a column's values are written in the archive (values.ts). */
export type ColumnKind = 'integer' | 'bigint' | 'number' | 'boolean' | 'bytes' | 'text';

export interface ColumnInfo {
  name: string;
  kind: ColumnKind;
  /** The id column whose counter must be moved past the imported ids. */
  generated: boolean;
}

export interface TableInfo {
  name: string;
  columns: ColumnInfo[];
}

export function kindOf(dataType: string): ColumnKind {
  const type = dataType.toLowerCase();
  if (/^(int8|bigint)/.test(type)) return 'bigint';
  if (/bool/.test(type)) return 'boolean';
  if (/int/.test(type)) return 'integer';
  if (/blob|bytea|binary/.test(type)) return 'bytes';
  if (/real|double|float|numeric|decimal/.test(type)) return 'number';
  return 'text';
}

/**
 * SQLite's FTS5 tables (`explore_search_fts`, `model_feature_names_fts`) and their shadow tables:
 * an index kept beside a source table, not data of its own. Left out of the archive and rebuilt.
 */
async function sqliteVirtualTables(db: Kysely<any>): Promise<string[]> {
  const rows = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'`.execute(db);
  return rows.rows.map((r) => r.name);
}

/** Every data table of the database (the migrations' bookkeeping and derived indexes left out), by name. */
export async function dataTables(db: Kysely<any>, dialect: DialectName): Promise<TableInfo[]> {
  const virtual = dialect === 'sqlite' ? await sqliteVirtualTables(db) : [];
  const derived = (name: string) => virtual.some((v) => name === v || name.startsWith(`${v}_`));
  const tables = (await db.introspection.getTables()).filter((t) => !t.isView && !derived(t.name));
  return tables
    .map((t) => ({
      name: t.name,
      columns: t.columns.map((c) => ({ name: c.name, kind: kindOf(c.dataType), generated: c.isAutoIncrementing && dialect !== 'sqlite' })),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Pairs (table, the table it references) of every foreign key. */
async function foreignKeys(db: Kysely<any>, dialect: DialectName, tables: string[]): Promise<[string, string][]> {
  if (dialect === 'sqlite') {
    const pairs: [string, string][] = [];
    for (const table of tables) {
      const rows = await sql<{ table: string }>`SELECT "table" FROM pragma_foreign_key_list(${table})`.execute(db);
      for (const row of rows.rows) pairs.push([table, row.table]);
    }
    return pairs;
  }
  const rows = dialect === 'postgres'
    ? await sql<{ tbl: string; ref: string }>`SELECT cl.relname AS tbl, rf.relname AS ref FROM pg_constraint c
        JOIN pg_class cl ON cl.oid = c.conrelid JOIN pg_class rf ON rf.oid = c.confrelid
        JOIN pg_namespace n ON n.oid = cl.relnamespace WHERE c.contype = 'f' AND n.nspname = current_schema()`.execute(db)
    : await sql<{ tbl: string; ref: string }>`SELECT TABLE_NAME AS tbl, REFERENCED_TABLE_NAME AS ref FROM information_schema.KEY_COLUMN_USAGE
        WHERE TABLE_SCHEMA = DATABASE() AND REFERENCED_TABLE_NAME IS NOT NULL`.execute(db);
  return rows.rows.map((r) => [r.tbl, r.ref]);
}

/** The tables, each after every table it references (rows can then be inserted in this order). */
export async function insertionOrder(db: Kysely<any>, dialect: DialectName, tables: TableInfo[]): Promise<TableInfo[]> {
  const names = tables.map((t) => t.name);
  const references = new Map<string, Set<string>>(names.map((n) => [n, new Set<string>()]));
  for (const [table, referenced] of await foreignKeys(db, dialect, names)) {
    if (table !== referenced && references.has(table) && references.has(referenced)) references.get(table)!.add(referenced);
  }
  const ordered: TableInfo[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const ready = tables.filter((t) => !placed.has(t.name) && [...references.get(t.name)!].every((r) => placed.has(r)));
    if (ready.length === 0) throw new Error(`The foreign keys of ${names.filter((n) => !placed.has(n)).join(', ')} form a cycle`);
    for (const table of ready) {
      ordered.push(table);
      placed.add(table.name);
    }
  }
  return ordered;
}

/**
 * Raises each generated-id counter past the largest imported id, so the next row the hub inserts
 * gets a fresh id. Runs inside the import's transaction, before its commit, and never lowers a
 * counter: PostgreSQL's setval is not undone by a rollback, so a counter set to the archive's
 * largest id and left there by an import that then failed could hand the previous hub's ids out
 * again; raised only, it leaves at most a gap in the previous hub's ids.
 * Nothing to do elsewhere, and so nothing that can fail once the rows are in: MariaDB's InnoDB
 * moves AUTO_INCREMENT past every id inserted explicitly (the ALTER TABLE that would set it
 * commits on its own, so it could not run inside the transaction), and SQLite's AUTOINCREMENT
 * counter (sqlite_sequence) and rowid follow the inserted ids inside the transaction.
 */
export async function raiseIdCounters(trx: Kysely<any>, dialect: DialectName, tables: TableInfo[]): Promise<void> {
  if (dialect !== 'postgres') return;
  for (const table of tables) {
    for (const column of table.columns.filter((c) => c.generated)) {
      const found = await sql<{ seq: string | null }>`SELECT pg_get_serial_sequence(${`"${table.name}"`}, ${column.name}) AS seq`.execute(trx);
      const sequence = found.rows[0]?.seq;
      if (!sequence) continue;
      // The name comes quoted by PostgreSQL itself (quote_ident). The next value it would give, or
      // the one after the largest id, whichever is higher; `false`: that value is the next one.
      await sql`SELECT setval(${sequence}::regclass, GREATEST(
          (SELECT COALESCE(MAX(${sql.id(column.name)}), 0) + 1 FROM ${sql.id(table.name)}),
          (SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END FROM ${sql.raw(sequence)})), false)`.execute(trx);
    }
  }
}

/**
 * Fills SQLite's full-text tables from their source tables: `<table>_fts` indexes the columns of
 * the same names in `<table>`, under the rowid of that table's integer key (as the explore and
 * analysis repositories keep them).
 */
export async function rebuildSqliteFullText(db: Kysely<any>): Promise<void> {
  for (const virtual of await sqliteVirtualTables(db)) {
    const source = virtual.replace(/_fts$/, '');
    if (source === virtual) continue;
    const key = await sql<{ name: string }>`SELECT name FROM pragma_table_info(${source}) WHERE pk = 1`.execute(db);
    const columns = await sql<{ name: string }>`SELECT name FROM pragma_table_info(${virtual})`.execute(db);
    if (key.rows.length !== 1 || columns.rows.length === 0) throw new Error(`Cannot rebuild ${virtual} from ${source}`);
    const names = columns.rows.map((c) => sql.id(c.name));
    await sql`DELETE FROM ${sql.id(virtual)}`.execute(db);
    await sql`INSERT INTO ${sql.id(virtual)} (rowid, ${sql.join(names)}) SELECT ${sql.id(key.rows[0]!.name)}, ${sql.join(names)} FROM ${sql.id(source)}`.execute(db);
  }
}

/** Whether any data table holds a row. */
export async function hasRows(db: Kysely<any>, tables: TableInfo[]): Promise<boolean> {
  for (const table of tables) {
    const row = await sql<{ one: number }>`SELECT 1 AS one FROM ${sql.id(table.name)} LIMIT 1`.execute(db);
    if (row.rows.length > 0) return true;
  }
  return false;
}
