// The staging folder `<WORKING_DIR>/<UPLOADS_DIR>/temp/<user_id>` (decisions section 7): files a user
// uploaded for a dataset that is not saved yet. Nothing a client sends becomes a path unchecked.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, link, mkdir, readdir, rename, rm, stat, unlink, constants } from 'node:fs/promises';
import { basename, extname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { hasControlCharacters } from '../../core/http/forms.ts';
import { pipeline } from 'node:stream/promises';

/** Longest client name: the file column is varchar(255), and file systems allow 255 bytes. */
const MAX_NAME_BYTES = 200;
/** Longest stored name: a client name plus a collision suffix ` (n)`. */
const MAX_STORED_NAME_BYTES = MAX_NAME_BYTES + 10;
/** What file systems allow for one name; a file put back from a claim may need a further suffix. */
const FILE_NAME_BYTES = 255;
/** Claim folders are hidden names inside the staging folder, so that a claim is a rename on one file system. */
const CLAIM_PREFIX = '.claim-';
/** A claim lives for the checks and the transaction of one upload; one older than this was left by a crash. */
const STALE_CLAIM_MS = 60 * 60 * 1000;
/** A dataset takes at most 200 files (decisions section 4); more staged files than that serve no upload and only fill the disk. */
export const MAX_STAGED_FILES = 200;

export class StagingError extends Error {
  constructor(readonly kind: 'not_uvl' | 'bad_name' | 'too_large' | 'not_found' | 'full', message: string) {
    super(message);
  }
}

/**
 * Reduces a client's file name to a safe base name (decisions section 4), or explains why not.
 * Windows browsers may send `C:\dir\model.uvl`, so both separators count.
 */
export function safeUvlName(raw: string): string {
  const base = basename(raw.replace(/\\/g, '/'));
  if (!/\.uvl$/i.test(base)) throw new StagingError('not_uvl', 'Only .uvl files are accepted.');
  // Leading dots would hide the file and could meet the temporary names used while writing.
  // A name that is only blanks before `.uvl` is as unreadable as a hidden one.
  if (base.startsWith('.') || /[\u0000-\u001f\u007f/]/.test(base) || base.slice(0, -4).trim() === '') {
    throw new StagingError('bad_name', 'This file name cannot be stored. Rename the file and try again.');
  }
  if (Buffer.byteLength(base) > MAX_NAME_BYTES) {
    throw new StagingError('bad_name', `The file name is too long (at most ${MAX_NAME_BYTES} bytes).`);
  }
  return base;
}

/** `model.uvl`, `model (1).uvl`, `model (2).uvl`… like the original service. */
function candidateName(name: string, n: number): string {
  if (n === 0) return name;
  const ext = extname(name);
  return `${name.slice(0, name.length - ext.length)} (${n})${ext}`;
}

export interface StagedFile {
  name: string;
  path: string;
  size: number;
}

/**
 * Staged files taken out of the staging area for one upload. Exactly one upload can claim a
 * file (a rename succeeds once), so two submits of the same files cannot both use them.
 */
export interface Claim {
  /** The claimed files, in the order asked, at their place inside the claim folder. */
  files: StagedFile[];
  /** Puts the files back in the staging area (the upload was refused or failed). */
  release(): Promise<void>;
  /** Removes the claimed files for good (the dataset was saved with copies of them). */
  discard(): Promise<void>;
}

export type ClaimOutcome =
  | { ok: true; claim: Claim }
  /** Names that are not (or no longer) in the staging area: nothing was claimed. */
  | { ok: false; missing: string[] };

export function createStaging(uploadsRoot: string) {
  const folderOf = (userId: number) => join(uploadsRoot, 'temp', String(userId));

  /** The path of a staged file, or undefined when `name` is not a plain name inside the folder. */
  function pathOf(userId: number, name: string): string | undefined {
    const folder = folderOf(userId);
    if (typeof name !== 'string' || name === '' || name !== basename(name) || name.includes('\\') || name.startsWith('.')) return undefined;
    // No stored name has control characters (NUL would make the file system call throw) or
    // exceeds the stored-name limit (the file system would answer ENAMETOOLONG).
    if (hasControlCharacters(name) || Buffer.byteLength(name) > MAX_STORED_NAME_BYTES) return undefined;
    const path = resolve(folder, name);
    return path.startsWith(folder + sep) ? path : undefined;
  }

  /** Moves a claimed file back under its name, or under ` (n)` when the name was staged again meanwhile. */
  async function putBack(folder: string, claimed: string, name: string): Promise<void> {
    await placeUnderFreeName(claimed, folder, name, FILE_NAME_BYTES);
    await rm(claimed, { force: true });
  }

  async function releaseFolder(folder: string, claimFolder: string): Promise<void> {
    const names = await readdir(claimFolder).catch(() => [] as string[]);
    for (const name of names) await putBack(folder, join(claimFolder, name), name);
    await rm(claimFolder, { recursive: true, force: true });
  }

  /** Claims left by a process that stopped in the middle of an upload go back to the staging area. */
  async function recoverStaleClaims(folder: string): Promise<void> {
    const names = await readdir(folder).catch(() => [] as string[]);
    for (const name of names.filter((n) => n.startsWith(CLAIM_PREFIX))) {
      const path = join(folder, name);
      const info = await stat(path).catch(() => undefined);
      if (info?.isDirectory() && Date.now() - info.mtimeMs > STALE_CLAIM_MS) await releaseFolder(folder, path).catch(() => {});
    }
  }

  return {
    folderOf,
    pathOf,

    /**
     * Takes the named staged files out of the staging area for one upload, all or none: each is
     * renamed into a fresh claim folder (atomic on one file system, also across processes), so a
     * concurrent upload naming the same files finds them gone and is refused.
     */
    async claim(userId: number, names: string[]): Promise<ClaimOutcome> {
      const folder = folderOf(userId);
      const exists = async (name: string) => {
        const path = pathOf(userId, name);
        return path !== undefined && (await stat(path).then((info) => info.isFile(), () => false));
      };
      const absent = async () => {
        const found = await Promise.all(names.map(exists));
        return names.filter((_, i) => !found[i]);
      };
      const missing = await absent();
      if (missing.length > 0) return { ok: false, missing };
      const claimFolder = join(folder, `${CLAIM_PREFIX}${randomUUID()}`);
      await mkdir(claimFolder, { recursive: true });
      // Always in the same order, stopping at the first file already taken: of several submits
      // sharing files, the one that takes the first shared file can take all the others.
      const claimed = new Map<string, StagedFile>();
      let taken: string | undefined;
      for (const name of [...new Set(names)].sort()) {
        const target = join(claimFolder, name);
        try {
          await rename(pathOf(userId, name)!, target);
          claimed.set(name, { name, path: target, size: (await stat(target)).size });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
            await releaseFolder(folder, claimFolder);
            throw error;
          }
          taken = name;
          break;
        }
      }
      if (taken !== undefined) {
        await releaseFolder(folder, claimFolder);
        const gone = await absent();
        return { ok: false, missing: gone.length > 0 ? gone : [taken] };
      }
      return {
        ok: true,
        claim: {
          files: names.map((name) => claimed.get(name)!),
          release: () => releaseFolder(folder, claimFolder),
          discard: () => rm(claimFolder, { recursive: true, force: true }),
        },
      };
    },

    /**
     * Writes the upload to a temporary name, then gives it its final name without ever
     * overwriting: link() fails when the name exists, so concurrent uploads of the same
     * name get distinct suffixes.
     */
    async store(userId: number, clientName: string, content: Readable, isTruncated: () => boolean): Promise<StagedFile> {
      const name = safeUvlName(clientName);
      const folder = folderOf(userId);
      await mkdir(folder, { recursive: true });
      const staged = (await readdir(folder)).filter((n) => !n.startsWith('.')).length;
      if (staged >= MAX_STAGED_FILES) {
        throw new StagingError('full', `You already have ${MAX_STAGED_FILES} staged files: upload the dataset or remove some first.`);
      }
      const temp = join(folder, `.${randomUUID()}.part`);
      try {
        await pipeline(content, createWriteStream(temp, { flags: 'wx' }));
        if (isTruncated()) throw new StagingError('too_large', 'The file is larger than the upload limit.');
        const finalName = await placeUnderFreeName(temp, folder, name, MAX_STORED_NAME_BYTES);
        const target = join(folder, finalName);
        const { size } = await stat(target);
        return { name: finalName, path: target, size };
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new StagingError('too_large', 'The file is larger than the upload limit.');
        }
        throw error;
      } finally {
        await rm(temp, { force: true });
      }
    },

    async remove(userId: number, name: string): Promise<void> {
      const path = pathOf(userId, name);
      if (!path) throw new StagingError('not_found', 'No staged file with this name.');
      try {
        await unlink(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new StagingError('not_found', 'No staged file with this name.');
        throw error;
      }
    },

    /** The staged file, or undefined when it does not exist (or the name is not a plain name). */
    async find(userId: number, name: string): Promise<StagedFile | undefined> {
      const path = pathOf(userId, name);
      if (!path) return undefined;
      try {
        const info = await stat(path);
        return info.isFile() ? { name, path, size: info.size } : undefined;
      } catch {
        return undefined;
      }
    },

    /**
     * Copies files (a published version's) into the user's staging area for a new version, each
     * under its own name or ` (n)` when that name is staged already; nothing is overwritten. All
     * or none: a failure removes the copies made so far. Answers the stored names, in order.
     */
    async copyIn(userId: number, files: { name: string; path: string }[]): Promise<StagedFile[]> {
      const folder = folderOf(userId);
      await mkdir(folder, { recursive: true });
      const staged = (await readdir(folder)).filter((n) => !n.startsWith('.')).length;
      if (staged + files.length > MAX_STAGED_FILES) {
        throw new StagingError('full', `Your staging area can hold ${MAX_STAGED_FILES} files: remove some staged files first.`);
      }
      const copied: StagedFile[] = [];
      try {
        for (const file of files) {
          const name = await placeUnderFreeName(file.path, folder, safeUvlName(file.name), MAX_STORED_NAME_BYTES);
          const path = join(folder, name);
          copied.push({ name, path, size: (await stat(path)).size });
        }
      } catch (error) {
        for (const file of copied) await rm(file.path, { force: true });
        throw error;
      }
      return copied;
    },

    /** Every staged .uvl file of the user, oldest first (an upload page opened again shows them). */
    async list(userId: number): Promise<StagedFile[]> {
      const folder = folderOf(userId);
      await recoverStaleClaims(folder);
      let names: string[];
      try {
        names = await readdir(folder);
      } catch {
        return [];
      }
      const files: (StagedFile & { mtime: number })[] = [];
      for (const name of names) {
        if (name.startsWith('.') || !/\.uvl$/i.test(name)) continue;
        const info = await stat(join(folder, name)).catch(() => undefined);
        if (info?.isFile()) files.push({ name, path: join(folder, name), size: info.size, mtime: info.mtimeMs });
      }
      return files.sort((a, b) => a.mtime - b.mtime || a.name.localeCompare(b.name)).map(({ mtime: _m, ...f }) => f);
    },
  };
}

/** link() refuses an existing target; where hard links are not allowed, an exclusive copy does the same. */
/**
 * Places `source` in `folder` under `name`, or under `name (n)` with the first free n, never
 * overwriting (concurrent writers get distinct names). Answers the name used.
 */
async function placeUnderFreeName(source: string, folder: string, name: string, maxBytes: number): Promise<string> {
  for (let n = 0; ; n++) {
    const candidate = candidateName(name, n);
    if (Buffer.byteLength(candidate) > maxBytes) throw new StagingError('bad_name', 'Too many files with this name.');
    try {
      await placeWithoutOverwrite(source, join(folder, candidate));
      return candidate;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

async function placeWithoutOverwrite(source: string, target: string): Promise<void> {
  try {
    await link(source, target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw error;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'EOPNOTSUPP') throw error;
    await copyFile(source, target, constants.COPYFILE_EXCL);
  }
}

export type Staging = ReturnType<typeof createStaging>;
export { placeWithoutOverwrite };
