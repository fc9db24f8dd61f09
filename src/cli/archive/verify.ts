// The checks `hub import` makes before it changes anything (extensions section 11): the manifest
// and its schema version, every entry's name, size and SHA-256 within IMPORT_MAX_BYTES, and every
// row's shape against the columns it is going into.
import { createInterface } from 'node:readline';
import { migrations } from '../../../migrations/index.ts';
import { checkKey, StorageKeyError } from '../../core/storage/index.ts';
import { MANIFEST_NAME, ManifestError, parseManifest, type ArchivedTable, type Manifest } from './manifest.ts';
import type { ColumnInfo, TableInfo } from './schema.ts';
import { rowProblem } from './values.ts';
import { ArchiveLimitError, type ZipReader } from './zip-reader.ts';

/** The manifest itself is read whole: bounded apart from the entries it lists. */
const MANIFEST_MAX_BYTES = 256 * 1024 * 1024;

/** The archive's manifest, its shape checked, read within the import's limit. */
export async function readManifest(zip: ZipReader, maxBytes: number): Promise<Manifest> {
  if (!zip.names().includes(MANIFEST_NAME)) throw new ManifestError(`This is not a hub archive: it has no ${MANIFEST_NAME}`);
  const limit = Math.min(maxBytes, MANIFEST_MAX_BYTES);
  if (zip.size(MANIFEST_NAME) > limit) throw new ArchiveLimitError(`The archive's manifest unpacks to ${zip.size(MANIFEST_NAME)} bytes, more than IMPORT_MAX_BYTES or ${MANIFEST_MAX_BYTES} (${limit}): nothing was imported`);
  return parseManifest(await zip.text(MANIFEST_NAME, limit));
}

/** Every entry present, nothing extra, each of the size and SHA-256 the manifest gives, all of them within `maxBytes`. */
export async function verifyEntries(zip: ZipReader, manifest: Manifest, maxBytes: number): Promise<void> {
  // Own keys only: `"toString"` or `"__proto__"` is in every object, and is no migration.
  if (!Object.hasOwn(migrations, manifest.schemaVersion)) {
    throw new ManifestError(`The archive's schema version ${JSON.stringify(manifest.schemaVersion)} is unknown to this hub: import it with the hub version that exported it, or a newer one`);
  }
  for (const file of manifest.files) {
    try {
      checkKey(file.key);
    } catch (error) {
      if (error instanceof StorageKeyError) throw new ManifestError(`The archive's file ${JSON.stringify(file.key)} is not a plain path inside the store: nothing was imported`);
      throw error;
    }
  }
  const entries = [...manifest.tables, ...manifest.files];
  const listed = new Set(entries.map((e) => e.path));
  for (const name of zip.names()) {
    if (name !== MANIFEST_NAME && !listed.has(name)) throw new ManifestError(`The archive holds ${JSON.stringify(name)}, which its manifest does not list`);
  }
  const total = entries.reduce((sum, e) => sum + e.size, zip.size(MANIFEST_NAME));
  if (total > maxBytes) throw new ArchiveLimitError(`The archive unpacks to ${total} bytes, more than IMPORT_MAX_BYTES (${maxBytes}): nothing was imported`);
  const present = new Set(zip.names());
  for (const entry of entries) {
    if (!present.has(entry.path)) throw new ManifestError(`The archive lacks ${entry.path}`);
    // The zip's own claim first (refused without inflating anything), then the bytes themselves.
    if (zip.size(entry.path) !== entry.size) {
      throw new ArchiveLimitError(`The archive's entry ${entry.path} holds ${zip.size(entry.path)} bytes, its manifest declares ${entry.size}: nothing was imported`);
    }
    const actual = await zip.sha256(entry.path, entry.size);
    if (actual !== entry.sha256) throw new ManifestError(`${entry.path} does not match its SHA-256 in the manifest (the archive is damaged): nothing was imported`);
  }
}

/**
 * No key of the archive is a folder of another key, of the archive or of the store (`user_1/dataset_1`
 * beside `user_1/dataset_1/a.uvl`): in an uploads folder one of them could not take its place, and
 * that would only show when the files move into place, after the rows committed (extensions section 11).
 */
export function checkFileLayout(manifest: Manifest, storeKeys: string[]): void {
  const archived = new Set(manifest.files.map((f) => f.key));
  const all = new Set([...archived, ...storeKeys]);
  for (const key of all) {
    const parts = key.split('/');
    for (let i = 1; i < parts.length; i++) {
      const folder = parts.slice(0, i).join('/');
      if (all.has(folder) && (archived.has(key) || archived.has(folder))) {
        throw new ManifestError(`The archive's file ${folder} would take the place of a folder holding ${key} (in the archive or the file store): nothing was imported`);
      }
    }
  }
}

/** The archived table's columns in the archive's order, with the kinds of the database's (which decide how values are written). */
export function targetColumns(archived: ArchivedTable, target: TableInfo): ColumnInfo[] {
  return archived.columns.map((c) => target.columns.find((t) => t.name === c.name) ?? c);
}

/** The archive's table rows, one JSON line each, read within the entry's declared size. */
export async function* rowLines(zip: ZipReader, archived: ArchivedTable): AsyncGenerator<string> {
  for await (const line of createInterface({ input: await zip.open(archived.path, archived.size), crlfDelay: Infinity })) {
    if (line !== '') yield line;
  }
}

/** Every row of every table fits its columns, and each table holds the rows its manifest counts. */
export async function verifyRows(zip: ZipReader, manifest: Manifest, target: TableInfo[]): Promise<void> {
  for (const table of target) {
    const archived = manifest.tables.find((t) => t.name === table.name)!;
    const columns = targetColumns(archived, table);
    let rows = 0;
    for await (const line of rowLines(zip, archived)) {
      rows++;
      const problem = rowProblem(line, columns);
      if (problem) throw new ManifestError(`Row ${rows} of the archive's table ${table.name} ${problem}: nothing was imported`);
    }
    if (rows !== archived.rows) throw new ManifestError(`The archive's table ${table.name} holds ${rows} rows, its manifest says ${archived.rows}: nothing was imported`);
  }
}

/** The archive's tables and columns are the database's at the archive's schema version. */
export function matchTables(manifest: Manifest, target: TableInfo[]): void {
  const names = (tables: { name: string }[]) => tables.map((t) => t.name).sort().join(', ');
  if (names(manifest.tables) !== names(target)) {
    throw new ManifestError(`The archive's tables (${names(manifest.tables)}) are not the database's at ${manifest.schemaVersion} (${names(target)})`);
  }
  for (const table of target) {
    const archived = manifest.tables.find((t) => t.name === table.name)!;
    if (names(archived.columns) !== names(table.columns)) throw new ManifestError(`The archive's columns of ${table.name} are not the database's`);
  }
}
