// The staging operations of the upload page (decisions section 4): store a file and check it,
// remove one, list them with their checks.
import type { Readable } from 'node:stream';
import { buffer as streamBytes } from 'node:stream/consumers';
import type { FileStore } from '../../../core/storage/index.ts';
import type { StagedCheck } from '../dataset.types.ts';
import type { DatasetDeps } from '../dataset.deps.ts';
import type { StagedFile, StagingArea } from './staging.ts';
import { tooManyFeatures } from './staging-names.ts';
import { conversionOff } from './convert-in-worker.ts';
import { forgetStaged } from './import-sources.ts';

/** The bytes of a stored object (a staged, claimed or dataset file). */
export async function readStored(store: FileStore, key: string): Promise<Buffer> {
  const content = await store.get(key);
  if (!content) throw new Error(`${key} is missing from the file store`);
  return streamBytes(content.body);
}

async function checkStaged(d: DatasetDeps, area: StagingArea, userId: number, file: StagedFile): Promise<StagedCheck & { features: number }> {
  const { features, ...check } = await d.stagedChecks.check(await readStored(d.ctx.store, file.key), `account:${userId}`);
  const original = file.original ?? await area.originalOf(userId, file.name);
  const conversion = original && await d.stagedChecks.conversion(original.name, await readStored(d.ctx.store, original.key),
    (name, bytes) => conversionOff(d.ctx.scheduler, userId, name, bytes));
  return {
    filename: file.name, size: file.size, ...check,
    format: conversion?.format ?? 'uvl', original: original?.name ?? null, losses: conversion?.losses ?? [], features,
  };
}

/** Stores an upload in the staging folder and checks it; an invalid model is kept so its owner sees the errors. */
export async function stageFile(d: DatasetDeps, userId: number, clientName: string, content: Readable, isTruncated: () => boolean): Promise<StagedCheck> {
  const stored = await d.staging.store(userId, clientName, content, isTruncated);
  let checked: Awaited<ReturnType<typeof checkStaged>>;
  try {
    checked = await checkStaged(d, d.staging, userId, stored);
  } catch (error) {
    // A check refused (429: the uploader holds its share of heavy jobs) or failed: the answer is an
    // error, so nothing is kept, and the same upload tried again is staged under its own name.
    await d.staging.remove(userId, stored.name).catch(() => {});
    throw error;
  }
  const { features, ...check } = checked;
  if (features > d.ctx.config.maxFeatures) {
    await d.staging.remove(userId, stored.name);
    throw tooManyFeatures(clientName, features, d.ctx.config.maxFeatures);
  }
  // A new file under this name: the source of one imported under it before is not this one's (an import records its own after).
  await forgetStaged(d.ctx.db, userId, [stored.name]);
  return check;
}

export { tooManyFeatures } from './staging-names.ts';

export async function deleteStagedFile(d: DatasetDeps, userId: number, name: string): Promise<void> {
  await d.staging.remove(userId, name);
  await forgetStaged(d.ctx.db, userId, [name]);
}

/**
 * The staged files with their checks. Files checked before answer from memory; the others are
 * checked as many at a time as the page's background share of heavy jobs (2): all at once, every
 * check beyond the share waited in one of the requester's 4 places to wait, and a cold listing of
 * more files than that answered the page itself with 429.
 */
export async function listStagedFiles(d: DatasetDeps, userId: number): Promise<StagedCheck[]> {
  const files = await d.staging.list(userId);
  const checks = await mapAtMost(files, d.ctx.scheduler.backgroundShare, async (file) => {
    try {
      return await checkStaged(d, d.staging, userId, file);
    } catch (error) {
      // Removed since it was listed (its Remove, from this page or another tab, came first): the
      // page lists what is staged now instead of failing.
      if (!(await d.ctx.store.stat(file.key))) return undefined;
      throw error;
    }
  });
  return checks.filter((check) => check !== undefined).map(({ features: _features, ...check }) => check);
}

/** `work` of every item, at most `limit` at once; the results in the items' order. */
async function mapAtMost<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
