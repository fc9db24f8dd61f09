// Where uploaded files live (extensions section 4): the local uploads folder or an S3-compatible
// object store. Keys mirror the local layout (`user_<uid>/dataset_<did>/<name>`, staging under
// `temp/<uid>/`), so a key is also the path relative to the uploads folder.
import type { Readable } from 'node:stream';

export interface StoredObject {
  key: string;
  size: number;
  lastModified: Date;
}

export interface ObjectContent extends StoredObject {
  body: Readable;
}

/** What `put` accepts: bytes, a stream (read to its end, never held whole in memory) or a local file. */
export type PutSource = Buffer | string | Readable | { file: string };

export interface FileStore {
  readonly kind: 'local' | 's3';
  /** Where the store is, for logs and `hub` output (a folder or `s3://bucket/prefix`). */
  readonly location: string;
  /** Writes an object, replacing one under the same key. */
  put(key: string, source: PutSource): Promise<StoredObject>;
  /**
   * Writes an object only when the key is free; answers false (and writes nothing) when it is
   * taken. Local: an exclusive create; S3: a conditional write (If-None-Match), checked first.
   */
  putIfAbsent(key: string, source: PutSource): Promise<boolean>;
  /** The content as a stream with its size and date (for ETag and 304), or undefined when absent. */
  get(key: string): Promise<ObjectContent | undefined>;
  stat(key: string): Promise<StoredObject | undefined>;
  /** Every object whose key starts with `prefix` (a folder prefix ends with `/`), sorted by key. */
  list(prefix: string): Promise<StoredObject[]>;
  copy(fromKey: string, toKey: string): Promise<void>;
  /** Gives an object a new key (a rename locally; copy then delete on S3). */
  move(fromKey: string, toKey: string): Promise<void>;
  /** Removes an object; an absent key is no error. */
  delete(key: string): Promise<void>;
  /** Removes every object under a prefix (which must end with `/`, so `user_1/` never meets `user_10/`). */
  deletePrefix(prefix: string): Promise<void>;
  /**
   * Runs `work` with the object as a local file (a library that reads paths, e.g. the analysis
   * worker): the file itself locally, a temporary download on S3 removed afterwards.
   */
  withLocalFile<T>(key: string, work: (path: string) => Promise<T>): Promise<T>;
  /** Releases connections (S3); nothing to do locally. */
  close(): Promise<void>;
}

export class StorageKeyError extends Error {}

/**
 * A key is a relative slash-separated path with no empty, `.` or `..` segment, no backslash and
 * no control character: nothing a client sends can leave the store's root.
 */
export function checkKey(key: string): string {
  if (typeof key !== 'string' || key === '' || key.startsWith('/') || key.includes('\\') || /[\u0000-\u001f\u007f]/.test(key)) {
    throw new StorageKeyError(`Invalid storage key: ${JSON.stringify(key)}`);
  }
  for (const segment of key.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') throw new StorageKeyError(`Invalid storage key: ${JSON.stringify(key)}`);
  }
  return key;
}

/** A prefix is empty (everything) or a key ending with `/`. */
export function checkPrefix(prefix: string): string {
  if (prefix === '') return prefix;
  if (!prefix.endsWith('/')) throw new StorageKeyError(`A storage prefix ends with "/": ${JSON.stringify(prefix)}`);
  checkKey(prefix.slice(0, -1));
  return prefix;
}
