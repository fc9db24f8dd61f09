// The cart (extensions section 8): files collected across datasets and downloaded as one zip in
// chosen formats. The service never sees the session: a visitor's cart is a list of file ids the
// routes keep there, a user's is in cart_item. Files and datasets are read through their modules'
// services, and only files the viewer may see count (another user's unsynchronized dataset's do not).
// Each operation is an exported function taking the module context first, bound once below.
import type { ModuleContext } from '../../core/modules.ts';
import { bindOperations } from '../../core/operations.ts';
import { badRequest, notFound } from '../../core/http/errors.ts';
import { doiPath } from '../dataset/index.ts';
import * as repo from './cart.repository.ts';

/** A cart holds at most as many files as a dataset may (decisions section 4). */
export const MAX_CART_FILES = 200;

export interface CartEntry {
  fileId: number;
  fileName: string;
  sizeHuman: string;
  datasetId: number;
  datasetTitle: string;
  /** "v2 of 3" beside the title: two versions of one dataset otherwise read as the same dataset twice. */
  datasetVersion: number;
  datasetVersionCount: number;
  /** Null for the viewer's own unsynchronized dataset. */
  doi: string | null;
  /** The dataset's page. */
  href: string;
}

async function visibleFile(ctx: ModuleContext, fileId: number, viewerId: number | null) {
  const file = await ctx.services.hubfile.getVisibleFile(fileId, viewerId);
  if (!file) throw notFound(`There is no file with id ${fileId}.`);
  return file;
}

/** The cart's files that still exist and the viewer may see, in cart order, with their datasets. */
export async function entries(ctx: ModuleContext, fileIds: readonly number[], viewerId: number | null): Promise<CartEntry[]> {
  const files = (await Promise.all(fileIds.map((id) => ctx.services.hubfile.getVisibleFile(id, viewerId)))).filter((f) => f !== undefined);
  const datasets = new Map((await ctx.services.dataset.summariesOf([...new Set(files.map((f) => f.datasetId))])).map((d) => [d.id, d]));
  return files.flatMap((file) => {
    const dataset = datasets.get(file.datasetId);
    return dataset ? [{
      fileId: file.id, fileName: file.name, sizeHuman: file.sizeHuman, datasetId: dataset.id, datasetTitle: dataset.title,
      datasetVersion: dataset.version, datasetVersionCount: dataset.versionCount, doi: dataset.doi,
      href: dataset.doi ? `/doi/${doiPath(dataset.doi)}/` : `/dataset/unsynchronized/${dataset.id}/`,
    }] : [];
  });
}

/** The cart with the file added (refused when it is full); 404 for a file the viewer cannot see. */
export async function withFile(ctx: ModuleContext, fileIds: readonly number[], fileId: number, viewerId: number | null): Promise<{ fileIds: number[]; fileName: string }> {
  const file = await visibleFile(ctx, fileId, viewerId);
  if (fileIds.includes(fileId)) return { fileIds: [...fileIds], fileName: file.name };
  if (fileIds.length >= MAX_CART_FILES) throw badRequest(`The cart holds at most ${MAX_CART_FILES} files: download or remove some first.`);
  return { fileIds: [...fileIds, fileId], fileName: file.name };
}

export function userFileIds(ctx: ModuleContext, userId: number): Promise<number[]> {
  return repo.fileIdsOf(ctx.db, userId);
}

/**
 * A visitor's cart joins the account's at sign-in: the account's files first, then the
 * visitor's new ones in their order, as many as the limit leaves room for. Files deleted or
 * hidden since are dropped; `leftOut` counts the visible ones that did not fit.
 */
export async function mergeIntoUser(ctx: ModuleContext, userId: number, visitorFileIds: readonly number[]): Promise<{ added: number; leftOut: number }> {
  const items = await repo.itemsOf(ctx.db, userId);
  const held = new Set(items.map((item) => item.fileId));
  const fresh = [...new Set(visitorFileIds)].filter((id) => !held.has(id));
  const visible = (await Promise.all(fresh.map((id) => ctx.services.hubfile.getVisibleFile(id, userId)))).filter((f) => f !== undefined);
  const taken = visible.slice(0, Math.max(0, MAX_CART_FILES - items.length));
  const times = appendTimes(taken.length, items.at(-1)?.addedAt);
  // One by one: a file the other tab added meanwhile is skipped, not a failed merge.
  for (const [i, file] of taken.entries()) await repo.addFile(ctx.db, userId, file.id, times[i]);
  return { added: taken.length, leftOut: visible.length - taken.length };
}

/** Stores a file checked by withFile in a user's cart. */
export function addToUser(ctx: ModuleContext, userId: number, fileId: number): Promise<void> {
  return repo.addFile(ctx.db, userId, fileId);
}

export function removeFromUser(ctx: ModuleContext, userId: number, fileIds: number[]): Promise<void> {
  return repo.removeFiles(ctx.db, userId, fileIds);
}

export function createCartService(ctx: ModuleContext) {
  return bindOperations(ctx, { entries, withFile, userFileIds, mergeIntoUser, addToUser, removeFromUser });
}

export type CartService = ReturnType<typeof createCartService>;

/**
 * `count` times, a millisecond apart, after `last` (the account's newest file) and ending now when
 * there is room: the cart is ordered by the time added, so merged files follow the account's own
 * in the visitor's order, and a file added later still comes after them.
 */
export function appendTimes(count: number, last: string | undefined, now = Date.now()): string[] {
  const start = Math.max(now - count + 1, last === undefined ? -Infinity : Date.parse(last) + 1);
  return Array.from({ length: count }, (_, i) => new Date(start + i).toISOString());
}

/** The zip's folder of a dataset: its DOI made a file name, or its id while it has none. */
export function datasetFolder(entry: Pick<CartEntry, 'doi' | 'datasetId'>): string {
  return entry.doi ? doiPath(entry.doi).replace(/[^A-Za-z0-9._-]+/g, '_') : `dataset_${entry.datasetId}`;
}
