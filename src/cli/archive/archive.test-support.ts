// What the archive test compares between the exported hub and each imported one: every table's
// rows (through the export's exact reading), and what visitors see over HTTP.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { ZipArchive } from 'archiver';
import { dialectOf } from '../../core/db/connect.ts';
import { TestClient } from '../../../test/support/client.ts';
import { openForExport } from './export.ts';
import { dataTables } from './schema.ts';
import { encodeRow } from './values.ts';
import { openZip } from './zip-reader.ts';

/** Every data table's rows as sorted JSON lines, by table name. */
export async function dumpTables(databaseUrl: string): Promise<Record<string, string[]>> {
  const db = openForExport(databaseUrl);
  try {
    const dump: Record<string, string[]> = {};
    for (const table of await dataTables(db, dialectOf(databaseUrl))) {
      const rows = await db.selectFrom(table.name).selectAll().execute();
      dump[table.name] = rows.map((row) => encodeRow(row, table.columns)).sort();
    }
    return dump;
  } finally {
    await db.destroy();
  }
}

/** The rows of every table of an archive as sorted JSON lines, by table name (like dumpTables). */
export async function archivedRows(archive: string): Promise<Record<string, string[]>> {
  const zip = await openZip(archive);
  try {
    const manifest = JSON.parse(await zip.text('manifest.json', Infinity)) as { tables: { name: string; path: string }[] };
    const rows: Record<string, string[]> = {};
    for (const table of manifest.tables) rows[table.name] = (await zip.text(table.path, Infinity)).split('\n').filter(Boolean).sort();
    return rows;
  } finally {
    zip.close();
  }
}

/** Parts of a page that differ between any two requests (the CSRF token, script nonces). */
function normalizePage(html: string): string {
  return html.replace(/(name="csrf-token" content=")[^"]*"/g, '$1"').replace(/(name="csrf_token" value=")[^"]*"/g, '$1"').replace(/nonce="[^"]*"/g, 'nonce=""');
}

export interface VisibleHub {
  doiPages: Record<string, string>;
  fileHashes: Record<number, string>;
  analyses: Record<number, unknown>;
  search: unknown;
}

/** What one anonymous visitor sees of the DOI pages, files, analyses and a search (each request once). */
export async function visibleHub(baseUrl: string, dois: string[], fileIds: number[]): Promise<VisibleHub> {
  const client = new TestClient(baseUrl);
  const seen: VisibleHub = { doiPages: {}, fileHashes: {}, analyses: {}, search: undefined };
  for (const doi of dois) {
    const page = await client.get(`/doi/${doi}/`);
    seen.doiPages[doi] = `${page.status} ${normalizePage(page.text)}`;
  }
  for (const id of fileIds) {
    const res = await fetch(`${baseUrl}/file/download/${id}`);
    seen.fileHashes[id] = `${res.status} ${createHash('sha256').update(Buffer.from(await res.arrayBuffer())).digest('hex')}`;
    seen.analyses[id] = await (await fetch(`${baseUrl}/api/v1/files/${id}/analysis`)).json();
  }
  const search = await fetch(`${baseUrl}/explore`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'sample', sorting: 'newest' }) });
  seen.search = await search.json();
  return seen;
}

/** A copy of an archive with one entry's bytes changed and its manifest left as it was. */
export async function damagedCopy(archive: string, out: string, entry: string): Promise<void> {
  const zip = await openZip(archive);
  const copy = new ZipArchive({ zlib: { level: 1 } });
  const written = createWriteStream(out);
  copy.pipe(written);
  try {
    for (const name of zip.names()) {
      const content = Buffer.from(await zip.text(name, Infinity), 'utf8');
      if (name === entry) content[0] = content[0]! ^ 1;
      copy.append(content, { name });
    }
    await copy.finalize();
    await finished(written);
  } finally {
    zip.close();
  }
}
