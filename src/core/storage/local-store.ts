// The uploads folder as a FileStore: the layout of existing installs, unchanged.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, link, lstat, mkdir, open, readdir, rename, rm, rmdir, stat, writeFile, constants } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checkKey, checkPrefix, type FileStore, type ObjectContent, type PutSource, type StoredObject } from './file-store.ts';

/** The path of a key under the root; checkKey refuses anything that could leave it. */
function pathOf(root: string, key: string): string {
  return join(root, ...checkKey(key).split('/'));
}

/** A regular file only: a symbolic link is no object, so nothing outside the folder is ever read through one. */
async function statKey(root: string, key: string): Promise<StoredObject | undefined> {
  const info = await lstat(pathOf(root, key)).catch(() => undefined);
  return info?.isFile() ? { key, size: info.size, lastModified: info.mtime } : undefined;
}

/** Writes to a temporary name in the target folder first, so a reader never sees half a file. */
async function writeTemp(target: string, source: PutSource): Promise<string> {
  await mkdir(dirname(target), { recursive: true });
  const temp = join(dirname(target), `.${randomUUID()}.part`);
  try {
    if (typeof source === 'string' || Buffer.isBuffer(source)) await writeFile(temp, source, { flag: 'wx' });
    else if (source instanceof Readable) await pipeline(source, createWriteStream(temp, { flags: 'wx' }));
    else await copyFile(source.file, temp, constants.COPYFILE_EXCL);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return temp;
}

async function walk(dir: string, found: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await walk(path, found);
    else if (entry.isFile()) found.push(path);
  }
}

/** Removes the empty folders left above a removed file, up to the root. */
async function pruneEmpty(root: string, dir: string): Promise<void> {
  while (dir !== root && dir.startsWith(root + sep)) {
    try {
      await rmdir(dir);
    } catch {
      return;
    }
    dir = dirname(dir);
  }
}

async function putIfAbsent(root: string, key: string, source: PutSource): Promise<boolean> {
  const target = pathOf(root, key);
  const temp = await writeTemp(target, source);
  try {
    // link() refuses an existing target: of two concurrent writers exactly one wins.
    await link(temp, target);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await rm(temp, { force: true });
  }
}

async function get(root: string, key: string): Promise<ObjectContent | undefined> {
  // Opened first, then measured through the handle: a file removed meanwhile is either read
  // whole or reported absent, never a stream that fails. O_NOFOLLOW: a symbolic link is no object.
  let handle;
  try {
    handle = await open(pathOf(root, key), constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    if (['ENOENT', 'ENOTDIR', 'ELOOP', 'EISDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
      await handle.close();
      return undefined;
    }
    // The stream owns the handle from here: it closes it at the end, on error or when destroyed.
    return { key, size: info.size, lastModified: info.mtime, body: handle.createReadStream() };
  } catch (error) {
    await handle.close().catch(() => {});
    throw error;
  }
}

async function list(root: string, prefix: string): Promise<StoredObject[]> {
  checkPrefix(prefix);
  const base = prefix === '' ? root : join(root, ...prefix.slice(0, -1).split('/'));
  const files: string[] = [];
  await walk(base, files);
  const objects: StoredObject[] = [];
  for (const file of files) {
    const key = relative(root, file).split(sep).join('/');
    // Temporary names of writes in progress are not objects yet.
    if (key.split('/').pop()!.endsWith('.part') && key.split('/').pop()!.startsWith('.')) continue;
    const info = await stat(file).catch(() => undefined);
    if (info) objects.push({ key, size: info.size, lastModified: info.mtime });
  }
  return objects.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

export function createLocalStore(root: string): FileStore {
  return {
    kind: 'local',
    location: root,
    async put(key, source) {
      const target = pathOf(root, key);
      const temp = await writeTemp(target, source);
      await rename(temp, target);
      return (await statKey(root, key))!;
    },
    putIfAbsent: (key, source) => putIfAbsent(root, key, source),
    get: (key) => get(root, key),
    stat: (key) => statKey(root, key),
    list: (prefix) => list(root, prefix),
    async copy(fromKey, toKey) {
      const target = pathOf(root, toKey);
      const temp = await writeTemp(target, { file: pathOf(root, fromKey) });
      await rename(temp, target);
    },
    async move(fromKey, toKey) {
      const target = pathOf(root, toKey);
      await mkdir(dirname(target), { recursive: true });
      await rename(pathOf(root, fromKey), target);
      await pruneEmpty(root, dirname(pathOf(root, fromKey)));
    },
    async delete(key) {
      const path = pathOf(root, key);
      await rm(path, { force: true });
      await pruneEmpty(root, dirname(path));
    },
    async deletePrefix(prefix) {
      checkPrefix(prefix);
      if (prefix === '') throw new Error('Refusing to delete the whole store.');
      const dir = join(root, ...prefix.slice(0, -1).split('/'));
      await rm(dir, { recursive: true, force: true });
      await pruneEmpty(root, dirname(dir));
    },
    async withLocalFile(key, work) {
      if (!(await statKey(root, key))) throw Object.assign(new Error(`No stored object ${key}`), { code: 'ENOENT' });
      return work(pathOf(root, key));
    },
    async close() {},
  };
}
