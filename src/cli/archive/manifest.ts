// The archive of `hub export`: a zip with `tables/<table>.jsonl` (one JSON array of values per
// row, values.ts), `files/<key>` (every object of the file store under its key) and
// `manifest.json`, which lists each of them with its SHA-256, and the schema version (the last
// migration the exported database had applied).
import type { TableInfo } from './schema.ts';

export const ARCHIVE_FORMAT = 'uvl-hub-archive';
export const ARCHIVE_FORMAT_VERSION = 1;
export const MANIFEST_NAME = 'manifest.json';

export interface ArchivedEntry {
  /** The entry's name in the zip. */
  path: string;
  sha256: string;
  size: number;
}

export interface ArchivedTable extends TableInfo, ArchivedEntry {
  rows: number;
}

export interface ArchivedFile extends ArchivedEntry {
  /** The file store key. */
  key: string;
}

export interface Manifest {
  format: typeof ARCHIVE_FORMAT;
  formatVersion: number;
  createdAt: string;
  /** The last migration applied to the exported database. */
  schemaVersion: string;
  sourceDialect: string;
  tables: ArchivedTable[];
  files: ArchivedFile[];
}

export const tablePath = (table: string) => `tables/${table}.jsonl`;
export const filePath = (key: string) => `files/${key}`;

/** Checks the shape of a manifest read from an archive (it came from a file, not from this program). */
export function parseManifest(text: string): Manifest {
  const manifest = JSON.parse(text) as Manifest;
  if (manifest?.format !== ARCHIVE_FORMAT) throw new Error('This is not a hub archive (its manifest names another format)');
  if (manifest.formatVersion !== ARCHIVE_FORMAT_VERSION) throw new Error(`This archive has format version ${manifest.formatVersion}; this hub reads version ${ARCHIVE_FORMAT_VERSION}`);
  if (typeof manifest.schemaVersion !== 'string' || !Array.isArray(manifest.tables) || !Array.isArray(manifest.files)) {
    throw new Error('The archive\'s manifest is incomplete');
  }
  for (const table of manifest.tables) if (table.path !== tablePath(table.name)) throw new Error(`The manifest places table ${table.name} at ${table.path}`);
  for (const file of manifest.files) if (file.path !== filePath(file.key)) throw new Error(`The manifest places file ${file.key} at ${file.path}`);
  return manifest;
}
