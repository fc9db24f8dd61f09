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

const SHA256 = /^[0-9a-f]{64}$/;
const KINDS: readonly string[] = ['integer', 'bigint', 'number', 'boolean', 'bytes', 'text'];

export class ManifestError extends Error {}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isSize = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

function checkEntry(entry: unknown, what: string): asserts entry is ArchivedEntry {
  if (!isRecord(entry) || typeof entry.path !== 'string' || typeof entry.sha256 !== 'string' || !SHA256.test(entry.sha256) || !isSize(entry.size)) {
    throw new ManifestError(`The archive's manifest lists ${what} without a path, a SHA-256 and a size`);
  }
}

function checkTable(table: unknown): asserts table is ArchivedTable {
  const name = isRecord(table) && typeof table.name === 'string' && /^[A-Za-z0-9_]+$/.test(table.name) ? table.name : undefined;
  if (!name) throw new ManifestError('The archive\'s manifest lists a table without a plain name');
  checkEntry(table, `table ${name}`);
  const t = table as unknown as Record<string, unknown>;
  const columnsFine = Array.isArray(t.columns) && t.columns.length > 0
    && t.columns.every((c) => isRecord(c) && typeof c.name === 'string' && typeof c.kind === 'string' && KINDS.includes(c.kind));
  if (!isSize(t.rows) || !columnsFine) throw new ManifestError(`The archive's manifest gives table ${name} without its row count or columns`);
  if (t.path !== tablePath(name)) throw new ManifestError(`The manifest places table ${name} at ${String(t.path)}`);
}

function checkFile(file: unknown): asserts file is ArchivedFile {
  if (!isRecord(file) || typeof file.key !== 'string') throw new ManifestError('The archive\'s manifest lists a file without a key');
  checkEntry(file, `file ${file.key}`);
  if (file.path !== filePath(file.key)) throw new ManifestError(`The manifest places file ${file.key} at ${String(file.path)}`);
}

function unique(values: string[], what: string): void {
  const seen = new Set<string>();
  for (const value of values) {
    if (seen.has(value)) throw new ManifestError(`The archive's manifest lists ${what} ${value} twice`);
    seen.add(value);
  }
}

/**
 * Checks the shape of a manifest read from an archive: it came from a file, not from this
 * program, so every field is checked for its type before anything reads it.
 */
export function parseManifest(text: string): Manifest {
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch {
    throw new ManifestError('The archive\'s manifest is not JSON');
  }
  if (!isRecord(manifest) || manifest.format !== ARCHIVE_FORMAT) throw new ManifestError('This is not a hub archive (its manifest names another format)');
  if (manifest.formatVersion !== ARCHIVE_FORMAT_VERSION) throw new ManifestError(`This archive has format version ${String(manifest.formatVersion)}; this hub reads version ${ARCHIVE_FORMAT_VERSION}`);
  if (typeof manifest.schemaVersion !== 'string' || !Array.isArray(manifest.tables) || !Array.isArray(manifest.files)) {
    throw new ManifestError('The archive\'s manifest is incomplete');
  }
  for (const table of manifest.tables) checkTable(table);
  for (const file of manifest.files) checkFile(file);
  unique((manifest.tables as ArchivedTable[]).map((t) => t.name), 'table');
  unique((manifest.files as ArchivedFile[]).map((f) => f.key), 'file');
  return manifest as unknown as Manifest;
}
