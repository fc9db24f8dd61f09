// Placing a dataset's files so that a crash at any point never leaves rows without files or
// files without rows (design habit 10): copies go to temporary names inside the target folder
// while the transaction is open, get their final names only after the commit, and are removed
// on any failure.
import { randomUUID } from 'node:crypto';
import { copyFile, link, mkdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export interface PendingFile {
  source: string;
  name: string;
}

export interface Placement {
  folder: string;
  /** Copies every source to a temporary name in the folder (call inside the transaction). */
  stage(files: PendingFile[]): Promise<void>;
  /** Gives every copy its final name (call after the commit). */
  commit(): Promise<void>;
  /** Removes the copies, and the folder when this placement created it. */
  abort(): Promise<void>;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}

/** A hard link is an instant copy on the same file system; elsewhere the bytes are copied. */
async function copyInto(source: string, target: string): Promise<void> {
  try {
    await link(source, target);
  } catch {
    await copyFile(source, target);
  }
}

export function placeFiles(folder: string): Placement {
  const temps: { temp: string; final: string }[] = [];
  const placed: string[] = [];
  let createdFolder = false;
  return {
    folder,
    async stage(files) {
      createdFolder = !(await exists(folder));
      await mkdir(folder, { recursive: true });
      for (const file of files) {
        const temp = join(folder, `.${randomUUID()}.part`);
        temps.push({ temp, final: join(folder, file.name) });
        await copyInto(file.source, temp);
      }
    },
    async commit() {
      while (temps.length > 0) {
        const { temp, final } = temps[0]!;
        await rename(temp, final);
        placed.push(final);
        temps.shift();
      }
    },
    async abort() {
      for (const path of [...temps.map((t) => t.temp), ...placed]) await rm(path, { force: true });
      temps.length = 0;
      placed.length = 0;
      if (createdFolder) await rm(folder, { recursive: true, force: true });
    },
  };
}

/**
 * Deleting a dataset: the folder is moved aside before the rows go (and moved back if their
 * removal fails), then removed for good after the commit.
 */
export async function setFolderAside(folder: string): Promise<{ restore(): Promise<void>; discard(): Promise<void> }> {
  if (!(await exists(folder))) return { restore: async () => {}, discard: async () => {} };
  const aside = join(dirname(folder), `.deleting-${randomUUID()}`);
  await rename(folder, aside);
  return {
    restore: () => rename(aside, folder),
    discard: () => rm(aside, { recursive: true, force: true }),
  };
}

/** Removes a folder when it is empty; a folder with files in it is left alone. */
export async function removeIfEmpty(folder: string): Promise<void> {
  await rmdir(folder).catch(() => {});
}
