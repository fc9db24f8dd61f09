// Chooses the store from the configuration: STORAGE_URL=s3://bucket[/prefix] or the uploads folder.
import { resolve } from 'node:path';
import type { Config } from '../config.ts';
import type { FileStore } from './file-store.ts';
import { createLocalStore } from './local-store.ts';
import { createS3Store } from './s3-store.ts';

export type { FileStore, ObjectContent, PutSource, StoredObject } from './file-store.ts';
export { StorageKeyError, checkKey, checkPrefix } from './file-store.ts';
export { createLocalStore } from './local-store.ts';
export { createS3Store } from './s3-store.ts';
export { placeObjects, type ObjectPlacement, type PendingObject } from './placement.ts';

export function createFileStore(config: Config): FileStore {
  const s3 = config.storage;
  if (s3) return createS3Store(s3);
  return createLocalStore(resolve(config.workingDir, config.uploadsDir));
}
