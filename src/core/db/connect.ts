// Opens the database named by DATABASE_URL: sqlite:<path>, postgres://… or mysql://… (MariaDB).
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, MysqlAdapter, type Dialect, MysqlDialect, PostgresDialect, SqliteDialect, type CompiledQuery, type QueryResult, type Transaction } from 'kysely';
import { BackgroundCheckpoints } from './checkpoints.ts';
import { LruMap } from '../lru-map.ts';
import pg from 'pg';
import { createPool } from 'mysql2';
import type { Database } from './database.ts';

export type DialectName = 'sqlite' | 'postgres' | 'mysql';
export type Db = Kysely<Database>;
export type DbOrTrx = Kysely<Database> | Transaction<Database>;

export function dialectOf(url: string): DialectName {
  if (url.startsWith('sqlite:')) return 'sqlite';
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return 'postgres';
  if (url.startsWith('mysql://') || url.startsWith('mariadb://')) return 'mysql';
  throw new Error(`DATABASE_URL must start with sqlite:, postgres:// or mysql://, got "${url.split(':')[0]}:…"`);
}

export function sqlitePath(url: string): string {
  return url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
}

export interface ConnectOptions {
  /** Called with the SQL of every query run (tests count the queries of a page). */
  onQuery?: (sql: string) => void;
  /** Wraps the dialect (tests make a chosen statement, e.g. a COMMIT, fail on a real database). */
  wrapDialect?: (dialect: Dialect) => Dialect;
}

/** Prepared SQLite statements kept per SQL text (Kysely prepares every query again otherwise). */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Makes `prepare` answer the statement already prepared for the same SQL text (least recently
 * used first out, core/lru-map.ts). Safe with Kysely's SQLite driver: it runs one query at a time
 * on its single connection and runs each statement to completion (no query of the hub streams rows).
 */
function cacheStatements(database: SQLite.Database, onWrite: () => void): void {
  const cache = new LruMap<string, SQLite.Statement>(STATEMENT_CACHE_SIZE);
  const prepare = database.prepare.bind(database);
  database.prepare = ((source: string) => {
    let statement = cache.get(source);
    if (statement === undefined) {
      statement = prepare(source);
      cache.set(source, statement);
    }
    // Kysely prepares each query right before running it: a statement that may write is counted here.
    if (!statement.readonly) onWrite();
    return statement;
  }) as typeof database.prepare;
}

/**
 * A number that changes whenever the SQLite database may have changed: a statement that can
 * write was run on this connection, or another connection (another instance, the CLI) committed
 * (PRAGMA data_version). Read before a query, it tells a cache kept beside that query's result
 * whether the result is still current. Only SQLite answers it this cheaply.
 */
function sqliteChangeStamp(database: SQLite.Database): { stamp: () => number; wrote: () => void } {
  const dataVersion = database.prepare('PRAGMA data_version').pluck();
  let generation = 0;
  let seenVersion = dataVersion.get() as number;
  // Another connection's commit is looked for once per turn of the event loop: the requests read
  // in one turn arrived together, and a commit racing them could as well have come after. This
  // connection's own writes count at once (wrote). Asked once per request, the pragma was 4 % of
  // the server's busy time serving the DOI page to returning visitors (a CPU profile under load).
  let lookedThisTurn = false;
  const nextTurn = () => { lookedThisTurn = false; };
  return {
    wrote: () => { generation++; },
    stamp: () => {
      if (lookedThisTurn) return generation;
      lookedThisTurn = true;
      setImmediate(nextTurn);
      const version = dataVersion.get() as number;
      if (version !== seenVersion) {
        seenVersion = version;
        generation++;
      }
      return generation;
    },
  };
}

const changeStamps = new WeakMap<Db, () => number>();

/** The better-sqlite3 handle under a SQLite Db, for the writes that run at once (runNow). */
const sqliteHandles = new WeakMap<Db, SQLite.Database>();

/** Whether this handle is SQLite's, whose statements can run at once (runNow, inSqliteTransaction). */
export function runsNow(db: Db): boolean {
  return sqliteHandles.has(db);
}

function sqliteHandle(db: Db): SQLite.Database {
  const database = sqliteHandles.get(db);
  if (database === undefined) throw new Error('runNow needs a SQLite database');
  return database;
}

/** The query logger of a SQLite Db (ConnectOptions.onQuery), which runNow and runAtOnce call too. */
const queryLoggers = new WeakMap<Db, (sql: string) => void>();

/**
 * Runs a write on SQLite at once, without a promise or Kysely's executor (about two thirds of a
 * single-row insert's time, measured on the view record). Only inside inSqliteTransaction.
 */
export function runNow<R>(db: Db, query: CompiledQuery<R>): QueryResult<R> {
  return runOnHandle(db, sqliteHandle(db), query);
}

/** The query on the handle, as Kysely's SQLite driver runs it, told to the query logger. */
function runOnHandle<R>(db: Db, database: SQLite.Database, query: CompiledQuery<R>): QueryResult<R> {
  queryLoggers.get(db)?.(query.sql);
  const statement = database.prepare(query.sql);
  if (statement.reader) return { rows: statement.all(query.parameters as unknown[]) as R[] };
  const { changes, lastInsertRowid } = statement.run(query.parameters as unknown[]);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

/**
 * Runs `work` (synchronous writes with runNow) in one SQLite transaction, committed when it
 * returns and rolled back when it throws. While a transaction of Kysely's is open (it awaits
 * between its statements on the one connection) these writes would join it: they then wait
 * for Kysely's connection, which that transaction holds to its end.
 */
export async function inSqliteTransaction<R>(db: Db, work: () => R): Promise<R> {
  const database = sqliteHandle(db);
  if (!database.inTransaction) return database.transaction(work)();
  return db.connection().execute(async () => database.transaction(work)());
}

/**
 * A query of the Db itself (not of a transaction) on SQLite when no transaction is open: run at
 * once on the handle, as Kysely's driver would run it, without the driver's lock and the
 * executor's promises (a third of a hot query's time on the DOI page, measured). Safe because
 * better-sqlite3 runs each statement to its end on this thread: with no transaction open,
 * nothing can come between. Undefined when the query must go through Kysely.
 */
function runAtOnce<R>(db: DbOrTrx, query: CompiledQuery<R>): QueryResult<R> | undefined {
  const database = sqliteHandles.get(db as Db);
  if (database === undefined || database.inTransaction) return undefined;
  return runOnHandle(db as Db, database, query);
}

/** The background checkpoints of a file database's connection (checkpoints.ts), for tests. */
export const checkpointsOf = new WeakMap<Db, BackgroundCheckpoints>();

/**
 * The database's change stamp (sqliteChangeStamp) when it has one: equal stamps read before two
 * queries mean nothing was written in between. `undefined` on PostgreSQL and MariaDB, where only
 * a query can tell.
 */
export function changeStamp(db: Db): number | undefined {
  return changeStamps.get(db)?.();
}

/** A SQLite file (or memory) database: WAL, statements kept, the change stamp, checkpoints in a worker. */
function connectSqlite(url: string, log: { log?: (event: { query: { sql: string } }) => void }, wrap: (dialect: Dialect) => Dialect): Db {
  const path = sqlitePath(url);
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new SQLite(path);
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = NORMAL');
  const changes = sqliteChangeStamp(database);
  const checkpoints = path === ':memory:' ? undefined : new BackgroundCheckpoints(database, path);
  cacheStatements(database, () => {
    changes.wrote();
    checkpoints?.wrote();
  });
  const db = new Kysely<Database>({ dialect: wrap(new SqliteDialect({ database })), ...log });
  if (log.log) queryLoggers.set(db, (sql) => log.log!({ query: { sql } }));
  if (checkpoints) {
    // The worker's connection ends first and is waited for, then the dialect closes the serving
    // one (destroy() is its only way to close): destroy() resolving means no connection to the
    // file is left (a test removing the folder right after once found the worker still closing
    // its connection, ENOTEMPTY).
    const destroy = db.destroy.bind(db);
    db.destroy = async () => {
      await checkpoints.close();
      await destroy();
    };
    checkpointsOf.set(db, checkpoints);
  }
  changeStamps.set(db, changes.stamp);
  sqliteHandles.set(db, database);
  return db;
}

export function connect(url: string, options: ConnectOptions = {}): Db {
  const dialect = dialectOf(url);
  const log = options.onQuery ? { log: (event: { query: { sql: string } }) => options.onQuery!(event.query.sql) } : {};
  const wrap = options.wrapDialect ?? ((d: Dialect) => d);
  if (dialect === 'sqlite') return connectSqlite(url, log, wrap);
  if (dialect === 'postgres') {
    // COUNT(*) and BIGINT come back as strings from pg; repositories convert with Number().
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    // An idle connection closed by the server (restart, failover, a forced drop) is reported on the pool;
    // without a listener Node would end the process. The pool already discards that client and the next
    // query opens a fresh one, while a query in flight still gets its own error.
    pool.on('error', () => {});
    pool.on('connect', prepareHotStatements);
    return new Kysely<Database>({ dialect: wrap(new PostgresDialect({ pool })), ...log });
  }
  const pool = createPool({ uri: url.replace(/^mariadb:/, 'mysql:'), connectionLimit: 10, timezone: 'Z', charset: 'utf8mb4' });
  return new Kysely<Database>({ dialect: wrap(new MysqlDialect({ pool })), ...log });
}

/**
 * The SQL of compiledOnce's queries, each with a statement name. On PostgreSQL a named query is
 * parsed and planned once per connection and then only bound and run: half the time of an
 * unnamed one (Kysely's driver sends every query unnamed). The set is bounded by the program's
 * compiledOnce queries, so the server keeps a fixed number of statements per connection.
 */
const hotStatements = new Map<string, string>();

/** Makes a pool client send the known hot SQL texts as named (prepared) statements. */
function prepareHotStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (text: unknown, ...rest: unknown[]) => {
    const name = typeof text === 'string' ? hotStatements.get(text) : undefined;
    if (name === undefined || !Array.isArray(rest[0])) return query(text, ...rest);
    return query({ name, text, values: rest[0] }, ...rest.slice(1));
  };
}

/** The dialect of an open handle, read from its adapter rather than remembered separately. */
export function supportsReturning(db: DbOrTrx): boolean {
  return db.getExecutor().adapter.supportsReturning;
}

/**
 * Inserts one row and answers its generated id on every dialect:
 * MariaDB has no RETURNING and PostgreSQL gives no insertId.
 */
export async function insertAndGetId<T extends keyof Database & string>(
  db: DbOrTrx,
  table: T,
  values: Record<string, unknown>,
): Promise<number> {
  // The values are typed by the caller's repository; Kysely's generic insert types cannot follow a table name chosen at run time.
  const query = (db as Kysely<any>).insertInto(table).values(values);
  if (supportsReturning(db)) {
    const row = await query.returning('id').executeTakeFirstOrThrow();
    return Number(row.id);
  }
  const result = await query.executeTakeFirstOrThrow();
  return Number(result.insertId);
}

/**
 * Inserts one row unless a unique key already holds it, without an exception on that normal
 * path: ON CONFLICT DO NOTHING (SQLite, PostgreSQL) or INSERT IGNORE (MariaDB). Answers whether
 * the row was written. The unique index decides, so racing requests and instances write once.
 */
export async function insertUnlessDuplicate<T extends keyof Database & string>(
  db: DbOrTrx,
  table: T,
  values: Record<string, unknown>,
): Promise<boolean> {
  const result = await insertUnlessDuplicateQuery(db, table, values).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** The statement of insertUnlessDuplicate, for compiledOnce (its result's numAffectedRows says whether a row was written). */
export function insertUnlessDuplicateQuery<T extends keyof Database & string>(db: DbOrTrx, table: T, values: Record<string, unknown> | Record<string, unknown>[]) {
  const insert = (db as Kysely<any>).insertInto(table).values(values);
  return db.getExecutor().adapter instanceof MysqlAdapter ? insert.ignore() : insert.onConflict((oc) => oc.doNothing());
}

/**
 * A query of a hot path compiled once per database handle: `build` is called once with a
 * placeholder for each argument (so it must not look at their values, only place them), and
 * later calls run the same SQL with the arguments put where the placeholders went. Saves
 * Kysely's building and compiling on every request; the SQL is the one `build` makes.
 */
export function compiledOnce<A extends unknown[], R>(build: (db: DbOrTrx, ...args: A) => { compile(): CompiledQuery<R> }) {
  // Kept per dialect adapter, which a handle's transactions share with it: a query run inside a
  // transaction (a group commit's) is compiled once too, not once per transaction.
  const compiled = new WeakMap<object, { query: CompiledQuery<R>; slots: number[] }>();
  /** The query with these arguments in place, compiled on the first call. */
  const bound = (db: DbOrTrx, ...args: A): CompiledQuery<R> => {
    const adapter = db.getExecutor().adapter;
    let entry = compiled.get(adapter);
    if (!entry) {
      const markers = args.map((_, i) => `\u0000compiled-once-argument-${i}\u0000`);
      const query = build(db, ...(markers as unknown as A)).compile();
      entry = { query, slots: query.parameters.map((p) => markers.indexOf(p as string)) };
      if (!hotStatements.has(query.sql)) hotStatements.set(query.sql, `hub_hot_${hotStatements.size + 1}`);
      compiled.set(adapter, entry);
    }
    const { query, slots } = entry;
    return { ...query, parameters: query.parameters.map((p, i) => (slots[i]! >= 0 ? args[slots[i]!] : p)) };
  };
  const run = (db: DbOrTrx, ...args: A): Promise<QueryResult<R>> => {
    const query = bound(db, ...args);
    try {
      const result = runAtOnce(db, query);
      if (result !== undefined) return Promise.resolve(result);
    } catch (error) {
      return Promise.reject(error);
    }
    return db.executeQuery<R>(query);
  };
  return Object.assign(run, { bound });
}

/** True when the error is a unique-constraint violation, whatever the driver. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; errno?: number } | undefined;
  if (!e) return false;
  return e.code === '23505' || e.code === 'ER_DUP_ENTRY' || e.errno === 1062
    || e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** True when the error is a foreign key refusing a row whose referenced row is missing (deleted meanwhile), whatever the driver. */
export function isForeignKeyViolation(error: unknown): boolean {
  const e = error as { code?: string; errno?: number } | undefined;
  if (!e) return false;
  return e.code === '23503' || e.code === 'ER_NO_REFERENCED_ROW_2' || e.errno === 1452 || e.errno === 1216
    || e.code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** True when the database gave up a statement to break a lock cycle (it may be run again). */
export function isDeadlock(error: unknown): boolean {
  const e = error as { code?: string; errno?: number } | undefined;
  return e?.code === '40P01' || e?.code === 'ER_LOCK_DEADLOCK' || e?.errno === 1213;
}

/** IN lists are cut into parts of this size, far below every dialect's bound-parameter limit (SQLite 32766, PostgreSQL 65535). */
export const IN_LIST_CHUNK = 500;

/** Splits the values of an IN list into parts that every dialect accepts. */
export function inChunks<T>(values: readonly T[], size = IN_LIST_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += size) out.push(values.slice(i, i + size));
  return out;
}
