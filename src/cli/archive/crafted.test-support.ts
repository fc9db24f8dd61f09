// Crafted archives for the import attack tests: a real export, its entries changed, its manifest's
// SHA-256 sums and sizes computed again for the changed bytes (so that only the attack itself is
// wrong), then the manifest changed as the attack needs.
import { createHash } from 'node:crypto';
import assert from 'node:assert/strict';
import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import { ZipArchive } from 'archiver';
import type { FileStore } from '../../core/storage/index.ts';
import type { Manifest } from './manifest.ts';
import { openZip } from './zip-reader.ts';

export interface Craft {
  /** Changes, adds or removes entries (by zip name); listed entries are hashed again afterwards. */
  entries?: (entries: Map<string, Buffer>, manifest: Manifest) => void;
  /** Changes the manifest after the hashes are computed (a lie about a size or a hash). */
  manifest?: (manifest: Manifest) => void;
  /**
   * Entry names changed in the written zip's bytes, each to one of the same length (archiver
   * cleans `../` out of names; an attacker's zip tool does not).
   */
  rename?: [from: string, to: string][];
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export async function craftArchive(source: string, out: string, craft: Craft): Promise<void> {
  const zip = await openZip(source);
  const entries = new Map<string, Buffer>();
  try {
    for (const name of zip.names()) {
      const chunks: Buffer[] = [];
      for await (const chunk of await zip.open(name, Infinity)) chunks.push(chunk as Buffer);
      entries.set(name, Buffer.concat(chunks));
    }
  } finally {
    zip.close();
  }
  const manifest = JSON.parse(entries.get('manifest.json')!.toString('utf8')) as Manifest;
  entries.delete('manifest.json');
  craft.entries?.(entries, manifest);
  for (const entry of [...manifest.tables, ...manifest.files]) {
    const bytes = entries.get(entry.path);
    if (bytes) Object.assign(entry, { sha256: sha256(bytes), size: bytes.length });
  }
  craft.manifest?.(manifest);
  const archive = new ZipArchive({ zlib: { level: 9 } });
  const written = createWriteStream(out);
  archive.pipe(written);
  for (const [name, bytes] of entries) archive.append(bytes, { name });
  archive.append(JSON.stringify(manifest), { name: 'manifest.json' });
  await archive.finalize();
  await finished(written);
  if (craft.rename) {
    let bytes = readFileSync(out);
    for (const [from, to] of craft.rename) {
      assert.equal(from.length, to.length);
      bytes = Buffer.from(bytes.toString('latin1').replaceAll(from, to), 'latin1');
    }
    writeFileSync(out, bytes);
  }
}

/** Each table's lines of an archive's rows, to edit (the manifest's row count follows). */
export function editRows(entries: Map<string, Buffer>, manifest: Manifest, table: string, edit: (lines: string[]) => string[]): void {
  const path = `tables/${table}.jsonl`;
  const lines = edit(entries.get(path)!.toString('utf8').split('\n').filter(Boolean));
  entries.set(path, Buffer.from(lines.map((l) => `${l}\n`).join(''), 'utf8'));
  manifest.tables.find((t) => t.name === table)!.rows = lines.length;
}

/** Every object of a store with the SHA-256 of its content, by key. */
export async function storedHashes(store: FileStore): Promise<Record<string, string>> {
  const hashes: Record<string, string> = {};
  for (const object of await store.list('')) {
    const content = await store.get(object.key);
    const hash = createHash('sha256');
    for await (const chunk of content!.body) hash.update(chunk as Buffer);
    hashes[object.key] = hash.digest('hex');
  }
  return hashes;
}
