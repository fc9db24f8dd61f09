// Hubfile service (service contract: hubfile). Owns the file rows, their view and download
// records and where a file lives on disk: <WORKING_DIR>/<UPLOADS_DIR>/user_<uid>/dataset_<did>/<name>.
// The owning dataset is resolved through the featuremodel service (file → feature model →
// dataset → user, specification Hubfile), never by reading the dataset tables.
import type { ReadStream } from 'node:fs';
import { open, readFile, realpath, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import type { DbOrTrx } from '../../core/db/connect.ts';
import type { ModuleContext } from '../../core/modules.ts';
import { humanSize } from '../../core/http/filters.ts';
import * as repo from './hubfile.repository.ts';

export interface HubfileView {
  id: number;
  name: string;
  size: number;
  sizeHuman: string;
  checksum: string;
  featureModelId: number;
}

export interface StoredFile extends HubfileView {
  datasetId: number;
  userId: number;
  /** The owning dataset's DOI; null while it is unsynchronized (then only its owner sees the file). */
  doi: string | null;
  path: string;
}

export class UnsafeFileNameError extends Error {}

/**
 * A stored name is one path component: no separator, no NUL, not `.` or `..`. Names come from
 * the staging folder (already base names) but are checked again here, where they become paths.
 */
export function isSafeFileName(name: string): boolean {
  return name.length > 0 && Buffer.byteLength(name) <= 255 && name !== '.' && name !== '..' && !/[/\\\0]/.test(name);
}

/** Ids of the database's INTEGER range; anything else names no file (and must not reach PostgreSQL). */
export function parseFileId(raw: unknown): number | undefined {
  if (typeof raw !== 'string' || !/^\d{1,10}$/.test(raw)) return undefined;
  const id = Number(raw);
  return id >= 1 && id <= 2147483647 ? id : undefined;
}

const missingOnDisk = (error: unknown) => ['ENOENT', 'ENOTDIR', 'EISDIR'].includes((error as NodeJS.ErrnoException)?.code ?? '');

function view(row: repo.FileRow): HubfileView {
  return { id: row.id, name: row.name, size: row.size, sizeHuman: humanSize(row.size), checksum: row.checksum, featureModelId: row.feature_model_id };
}

export function createHubfileService(ctx: ModuleContext) {
  const { db, config } = ctx;
  const uploadsRoot = resolve(config.workingDir, config.uploadsDir);

  function datasetFolder(userId: number, datasetId: number): string {
    if (!Number.isSafeInteger(userId) || userId < 1 || !Number.isSafeInteger(datasetId) || datasetId < 1) {
      throw new RangeError(`datasetFolder needs positive integer ids, got user ${userId} and dataset ${datasetId}`);
    }
    return join(uploadsRoot, `user_${userId}`, `dataset_${datasetId}`);
  }

  async function getFile(fileId: number): Promise<StoredFile | undefined> {
    const row = await repo.findFile(db, fileId);
    if (!row) return undefined;
    const ref = await ctx.services.featuremodel.getDatasetRef(row.feature_model_id);
    if (!ref) return undefined;
    if (!isSafeFileName(row.name)) throw new UnsafeFileNameError(`File ${row.id} has a stored name that is not a plain file name`);
    return { ...view(row), datasetId: ref.datasetId, userId: ref.userId, doi: ref.doi, path: join(datasetFolder(ref.userId, ref.datasetId), row.name) };
  }

  return {
    datasetFolder,
    getFile,

    /**
     * The file as a visitor may see it: files of an unsynchronized dataset are private to its
     * owner (like the dataset itself), so anyone else gets undefined, as for an unknown id.
     */
    async getVisibleFile(fileId: number, viewerId: number | null): Promise<StoredFile | undefined> {
      const file = await getFile(fileId);
      if (!file) return undefined;
      return file.doi !== null || file.userId === viewerId ? file : undefined;
    },

    async createFile(trx: DbOrTrx, featureModelId: number, file: { name: string; checksum: string; size: number }): Promise<number> {
      if (!isSafeFileName(file.name)) throw new UnsafeFileNameError(`"${file.name}" is not a plain file name`);
      return repo.insertFile(trx, featureModelId, file);
    },

    /** The files of each feature model, in creation order (one query per chunk of ids). */
    async listByFeatureModels(featureModelIds: number[]): Promise<Map<number, HubfileView[]>> {
      const result = new Map<number, HubfileView[]>();
      for (const row of await repo.listByFeatureModels(db, [...new Set(featureModelIds)])) {
        const list = result.get(row.feature_model_id) ?? [];
        list.push(view(row));
        result.set(row.feature_model_id, list);
      }
      return result;
    },

    async deleteByFeatureModels(trx: DbOrTrx, featureModelIds: number[]): Promise<void> {
      if (featureModelIds.length > 0) await repo.deleteByFeatureModels(trx, featureModelIds);
    },

    /** Counted in the database (specification, hubfile). */
    async totals(): Promise<{ views: number; downloads: number }> {
      const [views, downloads] = await Promise.all([
        repo.countRecords(db, 'file_view_record'),
        repo.countRecords(db, 'file_download_record'),
      ]);
      return { views, downloads };
    },

    async countsForFile(fileId: number): Promise<{ views: number; downloads: number }> {
      const [views, downloads] = await Promise.all([
        repo.countRecords(db, 'file_view_record', fileId),
        repo.countRecords(db, 'file_download_record', fileId),
      ]);
      return { views, downloads };
    },

    /** The file's text, or undefined when its row exists but the disk file does not. */
    async readText(file: StoredFile): Promise<string | undefined> {
      try {
        return await readFile(file.path, 'utf8');
      } catch (error) {
        if (missingOnDisk(error)) return undefined;
        throw error;
      }
    },

    /** The file's size and modification time (HTTP validators), or undefined when it is missing on disk. */
    async fileStat(file: StoredFile): Promise<{ size: number; mtimeMs: number } | undefined> {
      try {
        const info = await stat(file.path);
        return info.isFile() ? { size: info.size, mtimeMs: info.mtimeMs } : undefined;
      } catch (error) {
        if (missingOnDisk(error)) return undefined;
        throw error;
      }
    },

    /** An open stream over the file, its size and modification time, or undefined when it is missing on disk. */
    async openStream(file: StoredFile): Promise<{ stream: ReadStream; size: number; mtimeMs: number } | undefined> {
      let handle;
      try {
        handle = await open(file.path, 'r');
      } catch (error) {
        if (missingOnDisk(error)) return undefined;
        throw error;
      }
      try {
        const info = await handle.stat();
        if (!info.isFile()) {
          await handle.close();
          return undefined;
        }
        // The stream owns the handle from here: it closes it at the end, on error or when destroyed.
        return { stream: handle.createReadStream(), size: info.size, mtimeMs: info.mtimeMs };
      } catch (error) {
        await handle.close().catch(() => {});
        throw error;
      }
    },

    /**
     * Another file of the same dataset, for resolving a model's imports: `relativePath` is a
     * '/'-separated path inside the dataset folder. Nothing outside that folder is ever read:
     * no `..` or hidden components, and the real path (symbolic links followed) must stay inside.
     */
    async readSibling(file: StoredFile, relativePath: string): Promise<string | undefined> {
      const parts = relativePath.split('/');
      if (parts.some((p) => !isSafeFileName(p) || p.startsWith('.'))) return undefined;
      const folder = datasetFolder(file.userId, file.datasetId);
      try {
        const [realFolder, realTarget] = await Promise.all([realpath(folder), realpath(join(folder, ...parts))]);
        if (!realTarget.startsWith(realFolder + sep)) return undefined;
        const info = await stat(realTarget);
        if (!info.isFile() || info.size > config.maxUploadBytes) return undefined;
        return await readFile(realTarget, 'utf8');
      } catch (error) {
        if (missingOnDisk(error) || (error as NodeJS.ErrnoException)?.code === 'ELOOP') return undefined;
        throw error;
      }
    },

    /** One record per (user or anonymous, file, cookie); a repeat is ignored. Answers whether it was new. */
    recordView(fileId: number, userId: number | null, cookie: string): Promise<boolean> {
      return repo.insertRecordOnce(db, 'file_view_record', fileId, userId, cookie);
    },

    recordDownload(fileId: number, userId: number | null, cookie: string): Promise<boolean> {
      return repo.insertRecordOnce(db, 'file_download_record', fileId, userId, cookie);
    },
  };
}

export type HubfileService = ReturnType<typeof createHubfileService>;
