// Reads a hub archive's entries by name with yauzl (random access: each entry can be read again).
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';

export interface ZipReader {
  names(): string[];
  open(name: string): Promise<Readable>;
  /** The SHA-256 of an entry's content, read to its end. */
  sha256(name: string): Promise<string>;
  text(name: string): Promise<string>;
  close(): void;
}

export async function openZip(path: string): Promise<ZipReader> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: false }, (error, file) => (error || !file ? reject(error) : resolve(file)));
  });
  const entries = new Map<string, yauzl.Entry>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entries.has(entry.fileName)) return reject(new Error(`The archive holds ${entry.fileName} twice`));
      entries.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  const open = (name: string) => new Promise<Readable>((resolve, reject) => {
    const entry = entries.get(name);
    if (!entry) return reject(new Error(`The archive has no ${name}`));
    zip.openReadStream(entry, (error, stream) => (error || !stream ? reject(error) : resolve(stream)));
  });
  return {
    names: () => [...entries.keys()].filter((n) => !n.endsWith('/')),
    open,
    async sha256(name) {
      const hash = createHash('sha256');
      for await (const chunk of await open(name)) hash.update(chunk as Buffer);
      return hash.digest('hex');
    },
    async text(name) {
      const chunks: Buffer[] = [];
      for await (const chunk of await open(name)) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    close: () => zip.close(),
  };
}
