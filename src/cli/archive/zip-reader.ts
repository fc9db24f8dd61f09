// Reads a hub archive's entries by name with yauzl (random access: each entry can be read again).
// Every read is bounded: an entry whose inflated bytes pass the limit the caller gives (its size
// in the manifest) fails as soon as they do, whatever the zip's own headers claim, so a small
// archive cannot unpack into a huge file (a zip bomb).
import { createHash } from 'node:crypto';
import { Transform, pipeline, type Readable } from 'node:stream';
import yauzl from 'yauzl';

export class ArchiveLimitError extends Error {}

export interface ZipReader {
  names(): string[];
  /** The inflated size the zip's central directory gives for an entry (not trusted: reads are bounded anyway). */
  size(name: string): number;
  /** The entry's content; the stream fails once it has given more than `limit` bytes. */
  open(name: string, limit: number): Promise<Readable>;
  /** The SHA-256 of an entry's content, read to its end (at most `limit` bytes). */
  sha256(name: string, limit: number): Promise<string>;
  text(name: string, limit: number): Promise<string>;
  close(): void;
}

/** Passes at most `limit` bytes on, then fails the stream with `name` in the message. */
function bounded(name: string, limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > limit) return done(new ArchiveLimitError(`The archive's entry ${name} is larger than the ${limit} bytes its manifest declares: nothing was imported`));
      done(null, chunk);
    },
  });
}

export async function openZip(path: string): Promise<ZipReader> {
  // yauzl refuses absolute and climbing entry names (`/x`, `../x`) while it lists them.
  const unreadable = (error: Error | null) => new Error(`The archive is not a zip this hub can read (${error?.message ?? 'no entries'}): nothing was imported`);
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: false }, (error, file) => (error || !file ? reject(unreadable(error)) : resolve(file)));
  });
  const entries = new Map<string, yauzl.Entry>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entries.has(entry.fileName)) return reject(new Error(`The archive holds ${entry.fileName} twice`));
      entries.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.on('end', resolve);
    zip.on('error', (error: Error) => reject(unreadable(error)));
    zip.readEntry();
  });
  const entryOf = (name: string) => {
    const entry = entries.get(name);
    if (!entry) throw new Error(`The archive has no ${name}`);
    return entry;
  };
  const open = (name: string, limit: number) => new Promise<Readable>((resolve, reject) => {
    const entry = entryOf(name);
    if (entry.uncompressedSize > limit) return reject(new ArchiveLimitError(`The archive's entry ${name} holds ${entry.uncompressedSize} bytes, more than the ${limit} its manifest declares: nothing was imported`));
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) return reject(error);
      // pipeline stops the inflating as soon as the bound fails; its error reaches the reader through `limited`.
      const limited = bounded(name, limit);
      resolve(pipeline(stream, limited, () => {}));
    });
  });
  return {
    names: () => [...entries.keys()].filter((n) => !n.endsWith('/')),
    size: (name) => entryOf(name).uncompressedSize,
    open,
    async sha256(name, limit) {
      const hash = createHash('sha256');
      for await (const chunk of await open(name, limit)) hash.update(chunk as Buffer);
      return hash.digest('hex');
    },
    async text(name, limit) {
      const chunks: Buffer[] = [];
      for await (const chunk of await open(name, limit)) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    close: () => zip.close(),
  };
}
