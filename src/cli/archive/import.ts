// `hub import`: restores an archive of `hub export` into a database and a file store of any kind,
// so that a failure at any point leaves the hub as it was, its rows and its files (extensions
// section 11). In order: the whole archive is checked (manifest, entries, sizes, SHA-256, rows)
// without changing anything; an empty database is migrated to the archive's schema version; the
// files are written to a staging folder of the store; in ONE transaction every row is replaced,
// the id counters raised (never lowered) and, last before the commit, the files switched: the
// previous hub's moved aside to a backup folder, the staged ones onto their keys (file-switch.ts).
// A failure up to the end of the commit rolls the rows back and moves the files back; only after
// the commit is the backup deleted (a failure there leaves a folder behind, said on stderr).
// Tests: import-attacks.test.ts (crafted archives refused before any change) and
// import-rollback.test.ts (failures injected while the files switch, at the commit, at the counters).
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../../core/db/connect.ts';
import { migrateDownAll, migrateTo, migrateToLatest } from '../../core/db/migrate.ts';
import type { FileStore } from '../../core/storage/index.ts';
import type { Manifest } from './manifest.ts';
import { fileSwitch, type FileSwitch } from './file-switch.ts';
import { replaceRows } from './restore.ts';
import { dataTables, hasRows, insertionOrder, raiseIdCounters } from './schema.ts';
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

/** Writes every archived file under `staging`, each read within its declared size. */
async function stageFiles(zip: ZipReader, manifest: Manifest, store: FileStore, staging: string): Promise<void> {
  for (const file of manifest.files) await store.put(`${staging}${file.key}`, await zip.open(file.path, file.size));
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

/**
 * Puts the previous hub's files back (when the switch had begun), removes the staged files and,
 * when the import migrated the (rowless) database, migrates it back to `previous` (null: none).
 */
async function undo(options: ImportOptions, files: FileSwitch, staging: string, previous: string | null | undefined, cause: unknown): Promise<void> {
  try {
    await files.revert();
    await options.store.deletePrefix(staging);
    if (previous !== undefined) await (previous ? migrateTo(options.db, previous) : migrateDownAll(options.db));
  } catch (error) {
    // The reason the import failed comes first; what is left to clean up follows.
    throw new Error(`${(cause as Error).message} (and undoing the import's start failed: ${(error as Error).message})`);
  }
}

/** After the commit: the backup and staging folders go; the import succeeded whatever happens here. */
async function cleanUp(files: FileSwitch, store: FileStore): Promise<void> {
  try {
    await files.finish();
  } catch (error) {
    process.stderr.write(`hub import: the import is complete, but removing the previous hub's files from ${files.backup} in ${store.location} failed (${(error as Error).message}): remove that folder\n`);
  }
}

/** Checks the target, migrates an empty database if needed, stages the files and replaces the rows (files switched just before the commit). */
async function restore(options: ImportOptions, zip: ZipReader, manifest: Manifest): Promise<void> {
  const dialect = dialectOf(options.databaseUrl);
  const { db, store } = options;
  const applied = await appliedVersion(db);
  const migrate = await checkTarget(options, manifest, applied);
  checkFileLayout(manifest, (await store.list('')).map((o) => o.key));
  const staging = `temp/import-${randomBytes(8).toString('hex')}/`;
  const files = fileSwitch(store, manifest, staging);
  try {
    // The database holds no row here: migrating it to the archive's version loses nothing, and is undone on failure.
    if (migrate) {
      await migrateDownAll(db);
      await migrateTo(db, manifest.schemaVersion);
    }
    const target = await dataTables(db, dialect);
    matchTables(manifest, target);
    await verifyRows(zip, manifest, target);
    const order = await insertionOrder(db, dialect, target);
    await stageFiles(zip, manifest, store, staging);
    await replaceRows(db, zip, manifest, order, dialect, async (trx) => {
      await raiseIdCounters(trx, dialect, order);
      await files.apply();
    });
  } catch (error) {
    await undo(options, files, staging, migrate ? applied ?? null : undefined, error);
    throw error;
  }
  await cleanUp(files, store);
}

export async function importHub(options: ImportOptions): Promise<ImportSummary> {
  const zip = await openZip(options.archive);
  try {
    const manifest = await readManifest(zip, options.maxBytes);
    await verifyEntries(zip, manifest, options.maxBytes);
    await restore(options, zip, manifest);
    await migrateToLatest(options.db);
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
