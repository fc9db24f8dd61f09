// The staging operations of the upload page (decisions section 4): store a file and check it,
// remove one, list them with their checks.
import type { Readable } from 'node:stream';
import { buffer as streamBytes } from 'node:stream/consumers';
import type { FileStore } from '../../../core/storage/index.ts';
import type { StagedCheck } from '../dataset.types.ts';
import type { DatasetDeps } from '../dataset.deps.ts';
import type { StagedFile, StagingArea } from './staging.ts';
import { conversionOff } from './convert-in-worker.ts';

/** The bytes of a stored object (a staged, claimed or dataset file). */
export async function readStored(store: FileStore, key: string): Promise<Buffer> {
  const content = await store.get(key);
  if (!content) throw new Error(`${key} is missing from the file store`);
  return streamBytes(content.body);
}

async function checkStaged(d: DatasetDeps, area: StagingArea, userId: number, file: StagedFile): Promise<StagedCheck> {
  const check = d.stagedChecks.check(await readStored(d.ctx.store, file.key));
  const original = file.original ?? await area.originalOf(userId, file.name);
  const conversion = original && await conversionOff(d.ctx.scheduler, userId, original.name, await readStored(d.ctx.store, original.key));
  return {
    filename: file.name, size: file.size, ...check,
    format: conversion?.format ?? 'uvl', original: original?.name ?? null, losses: conversion?.losses ?? [],
  };
}

/** Stores an upload in the staging folder and checks it; an invalid model is kept so its owner sees the errors. */
export async function stageFile(d: DatasetDeps, userId: number, clientName: string, content: Readable, isTruncated: () => boolean): Promise<StagedCheck> {
  const stored = await d.staging.store(userId, clientName, content, isTruncated);
  return checkStaged(d, d.staging, userId, stored);
}

export async function deleteStagedFile(d: DatasetDeps, userId: number, name: string): Promise<void> {
  await d.staging.remove(userId, name);
}

export async function listStagedFiles(d: DatasetDeps, userId: number): Promise<StagedCheck[]> {
  const files = await d.staging.list(userId);
  return Promise.all(files.map((file) => checkStaged(d, d.staging, userId, file)));
}
