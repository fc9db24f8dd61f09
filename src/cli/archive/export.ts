// `hub export`: every table and every stored file of a hub into one zip (manifest.ts), read in one
// database transaction so the tables agree with each other.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable, Transform, pipeline } from 'node:stream';
import { finished } from 'node:stream/promises';
import SQLite from 'better-sqlite3';
import { Kysely, MysqlDialect, SqliteDialect, sql } from 'kysely';
import { createPool } from 'mysql2';
import { ZipArchive } from 'archiver';
import { connect, dialectOf, sqlitePath, type DialectName } from '../../core/db/connect.ts';
import type { FileStore } from '../../core/storage/index.ts';
import { ARCHIVE_FORMAT, ARCHIVE_FORMAT_VERSION, MANIFEST_NAME, filePath, tablePath, type ArchivedEntry, type Manifest } from './manifest.ts';
import { dataTables, type TableInfo } from './schema.ts';
import { encodeRow } from './values.ts';

const PAGE = 1000;

/**
 * The database opened so that every integer reads back exactly: SQLite read-only with 64-bit
 * integers as BigInt, MariaDB with big numbers as strings (pg already answers BIGINT as a string).
 */
export function openForExport(url: string): Kysely<any> {
  const dialect = dialectOf(url);
  if (dialect === 'sqlite') {
    const database = new SQLite(sqlitePath(url), { readonly: true, fileMustExist: true });
    database.defaultSafeIntegers(true);
    return new Kysely<any>({ dialect: new SqliteDialect({ database }) });
  }
  if (dialect === 'mysql') {
    const pool = createPool({ uri: url.replace(/^mariadb:/, 'mysql:'), connectionLimit: 2, timezone: 'Z', charset: 'utf8mb4', supportBigNumbers: true, bigNumberStrings: true });
    return new Kysely<any>({ dialect: new MysqlDialect({ pool }) });
  }
  return connect(url) as Kysely<any>;
}

/** Adds one entry to the zip and answers its SHA-256 and size once the zip has taken all of it. */
function addEntry(archive: ZipArchive, name: string, source: Readable): Promise<ArchivedEntry> {
  const hash = createHash('sha256');
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  return new Promise((resolve, reject) => {
    const onEntry = (entry: { name: string }) => {
      if (entry.name !== name) return;
      archive.off('entry', onEntry);
      resolve({ path: name, sha256: hash.digest('hex'), size });
    };
    archive.on('entry', onEntry);
    archive.append(pipeline(source, counter, (error) => { if (error) reject(error); }), { name });
  });
}

async function* tableLines(db: Kysely<any>, table: TableInfo, counted: { rows: number }): AsyncGenerator<string> {
  const order = sql.join(table.columns.map((c) => sql.id(c.name)));
  for (let offset = 0; ; offset += PAGE) {
    const page = await sql<Record<string, unknown>>`SELECT * FROM ${sql.id(table.name)} ORDER BY ${order} LIMIT ${PAGE} OFFSET ${offset}`.execute(db);
    for (const row of page.rows) yield `${encodeRow(row, table.columns)}\n`;
    counted.rows += page.rows.length;
    if (page.rows.length < PAGE) return;
  }
}

async function schemaVersion(db: Kysely<any>): Promise<string> {
  const row = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name DESC LIMIT 1`.execute(db);
  if (!row.rows[0]) throw new Error('The database has no migration applied: nothing to export');
  return row.rows[0].name;
}

/** Writes the archive of the hub on `url` and `store` to `out`; answers its manifest. */
export async function exportHub(options: { databaseUrl: string; store: FileStore; out: string }): Promise<Manifest> {
  const dialect: DialectName = dialectOf(options.databaseUrl);
  const db = openForExport(options.databaseUrl);
  const archive = new ZipArchive({ zlib: { level: 6 } });
  // Written beside `out` and renamed once whole: a failed export leaves no half archive, and an
  // archive already at `out` (the last good backup, say) is kept until the new one replaces it.
  const partial = `${options.out}.${randomBytes(6).toString('hex')}.partial`;
  const output = createWriteStream(partial);
  archive.pipe(output);
  // The file's own errors (a folder that does not exist, a full disk) fail the export like the zip's.
  const failed = new Promise<never>((_, reject) => {
    archive.on('error', reject);
    output.on('error', reject);
  });
  try {
    const work = async (trx: Kysely<any>): Promise<Manifest> => {
      const manifest: Manifest = {
        format: ARCHIVE_FORMAT, formatVersion: ARCHIVE_FORMAT_VERSION, createdAt: new Date().toISOString(),
        schemaVersion: await schemaVersion(trx), sourceDialect: dialect, tables: [], files: [],
      };
      for (const table of await dataTables(trx, dialect)) {
        const counted = { rows: 0 };
        const entry = await addEntry(archive, tablePath(table.name), Readable.from(tableLines(trx, table, counted)));
        manifest.tables.push({ ...table, ...entry, rows: counted.rows });
      }
      for (const object of await options.store.list('')) {
        const content = await options.store.get(object.key);
        if (!content) continue; // removed since the listing: not part of the hub any more
        manifest.files.push({ key: object.key, ...(await addEntry(archive, filePath(object.key), content.body)) });
      }
      return manifest;
    };
    // One snapshot of every table: a repeatable-read transaction (SQLite: one read transaction).
    const manifest = await Promise.race([
      dialect === 'sqlite' ? db.transaction().execute(work) : db.transaction().setIsolationLevel('repeatable read').execute(work),
      failed,
    ]);
    archive.append(`${JSON.stringify(manifest, null, 1)}\n`, { name: MANIFEST_NAME });
    await Promise.race([archive.finalize(), failed]);
    await finished(output);
    await rename(partial, options.out);
    return manifest;
  } catch (error) {
    archive.abort();
    output.destroy();
    await rm(partial, { force: true });
    throw error;
  } finally {
    await db.destroy();
  }
}
