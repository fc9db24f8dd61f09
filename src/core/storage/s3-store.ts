// An S3-compatible object store as a FileStore (extensions section 4). Objects are streamed in
// and out: uploads go through lib-storage's Upload (multipart above its part size), downloads are
// the response body stream, so a big file is never held whole in memory.
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import { checkKey, checkPrefix, type FileStore, type ObjectContent, type PutSource, type StoredObject } from './file-store.ts';

export interface S3StoreOptions {
  bucket: string;
  /** Prepended to every key, without leading or trailing slash; '' for the bucket's root. */
  prefix: string;
  /** Endpoint of an S3-compatible server; path-style addressing is used when it is set. */
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

function bodyOf(source: PutSource): Readable | Buffer | string {
  return typeof source === 'object' && !Buffer.isBuffer(source) && !(source instanceof Readable) ? createReadStream(source.file) : source;
}

/** The SDK is loaded on first use: installs on the uploads folder (and every `hub` command) never load it. */
let sdk: Promise<[typeof import('@aws-sdk/client-s3'), typeof import('@aws-sdk/lib-storage')]> | undefined;
const loadSdk = () => (sdk ??= Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]));

type Sdk = Awaited<ReturnType<typeof loadSdk>>[0];

/** One bucket (and key prefix) of an S3-compatible server, reached through one client opened on first use. */
class S3Store implements FileStore {
  readonly kind = 's3';
  readonly location: string;
  private connected: S3Client | undefined;
  private readonly Bucket: string;
  private readonly base: string;

  constructor(private readonly options: S3StoreOptions) {
    this.Bucket = options.bucket;
    this.base = options.prefix ? `${options.prefix}/` : '';
    this.location = `s3://${options.bucket}${options.prefix ? `/${options.prefix}` : ''}`;
  }

  private async connect(): Promise<S3Client> {
    const [{ S3Client }] = await loadSdk();
    const options = this.options;
    return (this.connected ??= new S3Client({
      region: options.region || 'us-east-1',
      endpoint: options.endpoint || undefined,
      forcePathStyle: Boolean(options.endpoint),
      credentials:
        options.accessKeyId && options.secretAccessKey ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } : undefined,
    }));
  }

  /** Each command is built from the loaded SDK and sent on the one client. */
  private async send<K extends keyof Sdk>(name: K, input: ConstructorParameters<Extract<Sdk[K], new (...args: any[]) => any>>[0]): Promise<any> {
    const [s3] = await loadSdk();
    const Command = s3[name] as unknown as new (input: unknown) => Parameters<S3Client['send']>[0];
    return (await this.connect()).send(new Command(input));
  }

  private full(key: string): string {
    return this.base + checkKey(key);
  }

  private short(fullKey: string): string {
    return fullKey.slice(this.base.length);
  }

  private async upload(key: string, source: PutSource, onlyIfAbsent: boolean): Promise<void> {
    const [, { Upload }] = await loadSdk();
    await new Upload({
      client: await this.connect(),
      params: { Bucket: this.Bucket, Key: this.full(key), Body: bodyOf(source), ...(onlyIfAbsent ? { IfNoneMatch: '*' } : {}) },
    }).done();
  }

  private async listFull(prefix: string): Promise<StoredObject[]> {
    const objects: StoredObject[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await this.send('ListObjectsV2Command', { Bucket: this.Bucket, Prefix: this.base + prefix, ContinuationToken });
      for (const o of page.Contents ?? []) {
        if (o.Key) objects.push({ key: this.short(o.Key), size: o.Size ?? 0, lastModified: o.LastModified ?? new Date(0) });
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return objects.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async stat(key: string): Promise<StoredObject | undefined> {
    try {
      const head = await this.send('HeadObjectCommand', { Bucket: this.Bucket, Key: this.full(key) });
      return { key, size: head.ContentLength ?? 0, lastModified: head.LastModified ?? new Date(0) };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async put(key: string, source: PutSource): Promise<StoredObject> {
    await this.upload(key, source, false);
    return (await this.stat(key))!;
  }

  async putIfAbsent(key: string, source: PutSource): Promise<boolean> {
    // Checked first because not every S3-compatible server honours If-None-Match on writes; the
    // conditional write closes the window on those that do (AWS S3, MinIO).
    if (await this.stat(key)) return false;
    try {
      await this.upload(key, source, true);
      return true;
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 412 || status === 409) return false;
      throw error;
    }
  }

  async get(key: string): Promise<ObjectContent | undefined> {
    try {
      const answer = await this.send('GetObjectCommand', { Bucket: this.Bucket, Key: this.full(key) });
      return { key, size: answer.ContentLength ?? 0, lastModified: answer.LastModified ?? new Date(0), body: answer.Body as Readable };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  list(prefix: string): Promise<StoredObject[]> {
    return this.listFull(checkPrefix(prefix));
  }

  copy(fromKey: string, toKey: string): Promise<void> {
    return this.copyObject(fromKey, toKey);
  }

  /** The copy itself, which move uses too (a test replacing `copy` on the store leaves moves alone, as before). */
  private async copyObject(fromKey: string, toKey: string): Promise<void> {
    // CopySource is `bucket/key` with the key URL-encoded segment by segment.
    const source = `${this.Bucket}/${this.full(fromKey).split('/').map(encodeURIComponent).join('/')}`;
    await this.send('CopyObjectCommand', { Bucket: this.Bucket, Key: this.full(toKey), CopySource: source });
  }

  async move(fromKey: string, toKey: string): Promise<void> {
    await this.copyObject(fromKey, toKey);
    await this.send('DeleteObjectCommand', { Bucket: this.Bucket, Key: this.full(fromKey) });
  }

  async delete(key: string): Promise<void> {
    await this.send('DeleteObjectCommand', { Bucket: this.Bucket, Key: this.full(key) });
  }

  async deletePrefix(prefix: string): Promise<void> {
    checkPrefix(prefix);
    if (prefix === '') throw new Error('Refusing to delete the whole store.');
    const objects = await this.listFull(prefix);
    for (let i = 0; i < objects.length; i += 1000) {
      const Objects = objects.slice(i, i + 1000).map((o) => ({ Key: this.full(o.key) }));
      await this.send('DeleteObjectsCommand', { Bucket: this.Bucket, Delete: { Objects, Quiet: true } });
    }
  }

  async withLocalFile<T>(key: string, work: (path: string) => Promise<T>): Promise<T> {
    const found = await this.get(key);
    if (!found) throw Object.assign(new Error(`No stored object ${key}`), { code: 'ENOENT' });
    const dir = await mkdtemp(join(tmpdir(), 'hub-s3-'));
    try {
      const path = join(dir, `${randomUUID()}-${key.split('/').pop()}`);
      await pipeline(found.body, createWriteStream(path));
      return await work(path);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async close(): Promise<void> {
    this.connected?.destroy();
  }
}

export function createS3Store(options: S3StoreOptions): FileStore {
  return new S3Store(options);
}
