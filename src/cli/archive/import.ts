// `hub import`: restores an archive of `hub export` into a database and a file store of any kind,
// so that a failure at any point before the rows commit leaves the hub as it was (extensions
// section 11). In order: the whole archive is checked (manifest, entries, sizes, SHA-256, rows)
// without changing anything; an empty database is migrated to the archive's schema version; the
// files are written to a staging folder of the store; every row is replaced in one transaction;
// only then are the staged files moved into place and the previous hub's other files removed.
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../../core/db/connect.ts';
import { migrateDownAll, migrateTo, migrateToLatest } from '../../core/db/migrate.ts';
import type { FileStore } from '../../core/storage/index.ts';
import type { Manifest } from './manifest.ts';
import { replaceRows } from './restore.ts';
import { dataTables, hasRows, insertionOrder, moveIdCounters } from './schema.ts';
import { checkFileLayout, matchTables, readManifest, verifyEntries, verifyRows } from './verify.ts';
import { openZip, type ZipReader } from './zip-reader.ts';

export interface ImportOptions {
  archive: string;
  db: Kysely<any>;
  databaseUrl: string;
  store: FileStore;
  /** Replace what the database and the store hold, instead of refusing. */
  replace?: boolean;
  /** The most bytes the archive's entries may unpack to, all together (IMPORT_MAX_BYTES). */
  maxBytes: number;
}

export class NotEmptyError extends Error {}

export interface ImportSummary {
  schemaVersion: string;
  tables: number;
  rows: number;
  files: number;
}

/** The last migration applied to the database, or undefined when it has none (or no migration table yet). */
async function appliedVersion(db: Kysely<any>): Promise<string | undefined> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((t) => t.name === 'kysely_migration')) return undefined;
  const row = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name DESC LIMIT 1`.execute(db);
  return row.rows[0]?.name;
}

/** The store's folders that belong to the hub's rows (as `hub db:reset` removes them); anything else is left alone. */
const hubOwned = (key: string) => /^(temp|user_\d+)\//.test(key);

/** Writes every archived file under `staging`, each read within its declared size. */
async function stageFiles(zip: ZipReader, manifest: Manifest, store: FileStore, staging: string): Promise<void> {
  for (const file of manifest.files) await store.put(`${staging}${file.key}`, await zip.open(file.path, file.size));
}

/** After the rows committed: the staged files take their keys, and the previous hub's files not in the archive go. */
async function switchFiles(manifest: Manifest, store: FileStore, staging: string): Promise<void> {
  for (const file of manifest.files) await store.move(`${staging}${file.key}`, file.key);
  await store.deletePrefix(staging);
  const kept = new Set(manifest.files.map((f) => f.key));
  for (const object of await store.list('')) {
    if (hubOwned(object.key) && !kept.has(object.key)) await store.delete(object.key);
  }
}

/**
 * Refuses a hub that holds anything unless `replace`, and a hub with rows at another schema
 * version than the archive's: its rows could only be replaced after migrating it, which MariaDB
 * cannot undo. Answers whether the database must first be migrated to the archive's version.
 */
async function checkTarget(options: ImportOptions, manifest: Manifest, applied: string | undefined): Promise<boolean> {
  const { db, store } = options;
  const rows = await hasRows(db, await dataTables(db, dialectOf(options.databaseUrl)));
  if (!options.replace) {
    if (rows) throw new NotEmptyError('The database is not empty: run `hub import --replace` to replace what it holds');
    if ((await store.list('')).length > 0) throw new NotEmptyError(`The file store ${store.location} is not empty: run \`hub import --replace\` to replace what it holds`);
  }
  if (applied === manifest.schemaVersion) return false;
  if (rows) {
    throw new NotEmptyError(`The database holds a hub at schema version ${applied ?? '(none)'} and the archive is at ${manifest.schemaVersion}: `
      + 'replace it only with an archive of its own version (export it with this hub\'s version), or import into an empty database');
  }
  return true;
}

/** Removes the staged files and, when the import migrated the (rowless) database, migrates it back to `previous` (null: none). */
async function undo(db: Kysely<any>, store: FileStore, staging: string, previous: string | null | undefined, cause: unknown): Promise<void> {
  try {
    await store.deletePrefix(staging);
    if (previous !== undefined) await (previous ? migrateTo(db, previous) : migrateDownAll(db));
  } catch (error) {
    // The reason the import failed comes first; what is left to clean up follows.
    throw new Error(`${(cause as Error).message} (and undoing the import's start failed: ${(error as Error).message})`);
  }
}

export async function importHub(options: ImportOptions): Promise<ImportSummary> {
  const dialect = dialectOf(options.databaseUrl);
  const { db, store } = options;
  const zip = await openZip(options.archive);
  try {
    const manifest = await readManifest(zip, options.maxBytes);
    await verifyEntries(zip, manifest, options.maxBytes);
    const applied = await appliedVersion(db);
    const migrate = await checkTarget(options, manifest, applied);
    checkFileLayout(manifest, (await store.list('')).map((o) => o.key));
    const staging = `temp/import-${randomBytes(8).toString('hex')}/`;
    let order: Awaited<ReturnType<typeof insertionOrder>>;
    try {
      // The database holds no row here: migrating it to the archive's version loses nothing, and is undone on failure.
      if (migrate) {
        await migrateDownAll(db);
        await migrateTo(db, manifest.schemaVersion);
      }
      const target = await dataTables(db, dialect);
      matchTables(manifest, target);
      await verifyRows(zip, manifest, target);
      order = await insertionOrder(db, dialect, target);
      await stageFiles(zip, manifest, store, staging);
      await replaceRows(db, zip, manifest, order, dialect);
    } catch (error) {
      await undo(db, store, staging, migrate ? applied ?? null : undefined, error);
      throw error;
    }
    // The rows are in. Counters are not transactional (PostgreSQL's setval, MariaDB's ALTER TABLE): moved only now.
    if (dialect !== 'sqlite') await moveIdCounters(db, dialect, order);
    await switchFiles(manifest, store, staging);
    await migrateToLatest(db);
    return {
      schemaVersion: manifest.schemaVersion,
      tables: manifest.tables.length,
      rows: manifest.tables.reduce((sum, t) => sum + t.rows, 0),
      files: manifest.files.length,
    };
  } finally {
    zip.close();
  }
}
