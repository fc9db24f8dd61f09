// `hub import`: restores an archive of `hub export` into a database and a file store of any kind.
// Every entry is checked against its SHA-256 before anything is written; the files are written
// first (a row never points at a missing file), then every row in one transaction.
import { createInterface } from 'node:readline';
import type { Kysely } from 'kysely';
import { dialectOf, type DialectName } from '../../core/db/connect.ts';
import { migrateDownAll, migrateTo, migrateToLatest } from '../../core/db/migrate.ts';
import { checkKey, type FileStore } from '../../core/storage/index.ts';
import { migrations } from '../../../migrations/index.ts';
import { MANIFEST_NAME, parseManifest, type ArchivedTable, type Manifest } from './manifest.ts';
import { dataTables, hasRows, insertionOrder, moveIdCounters, rebuildSqliteFullText, type TableInfo } from './schema.ts';
import { decodeRow } from './values.ts';
import { openZip, type ZipReader } from './zip-reader.ts';

/** Rows per INSERT, and the JSON size after which a batch is sent earlier (MariaDB's packet limit). */
const BATCH_ROWS = 200;
const BATCH_BYTES = 1 << 20;

/**
 * Columns the database raises itself when a row of another table is inserted (the view and
 * download counts, migration 2026_11_24_0300): written again from the archive once every
 * record row is in, or each count would hold twice its records.
 */
const RAISED_BY_TRIGGERS = [{ table: 'data_set', key: 'id', columns: ['view_count', 'download_count'] }];

export interface ImportOptions {
  archive: string;
  db: Kysely<any>;
  databaseUrl: string;
  store: FileStore;
  /** Drop what the database and the store hold first, instead of refusing. */
  replace?: boolean;
  /** Empties the store's hub folders (`user_<id>/`, `temp/`) for `replace`. */
  clearStore: (store: FileStore) => Promise<void>;
}

export class NotEmptyError extends Error {}

/** Every entry present, nothing extra, each with the SHA-256 the manifest gives. */
async function verifyArchive(zip: ZipReader, manifest: Manifest): Promise<void> {
  const listed = new Map([...manifest.tables, ...manifest.files].map((e) => [e.path, e.sha256]));
  for (const file of manifest.files) checkKey(file.key);
  for (const name of zip.names()) {
    if (name !== MANIFEST_NAME && !listed.has(name)) throw new Error(`The archive holds ${name}, which its manifest does not list`);
  }
  const present = new Set(zip.names());
  for (const [path, expected] of listed) {
    if (!present.has(path)) throw new Error(`The archive lacks ${path}`);
    const actual = await zip.sha256(path);
    if (actual !== expected) throw new Error(`${path} does not match its SHA-256 in the manifest (the archive is damaged): nothing was imported`);
  }
  if (!(manifest.schemaVersion in migrations)) {
    throw new Error(`The archive's schema version ${manifest.schemaVersion} is unknown to this hub: import it with the hub version that exported it, or a newer one`);
  }
}

/** The archived table's rows, in batches ready to insert into the target's columns. */
async function* rowBatches(zip: ZipReader, archived: ArchivedTable, target: TableInfo, dialect: DialectName): AsyncGenerator<Record<string, unknown>[]> {
  const columns = archived.columns.map((c) => target.columns.find((t) => t.name === c.name) ?? c);
  let batch: Record<string, unknown>[] = [];
  let bytes = 0;
  for await (const line of createInterface({ input: await zip.open(archived.path), crlfDelay: Infinity })) {
    if (line === '') continue;
    batch.push(decodeRow(line, columns, dialect));
    bytes += line.length;
    if (batch.length >= BATCH_ROWS || bytes >= BATCH_BYTES) {
      yield batch;
      batch = [];
      bytes = 0;
    }
  }
  if (batch.length > 0) yield batch;
}

function matchTables(manifest: Manifest, target: TableInfo[]): void {
  const names = (tables: { name: string }[]) => tables.map((t) => t.name).sort().join(', ');
  if (names(manifest.tables) !== names(target)) {
    throw new Error(`The archive's tables (${names(manifest.tables)}) are not the database's at ${manifest.schemaVersion} (${names(target)})`);
  }
  for (const table of target) {
    const archived = manifest.tables.find((t) => t.name === table.name)!;
    if (names(archived.columns) !== names(table.columns)) throw new Error(`The archive's columns of ${table.name} are not the database's`);
  }
}

async function insertRows(trx: Kysely<any>, zip: ZipReader, manifest: Manifest, order: TableInfo[], dialect: DialectName): Promise<void> {
  for (const table of order) {
    const archived = manifest.tables.find((t) => t.name === table.name)!;
    let rows = 0;
    for await (const batch of rowBatches(zip, archived, table, dialect)) {
      await trx.insertInto(table.name).values(batch).execute();
      rows += batch.length;
    }
    if (rows !== archived.rows) throw new Error(`The archive's ${table.name} holds ${rows} rows, its manifest says ${archived.rows}`);
  }
  for (const raised of RAISED_BY_TRIGGERS) {
    const archived = manifest.tables.find((t) => t.name === raised.table);
    const target = order.find((t) => t.name === raised.table);
    if (!archived || !target || !raised.columns.every((c) => target.columns.some((t) => t.name === c))) continue;
    for await (const batch of rowBatches(zip, archived, target, dialect)) {
      for (const row of batch) {
        const values = Object.fromEntries(raised.columns.map((c) => [c, row[c]]));
        await trx.updateTable(raised.table).set(values).where(raised.key, '=', row[raised.key]).execute();
      }
    }
  }
  if (dialect === 'sqlite') await rebuildSqliteFullText(trx);
  if (dialect === 'postgres') await moveIdCounters(trx, dialect, order);
}

export interface ImportSummary {
  schemaVersion: string;
  tables: number;
  rows: number;
  files: number;
}

export async function importHub(options: ImportOptions): Promise<ImportSummary> {
  const dialect = dialectOf(options.databaseUrl);
  const { db, store } = options;
  const zip = await openZip(options.archive);
  try {
    const manifest = parseManifest(await zip.text(MANIFEST_NAME));
    await verifyArchive(zip, manifest);
    if (!options.replace) {
      if (await hasRows(db, await dataTables(db, dialect))) throw new NotEmptyError('The database is not empty: run `hub import --replace` to drop what it holds');
      if ((await store.list('')).length > 0) throw new NotEmptyError(`The file store ${store.location} is not empty: run \`hub import --replace\` to drop what it holds`);
    } else {
      await options.clearStore(store);
    }
    // The schema the archive was written from, so its rows fit; the newer migrations run after.
    await migrateDownAll(db);
    await migrateTo(db, manifest.schemaVersion);
    const target = await dataTables(db, dialect);
    matchTables(manifest, target);
    const order = await insertionOrder(db, dialect, target);
    for (const file of manifest.files) await store.put(file.key, await zip.open(file.path));
    await db.transaction().execute((trx) => insertRows(trx, zip, manifest, order, dialect));
    if (dialect === 'mysql') await moveIdCounters(db, dialect, order);
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

