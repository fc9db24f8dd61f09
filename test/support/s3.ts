// A real S3-compatible server in this process (s3rver), for the S3 store's tests and for running
// file-touching tests with STORAGE_URL=s3://… (TEST_STORAGE=s3). Each call starts its own server
// on an ephemeral port with its own data folder and bucket.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error s3rver ships no type declarations
import S3rver from 's3rver';

export interface TestS3 {
  bucket: string;
  endpoint: string;
  /** The environment that points the hub at this server (STORAGE_URL and S3_*). */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startS3(bucket = 'hub-test', prefix = ''): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    bucket,
    endpoint,
    env: {
      STORAGE_URL: `s3://${bucket}${prefix ? `/${prefix}` : ''}`,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Whether file-touching tests should run on S3 (TEST_STORAGE=s3, set by CI's second pass). */
export function testStorageIsS3(): boolean {
  return process.env.TEST_STORAGE === 's3';
}
