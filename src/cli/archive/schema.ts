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
 * Moves each generated-id counter past the largest imported id, so the next row the hub inserts
 * gets a fresh id: PostgreSQL's serial sequences and MariaDB's AUTO_INCREMENT (an ALTER TABLE,
 * which MariaDB commits on its own: run it after the import's transaction). SQLite raises its
 * AUTOINCREMENT counter by itself when an id above it is inserted.
 */
export async function moveIdCounters(db: Kysely<any>, dialect: DialectName, tables: TableInfo[]): Promise<void> {
  for (const table of tables) {
    for (const column of table.columns.filter((c) => c.generated)) {
      const max = await sql<{ max: number | string | null }>`SELECT MAX(${sql.id(column.name)}) AS max FROM ${sql.id(table.name)}`.execute(db);
      const top = max.rows[0]?.max === null || max.rows[0]?.max === undefined ? 0 : Number(max.rows[0].max);
      if (dialect === 'postgres') {
        await sql`SELECT setval(pg_get_serial_sequence(${`"${table.name}"`}, ${column.name}), ${Math.max(top, 1)}, ${top > 0})`.execute(db);
      } else if (dialect === 'mysql') {
        await sql`ALTER TABLE ${sql.id(table.name)} AUTO_INCREMENT = ${sql.raw(String(top + 1))}`.execute(db);
      }
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
