// The uploads folder as a FileStore: the layout of existing installs, unchanged.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, link, lstat, mkdir, open, readdir, rename, rm, rmdir, stat, writeFile, constants } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checkKey, checkPrefix, type FileStore, type PutSource, type StoredObject } from './file-store.ts';

export function createLocalStore(root: string): FileStore {
  const pathOf = (key: string) => join(root, ...checkKey(key).split('/'));

  /** A regular file only: a symbolic link is no object, so nothing outside the folder is ever read through one. */
  async function statKey(key: string): Promise<StoredObject | undefined> {
    const info = await lstat(pathOf(key)).catch(() => undefined);
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
  async function pruneEmpty(dir: string): Promise<void> {
    while (dir !== root && dir.startsWith(root + sep)) {
      try {
        await rmdir(dir);
      } catch {
        return;
      }
      dir = dirname(dir);
    }
  }

  return {
    kind: 'local',
    location: root,
    async put(key, source) {
      const target = pathOf(key);
      const temp = await writeTemp(target, source);
      await rename(temp, target);
      return (await statKey(key))!;
    },
    async putIfAbsent(key, source) {
      const target = pathOf(key);
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
    },
    async get(key) {
      // Opened first, then measured through the handle: a file removed meanwhile is either read
      // whole or reported absent, never a stream that fails. O_NOFOLLOW: a symbolic link is no object.
      let handle;
      try {
        handle = await open(pathOf(key), constants.O_RDONLY | constants.O_NOFOLLOW);
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
    },
    stat: statKey,
    async list(prefix) {
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
    },
    async copy(fromKey, toKey) {
      const target = pathOf(toKey);
      const temp = await writeTemp(target, { file: pathOf(fromKey) });
      await rename(temp, target);
    },
    async move(fromKey, toKey) {
      const target = pathOf(toKey);
      await mkdir(dirname(target), { recursive: true });
      await rename(pathOf(fromKey), target);
      await pruneEmpty(dirname(pathOf(fromKey)));
    },
    async delete(key) {
      const path = pathOf(key);
      await rm(path, { force: true });
      await pruneEmpty(dirname(path));
    },
    async deletePrefix(prefix) {
      checkPrefix(prefix);
      if (prefix === '') throw new Error('Refusing to delete the whole store.');
      const dir = join(root, ...prefix.slice(0, -1).split('/'));
      await rm(dir, { recursive: true, force: true });
      await pruneEmpty(dirname(dir));
    },
    async withLocalFile(key, work) {
      if (!(await statKey(key))) throw Object.assign(new Error(`No stored object ${key}`), { code: 'ENOENT' });
      return work(pathOf(key));
    },
    async close() {},
  };
}
