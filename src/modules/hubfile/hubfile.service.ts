// Hubfile service (service contract: hubfile). Owns the file rows, their view and download
// records and where a file lives: the store's key user_<uid>/dataset_<did>/<name> (in the uploads
// folder, <WORKING_DIR>/<UPLOADS_DIR>/ followed by that key). Every read goes through the store.
// The owning dataset is resolved through the featuremodel service (file → feature model →
// dataset → user, specification Hubfile), never by reading the dataset tables.
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { text as streamText } from 'node:stream/consumers';
import type { DbOrTrx } from '../../core/db/connect.ts';
import { placeObjects, type ObjectPlacement } from '../../core/storage/index.ts';
import type { ModuleContext } from '../../core/modules.ts';
import { bindOperations } from '../../core/operations.ts';
import { humanSize } from '../../core/http/filters.ts';
import * as repo from './hubfile.repository.ts';
import { groupLosses, LOSSES_SHOWN_OPEN, type LossGroup } from './loss-report.ts';

export interface HubfileView {
  id: number;
  name: string;
  size: number;
  sizeHuman: string;
  checksum: string;
  featureModelId: number;
  /** The file the model was converted from, stored beside it; null for a model uploaded as UVL. */
  original: repo.FileOriginal | null;
  /** The original's losses grouped by kind, for the pages (empty without an original or losses). */
  lossGroups: LossGroup[];
  /** Whether the pages list the losses open (a few) or collapsed behind their count. */
  lossesOpen: boolean;
}

export type { FileOriginal } from './hubfile.repository.ts';

export interface StoredFile extends HubfileView {
  datasetId: number;
  userId: number;
  /** The owning dataset's DOI; null while it is unsynchronized (then only its owner sees the file). */
  doi: string | null;
  /** Where the file is in the uploads folder (the writers still place files there by path). */
  path: string;
  /** Its key in the store (ctx.store): how every read reaches it. */
  key: string;
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

function view(row: repo.FileRow): HubfileView {
  return { id: row.id, name: row.name, size: row.size, sizeHuman: humanSize(row.size), checksum: row.checksum, featureModelId: row.feature_model_id, original: row.original,
    lossGroups: row.original ? groupLosses(row.original.losses) : [], lossesOpen: (row.original?.losses.length ?? 0) <= LOSSES_SHOWN_OPEN };
}

export function datasetFolder(ctx: ModuleContext, userId: number, datasetId: number): string {
  if (!Number.isSafeInteger(userId) || userId < 1 || !Number.isSafeInteger(datasetId) || datasetId < 1) {
    throw new RangeError(`datasetFolder needs positive integer ids, got user ${userId} and dataset ${datasetId}`);
  }
  return join(resolve(ctx.config.workingDir, ctx.config.uploadsDir), `user_${userId}`, `dataset_${datasetId}`);
}

/** The store prefix of a dataset's files (ends with "/"). */
export function datasetPrefix(ctx: ModuleContext, userId: number, datasetId: number): string {
  datasetFolder(ctx, userId, datasetId);
  return `user_${userId}/dataset_${datasetId}/`;
}

export async function getFile(ctx: ModuleContext, fileId: number): Promise<StoredFile | undefined> {
  const row = await repo.findFile(ctx.db, fileId);
  if (!row) return undefined;
  const ref = await ctx.services.featuremodel.getDatasetRef(row.feature_model_id);
  if (!ref) return undefined;
  if (!isSafeFileName(row.name)) throw new UnsafeFileNameError(`File ${row.id} has a stored name that is not a plain file name`);
  return {
    ...view(row), datasetId: ref.datasetId, userId: ref.userId, doi: ref.doi,
    path: join(datasetFolder(ctx, ref.userId, ref.datasetId), row.name), key: `${datasetPrefix(ctx, ref.userId, ref.datasetId)}${row.name}`,
  };
}

/**
 * The file as a visitor may see it: files of an unsynchronized dataset are private to its
 * owner (like the dataset itself), so anyone else gets undefined, as for an unknown id.
 */
export async function getVisibleFile(ctx: ModuleContext, fileId: number, viewerId: number | null): Promise<StoredFile | undefined> {
  const file = await getFile(ctx, fileId);
  if (!file) return undefined;
  return file.doi !== null || file.userId === viewerId ? file : undefined;
}

export async function createFile(ctx: ModuleContext, trx: DbOrTrx, featureModelId: number, file: { name: string; checksum: string; size: number; original?: repo.FileOriginal | null }): Promise<number> {
  if (!isSafeFileName(file.name) || (file.original && !isSafeFileName(file.original.name))) throw new UnsafeFileNameError(`"${file.name}" is not a plain file name`);
  return repo.insertFile(trx, featureModelId, file);
}

/** The files of each feature model, in creation order (one query per chunk of ids). */
export async function listByFeatureModels(ctx: ModuleContext, featureModelIds: number[]): Promise<Map<number, HubfileView[]>> {
  const result = new Map<number, HubfileView[]>();
  for (const row of await repo.listByFeatureModels(ctx.db, [...new Set(featureModelIds)])) {
    const list = result.get(row.feature_model_id) ?? [];
    list.push(view(row));
    result.set(row.feature_model_id, list);
  }
  return result;
}

export async function deleteByFeatureModels(ctx: ModuleContext, trx: DbOrTrx, featureModelIds: number[]): Promise<void> {
  if (featureModelIds.length > 0) await repo.deleteByFeatureModels(trx, featureModelIds);
}

/** Counted in the database (specification, hubfile). */
export async function totals(ctx: ModuleContext): Promise<{ views: number; downloads: number }> {
  const [views, downloads] = await Promise.all([
    repo.countRecords(ctx.db, 'file_view_record'),
    repo.countRecords(ctx.db, 'file_download_record'),
  ]);
  return { views, downloads };
}

export async function countsForFile(ctx: ModuleContext, fileId: number): Promise<{ views: number; downloads: number }> {
  const [views, downloads] = await Promise.all([
    repo.countRecords(ctx.db, 'file_view_record', fileId),
    repo.countRecords(ctx.db, 'file_download_record', fileId),
  ]);
  return { views, downloads };
}

/** The placement of a new dataset's (or an added model's) files under the dataset's prefix (core/storage/placement.ts). */
export function placeFiles(ctx: ModuleContext, userId: number, datasetId: number): ObjectPlacement {
  return placeObjects(ctx.store, datasetPrefix(ctx, userId, datasetId));
}

/** Removes every stored file of a dataset (called once its rows are gone). */
export async function removeDatasetFiles(ctx: ModuleContext, userId: number, datasetId: number): Promise<void> {
  await ctx.store.deletePrefix(datasetPrefix(ctx, userId, datasetId));
}

/**
 * Removes what is stored under these names of a dataset when no committed row holds them: what a
 * process killed between placing a file and committing its row (or between removing a row and its
 * file) left behind, which would block the name for good. The caller holds the names' rows in its
 * open transaction, so nothing live is stored under them.
 */
export async function removeLeftovers(ctx: ModuleContext, userId: number, datasetId: number, names: string[]): Promise<void> {
  for (const name of names) if (isSafeFileName(name)) await ctx.store.delete(datasetPrefix(ctx, userId, datasetId) + name);
}

/** Removes one stored file (called once its row is gone). */
export async function removeStoredFile(ctx: ModuleContext, file: StoredFile): Promise<void> {
  await ctx.store.delete(file.key);
  if (file.original) await ctx.store.delete(originalKey(ctx, file)!);
}

/** The store key of the file a model was converted from (beside the model), or undefined for a UVL upload. */
export function originalKey(ctx: ModuleContext, file: StoredFile): string | undefined {
  if (!file.original || !isSafeFileName(file.original.name)) return undefined;
  return `${datasetPrefix(ctx, file.userId, file.datasetId)}${file.original.name}`;
}

/** An open stream over the original of a converted model and its size, or undefined when there is none or it is missing. */
export async function openOriginal(ctx: ModuleContext, file: StoredFile): Promise<{ stream: Readable; size: number } | undefined> {
  const key = originalKey(ctx, file);
  const content = key === undefined ? undefined : await ctx.store.get(key);
  return content && { stream: content.body, size: content.size };
}

/** A stream over a dataset's stored file by name (deposits, zips), or undefined when it is missing. */
export async function openByName(ctx: ModuleContext, userId: number, datasetId: number, name: string): Promise<Readable | undefined> {
  if (!isSafeFileName(name)) return undefined;
  return (await ctx.store.get(`${datasetPrefix(ctx, userId, datasetId)}${name}`))?.body;
}

/** Whether a dataset's file is in the store. */
export async function existsByName(ctx: ModuleContext, userId: number, datasetId: number, name: string): Promise<boolean> {
  return isSafeFileName(name) && (await ctx.store.stat(`${datasetPrefix(ctx, userId, datasetId)}${name}`)) !== undefined;
}

/** The file's text, or undefined when its row exists but the stored file does not. */
export async function readText(ctx: ModuleContext, file: StoredFile): Promise<string | undefined> {
  const content = await ctx.store.get(file.key);
  return content === undefined ? undefined : streamText(content.body);
}

/** The file's size and modification time (HTTP validators), or undefined when it is missing from the store. */
export async function fileStat(ctx: ModuleContext, file: StoredFile): Promise<{ size: number; mtimeMs: number } | undefined> {
  const found = await ctx.store.stat(file.key);
  return found && { size: found.size, mtimeMs: found.lastModified.getTime() };
}

/** An open stream over the file, its size and modification time, or undefined when it is missing from the store. */
export async function openStream(ctx: ModuleContext, file: StoredFile): Promise<{ stream: Readable; size: number; mtimeMs: number } | undefined> {
  const content = await ctx.store.get(file.key);
  return content && { stream: content.body, size: content.size, mtimeMs: content.lastModified.getTime() };
}

/**
 * Another file of the same dataset, for resolving a model's imports: `relativePath` is a
 * '/'-separated path inside the dataset's prefix. Nothing outside it is ever read: no `..` or
 * hidden components (the store refuses anything else, and follows no symbolic link).
 */
export async function readSibling(ctx: ModuleContext, file: StoredFile, relativePath: string): Promise<string | undefined> {
  const parts = relativePath.split('/');
  if (parts.some((p) => !isSafeFileName(p) || p.startsWith('.'))) return undefined;
  const key = `${datasetPrefix(ctx, file.userId, file.datasetId)}${parts.join('/')}`;
  const found = await ctx.store.stat(key);
  if (!found || found.size > ctx.config.maxUploadBytes) return undefined;
  const content = await ctx.store.get(key);
  return content === undefined ? undefined : streamText(content.body);
}

/** One record per (user or anonymous, file, cookie); a repeat is ignored. Answers whether it was new. */
export function recordView(ctx: ModuleContext, fileId: number, userId: number | null, cookie: string): Promise<boolean> {
  return repo.insertRecordOnce(ctx.db, 'file_view_record', fileId, userId, cookie);
}

export function recordDownload(ctx: ModuleContext, fileId: number, userId: number | null, cookie: string): Promise<boolean> {
  return repo.insertRecordOnce(ctx.db, 'file_download_record', fileId, userId, cookie);
}

export function createHubfileService(ctx: ModuleContext) {
  return bindOperations(ctx, {
    datasetFolder, datasetPrefix, getFile, getVisibleFile, createFile, listByFeatureModels, deleteByFeatureModels, totals,
    countsForFile, placeFiles, removeDatasetFiles, removeLeftovers, removeStoredFile, openOriginal, openByName, existsByName, readText, fileStat, openStream,
    readSibling, recordView, recordDownload,
  });
}

export type HubfileService = ReturnType<typeof createHubfileService>;
