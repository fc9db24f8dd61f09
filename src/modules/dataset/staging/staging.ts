// The staging area `temp/<user_id>/` of the file store (decisions section 7: the folder
// `<WORKING_DIR>/<UPLOADS_DIR>/temp/<user_id>` on the local store): files a user uploaded for a
// dataset that is not saved yet. Nothing a client sends becomes a key unchecked. Everything goes
// through the FileStore, so staging works the same on the uploads folder and on S3.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { buffer, text } from 'node:stream/consumers';
import type { FileStore, StoredObject } from '../../../core/storage/index.ts';
import { ConversionError, isUvlName, originalNameBeside, uvlNameOf, type StagedOriginal } from './converted-upload.ts';
import { convertUploadOff } from './convert-in-worker.ts';
import type { Scheduler } from '../../../core/scheduler/index.ts';
import { candidateName, isStagedName, MAX_STORED_NAME_BYTES, safeModelName, safeUvlName, StagingError } from './staging-names.ts';

export { safeModelName, safeUvlName, StagingError } from './staging-names.ts';
export type { Claim, ClaimLedger, ClaimOutcome, StagedFile } from './claims.ts';
import type { Claim, ClaimLedger, ClaimOutcome, StagedFile } from './claims.ts';

/** What file systems allow for one name; a file put back from a claim may need a further suffix. */
const FILE_NAME_BYTES = 255;
/** Claim folders are hidden names inside the staging area: listings of staged files skip them. */
const CLAIM_PREFIX = '.claim-';
/**
 * Originals of converted models (issue 27): `.originals/<staged UVL name>/<original name>`, a
 * hidden folder the listings skip. A UVL name whose originals folder exists counts as taken.
 */
const ORIGINALS = '.originals/';
/** The object inside a claim folder that dates the claim (S3 has no folder dates). */
const CLAIMED_AT = '.claimed-at';
/**
 * A claim lives for the checks and the transaction of one upload, and its holder dates it again
 * every CLAIM_REFRESH_MS while it runs; one not dated again for STALE_CLAIM_MS was left by a
 * process that died (issue 26): the next listing or claim gives its files back.
 */
export const CLAIM_REFRESH_MS = 15 * 1000;
export const STALE_CLAIM_MS = 60 * 1000;
/** A dataset takes at most 200 files (decisions section 4); more staged files than that serve no upload and only fill the disk. */
export const MAX_STAGED_FILES = 200;

/**
 * The staging areas under `root` (`temp/` for the browser's, `temp/.api/` for the API's), one
 * folder per user, on any FileStore.
 */
export class StagingArea {
  constructor(private readonly fileStore: FileStore, private readonly ledger: ClaimLedger, private readonly scheduler: Scheduler, private readonly maxFeatures: number, private readonly root = 'temp/') {}

  folderOf(userId: number): string {
    return `${this.root}${userId}/`;
  }

  /** The key of a staged file, or undefined when `name` is not a plain name inside the folder. */
  private keyOf(userId: number, name: string): string | undefined {
    return isStagedName(name) ? this.folderOf(userId) + name : undefined;
  }

  /** The staged files directly in the folder (not claims or writes in progress), from a listing of it or a new one. */
  private async stagedObjects(userId: number, listing?: StoredObject[]): Promise<(StoredObject & { name: string })[]> {
    const folder = this.folderOf(userId);
    return (listing ?? await this.fileStore.list(folder))
      .map((o) => ({ ...o, name: o.key.slice(folder.length) }))
      .filter((o) => !o.name.includes('/') && !o.name.startsWith('.'));
  }

  private async refuseWhenFull(userId: number, adding: number, message: string): Promise<void> {
    if ((await this.stagedObjects(userId)).length + adding > MAX_STAGED_FILES) throw new StagingError('full', message);
  }

  /**
   * Writes `source` (a local file) under `name`, or `name (n)` with the first free n, never
   * overwriting: putIfAbsent lets exactly one of concurrent writers have a name. Answers the name.
   */
  private async placeUnderFreeName(folder: string, file: string, name: string, maxBytes: number, originalsTakeName = true): Promise<string> {
    for (let n = 0; ; n++) {
      const candidate = candidateName(name, n);
      if (Buffer.byteLength(candidate) > maxBytes) throw new StagingError('bad_name', 'Too many files with this name.');
      // A converted model's name stays its own while its original is kept (also while it is claimed).
      if (originalsTakeName && (await this.fileStore.list(folder + ORIGINALS + candidate + '/')).length > 0) continue;
      if (await this.fileStore.putIfAbsent(folder + candidate, { file })) return candidate;
    }
  }

  /** Moves a claimed file back under its name, or under ` (n)` when the name was staged again meanwhile. */
  private async putBack(folder: string, claimedKey: string, name: string): Promise<void> {
    // The originals folder under `name`, if any, is this file's own: nothing else is staged under a name that has one.
    await this.fileStore.withLocalFile(claimedKey, (path) => this.placeUnderFreeName(folder, path, name, FILE_NAME_BYTES, false));
    await this.fileStore.delete(claimedKey);
  }

  /** Whether the staged object holds exactly the bytes stored under `key`. */
  private async sameBytes(staged: StoredObject, key: string): Promise<boolean> {
    const source = await this.fileStore.stat(key);
    if (!source || source.size !== staged.size) return false;
    const read = async (k: string) => {
      const content = await this.fileStore.get(k);
      return content ? buffer(content.body) : undefined;
    };
    const [a, b] = await Promise.all([read(staged.key), read(key)]);
    return a !== undefined && b !== undefined && a.equals(b);
  }

  private async releaseClaim(folder: string, claimFolder: string): Promise<void> {
    for (const object of await this.fileStore.list(claimFolder)) {
      const name = object.key.slice(claimFolder.length);
      if (name !== CLAIMED_AT) await this.putBack(folder, object.key, name);
    }
    await this.fileStore.deletePrefix(claimFolder);
    await this.ledger.free(claimIdOf(claimFolder));
  }

  /** Removes a saved claim's files, and the originals kept under their names (a name with an originals folder stays taken). */
  private async discardClaim(folder: string, claimFolder: string, names: string[]): Promise<void> {
    await this.fileStore.deletePrefix(claimFolder);
    await this.removeOriginals(folder, names);
    await this.ledger.free(claimIdOf(claimFolder));
  }

  /** A dead process's claim: discarded when its dataset was saved (the ledger says so), else its files go back. */
  private async recoverClaim(folder: string, claimFolder: string): Promise<void> {
    if (!(await this.ledger.wasSaved(claimIdOf(claimFolder)))) return this.releaseClaim(folder, claimFolder);
    const names = (await this.fileStore.list(claimFolder)).map((o) => o.key.slice(claimFolder.length)).filter((n) => n !== CLAIMED_AT);
    await this.discardClaim(folder, claimFolder, names);
  }

  /** Whether a claim, whose `.claimed-at` holds the date it was made, was left by a crash. */
  private async isStale(key: string): Promise<boolean> {
    const content = await this.fileStore.get(key);
    if (!content) return false;
    const written = Date.parse(await text(content.body));
    return !Number.isFinite(written) || Date.now() - written > STALE_CLAIM_MS;
  }

  /**
   * Claims left by a process that stopped in the middle of an upload, found in a listing of the
   * folder: their files go back. The date is read from the object (S3 cannot date a folder, nor
   * back-date an object). Answers whether any claim was released (the listing is then out of date).
   */
  private async recoverStale(userId: number, listing: StoredObject[]): Promise<boolean> {
    const folder = this.folderOf(userId);
    let released = false;
    for (const object of listing) {
      const rest = object.key.slice(folder.length);
      if (!rest.startsWith(CLAIM_PREFIX) || !rest.endsWith(`/${CLAIMED_AT}`)) continue;
      const claimFolder = folder + rest.slice(0, -CLAIMED_AT.length);
      // Its process is gone (issue 37), or it was not dated for a minute (a claim from before instances were recorded).
      const dead = async () => await this.ledger.holderGone(claimIdOf(claimFolder)) || await this.isStale(object.key);
      if (await dead().catch(() => false)) {
        await this.recoverClaim(folder, claimFolder).catch(() => {});
        released = true;
      }
    }
    // Saved claims whose folder is gone (a process killed while discarding one) no longer hold their names.
    const staleBefore = new Date(Date.now() - STALE_CLAIM_MS).toISOString();
    for (const claimId of await this.ledger.staleSaved(folder, staleBefore).catch(() => [])) {
      if (!listing.some((o) => o.key.startsWith(`${folder}${CLAIM_PREFIX}${claimId}/`))) await this.ledger.free(claimId).catch(() => {});
    }
    return released;
  }

  /** Dates a live claim again, in the ledger and in its folder, until it is released or discarded. */
  private keepAlive(claimFolder: string, claimId: string): NodeJS.Timeout {
    const timer = setInterval(() => {
      const now = new Date().toISOString();
      // A missed beat only risks the claim looking stale a little early; the next one tries again.
      Promise.all([this.ledger.refresh(claimId, now), this.fileStore.put(claimFolder + CLAIMED_AT, now)]).catch(() => {});
    }, CLAIM_REFRESH_MS);
    timer.unref();
    return timer;
  }

  /** Moves one staged file into the claim folder, or answers false when it is gone. */
  private async take(folder: string, claimFolder: string, name: string): Promise<StagedFile | false> {
    const from = folder + name;
    const found = await this.fileStore.stat(from);
    if (!found) return false;
    const target = claimFolder + name;
    try {
      await this.fileStore.move(from, target);
    } catch (error) {
      // Removed by its owner meanwhile: not taken, nothing to undo.
      if (!(await this.fileStore.stat(from)) && !(await this.fileStore.stat(target))) return false;
      throw error;
    }
    return { name, key: target, size: found.size, original: await this.originalIn(folder, name) };
  }

  /** The original a staged model was converted from (issue 27), or undefined for a UVL upload. */
  private async originalIn(folder: string, name: string): Promise<StagedOriginal | undefined> {
    const prefix = folder + ORIGINALS + name + '/';
    const found = (await this.fileStore.list(prefix))[0];
    return found && { key: found.key, name: found.key.slice(prefix.length) };
  }

  async originalOf(userId: number, name: string): Promise<StagedOriginal | undefined> {
    return isStagedName(name) ? this.originalIn(this.folderOf(userId), name) : undefined;
  }

  private async removeOriginals(folder: string, names: string[]): Promise<void> {
    for (const name of names) if (isStagedName(name)) await this.fileStore.deletePrefix(folder + ORIGINALS + name + '/');
  }

  /** Receives an upload into a local temporary file (the size limit is known only at its end). */
  private async receive<T>(content: Readable, isTruncated: () => boolean, work: (file: string, size: number) => Promise<T>): Promise<T> {
    const dir = await mkdtemp(join(tmpdir(), 'hub-upload-'));
    try {
      const file = join(dir, 'upload');
      try {
        await pipeline(content, createWriteStream(file, { flags: 'wx' }));
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new StagingError('too_large', 'The file is larger than the upload limit.');
        throw error;
      }
      if (isTruncated()) throw new StagingError('too_large', 'The file is larger than the upload limit.');
      return await work(file, (await stat(file)).size);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /**
   * Takes the named staged files out of the staging area for one upload, all or none: the
   * ledger records the claim, then each file is moved into a fresh claim folder, so a
   * concurrent upload naming the same files is refused.
   */
  async claim(userId: number, names: string[]): Promise<ClaimOutcome> {
    const folder = this.folderOf(userId);
    const present = async (name: string) => {
      const key = this.keyOf(userId, name);
      return key !== undefined && (await this.fileStore.stat(key)) !== undefined;
    };
    const absent = async () => {
      const found = await Promise.all(names.map(present));
      if (found.every(Boolean)) return [];
      // Looked at all at once, a claim running meanwhile may seem to have taken a later file
      // but not an earlier one. Claims take files in sorted order and never give one back
      // unless they fail, so looking again from the last name to the first names every file
      // already taken, the first one included.
      const gone = new Set<string>();
      for (const name of [...new Set(names)].sort().reverse()) if (!(await present(name))) gone.add(name);
      return names.filter((name) => gone.has(name));
    };
    // Claims of a process that died go back first: their files may be the ones asked for.
    await this.recoverStale(userId, await this.fileStore.list(folder));
    const missing = await absent();
    if (missing.length > 0) return { ok: false, missing };
    // The ledger decides which of several submits naming the same files gets them, all or none.
    const claimId = randomUUID();
    const sorted = [...new Set(names)].sort();
    const held = await this.ledger.hold(folder, sorted, claimId);
    if (!held.ok) {
      const gone = await absent();
      return { ok: false, missing: gone.length > 0 ? gone : names.filter((name) => held.held.includes(name)) };
    }
    const claimFolder = `${folder}${CLAIM_PREFIX}${claimId}/`;
    const claimed = new Map<string, StagedFile>();
    const heartbeat = this.keepAlive(claimFolder, claimId);
    try {
      await this.fileStore.put(claimFolder + CLAIMED_AT, new Date().toISOString());
      for (const name of sorted) {
        const file = await this.take(folder, claimFolder, name);
        // Removed by its owner after the first look: nothing is claimed.
        if (!file) {
          clearInterval(heartbeat);
          await this.releaseClaim(folder, claimFolder);
          return { ok: false, missing: await absent() };
        }
        claimed.set(name, file);
      }
    } catch (error) {
      clearInterval(heartbeat);
      await this.releaseClaim(folder, claimFolder);
      throw error;
    }
    return {
      ok: true,
      claim: {
        files: names.map((name) => claimed.get(name)!),
        release: () => { clearInterval(heartbeat); return this.releaseClaim(folder, claimFolder); },
        discard: async () => {
          clearInterval(heartbeat);
          await this.discardClaim(folder, claimFolder, sorted);
        },
        setSaved: (within, saved) => this.ledger.setSaved(claimId, within, saved),
      },
    };
  }

  /**
   * Receives the upload, then gives it its final name without ever overwriting: concurrent
   * uploads of the same name get distinct suffixes.
   */
  async store(userId: number, clientName: string, content: Readable, isTruncated: () => boolean): Promise<StagedFile> {
    const name = safeModelName(clientName);
    await this.refuseWhenFull(userId, 1, `You already have ${MAX_STAGED_FILES} staged files: upload the dataset or remove some first.`);
    return this.receive(content, isTruncated, async (file, size) => {
      if (!isUvlName(name)) return this.storeConverted(userId, name, file);
      const finalName = await this.placeUnderFreeName(this.folderOf(userId), file, name, MAX_STORED_NAME_BYTES);
      return { name: finalName, key: this.folderOf(userId) + finalName, size };
    });
  }

  /**
   * A file of another format (issue 27): converted to UVL, which is staged as `<stem>.uvl` (or
   * `<stem> (n).uvl`), the file itself kept in the originals folder under the same stem. A file
   * that does not convert is refused with its format's errors and nothing is kept.
   */
  private async storeConverted(userId: number, name: string, file: string): Promise<StagedFile> {
    let converted: { uvl: string };
    try {
      converted = await convertUploadOff(this.scheduler, userId, name, await readFile(file), this.maxFeatures);
    } catch (error) {
      if (error instanceof ConversionError) throw new StagingError('not_converted', error.message, error.errors);
      throw error;
    }
    const uvlFile = `${file}.uvl`;
    await writeFile(uvlFile, converted.uvl);
    const folder = this.folderOf(userId);
    const finalName = await this.placeUnderFreeName(folder, uvlFile, uvlNameOf(name), MAX_STORED_NAME_BYTES);
    const original = { key: `${folder}${ORIGINALS}${finalName}/${originalNameBeside(finalName, name)}`, name: originalNameBeside(finalName, name) };
    try {
      await this.fileStore.put(original.key, { file });
    } catch (error) {
      await this.fileStore.delete(folder + finalName).catch(() => {});
      throw error;
    }
    return { name: finalName, key: folder + finalName, size: Buffer.byteLength(converted.uvl), original };
  }

  async remove(userId: number, name: string): Promise<void> {
    const key = this.keyOf(userId, name);
    if (!key || !(await this.fileStore.stat(key))) throw new StagingError('not_found', 'No staged file with this name.');
    await this.fileStore.delete(key);
    await this.removeOriginals(this.folderOf(userId), [name]);
  }

  /**
   * Copies stored files (a published version's) into the user's staging area for a new version,
   * each under its own name or ` (n)` when that name is staged already; nothing is overwritten.
   * A file staged under the same name with the same bytes is kept instead of copied again, so
   * starting a new version twice does not stage every file twice. All or none: a failure
   * removes the copies made so far. A model converted from another format brings its original
   * (extensions section 7), kept in the originals folder under the staged name as staging keeps
   * it, so that the new version stores it beside the model again with its loss report.
   */
  async copyIn(userId: number, files: { name: string; key: string; original?: StagedOriginal }[]): Promise<void> {
    const folder = this.folderOf(userId);
    const toCopy: { name: string; key: string; original?: StagedOriginal }[] = [];
    for (const file of files) {
      const name = safeUvlName(file.name);
      const staged = await this.fileStore.stat(folder + name);
      if (!staged || !(await this.sameBytes(staged, file.key))) toCopy.push({ ...file, name });
    }
    await this.refuseWhenFull(userId, toCopy.length, `Your staging area can hold ${MAX_STAGED_FILES} files: remove some staged files first.`);
    const copied: string[] = [];
    try {
      for (const file of toCopy) {
        const name = await this.fileStore.withLocalFile(file.key, (path) => this.placeUnderFreeName(folder, path, file.name, MAX_STORED_NAME_BYTES));
        copied.push(folder + name);
        if (!file.original) continue;
        const originalKey = `${folder}${ORIGINALS}${name}/${originalNameBeside(name, file.original.name)}`;
        await this.fileStore.copy(file.original.key, originalKey);
        copied.push(originalKey);
      }
    } catch (error) {
      for (const key of copied) await this.fileStore.delete(key).catch(() => {});
      throw error;
    }
  }

  /** Every staged .uvl file of the user, oldest first (an upload page opened again shows them). */
  async list(userId: number): Promise<StagedFile[]> {
    const listing = await this.fileStore.list(this.folderOf(userId));
    const released = await this.recoverStale(userId, listing);
    const files = (await this.stagedObjects(userId, released ? undefined : listing)).filter((o) => /\.uvl$/i.test(o.name));
    return files
      .sort((a, b) => a.lastModified.getTime() - b.lastModified.getTime() || a.name.localeCompare(b.name))
      .map((o) => ({ name: o.name, key: o.key, size: o.size }));
  }
}

/** The claim id a claim folder's name carries (`.claim-<id>/`). */
function claimIdOf(claimFolder: string): string {
  return claimFolder.slice(0, -1).split('/').pop()!.slice(CLAIM_PREFIX.length);
}
