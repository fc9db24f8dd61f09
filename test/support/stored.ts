// What a test server's file store holds, read through the store itself: the same assertions run
// on the uploads folder and, with TEST_STORAGE=s3, on the test S3 server.
import { text } from 'node:stream/consumers';
import type { TestServer } from './server.ts';

/** The entries directly under a folder prefix (`temp/3/`), like readdir: file names and sub-folder names, sorted. */
export async function storedEntries(server: TestServer, prefix: string): Promise<string[]> {
  const names = new Set<string>();
  for (const object of await server.hub.ctx.store.list(prefix)) names.add(object.key.slice(prefix.length).split('/')[0]!);
  return [...names].sort();
}

/** The text of a stored object, or undefined when it is absent. */
export async function storedText(server: TestServer, key: string): Promise<string | undefined> {
  const content = await server.hub.ctx.store.get(key);
  return content && text(content.body);
}

export async function putStored(server: TestServer, key: string, content: string | Buffer): Promise<void> {
  await server.hub.ctx.store.put(key, content);
}

export async function deleteStored(server: TestServer, key: string): Promise<void> {
  await server.hub.ctx.store.delete(key);
}

/** Whether an object exists under the key. */
export async function isStored(server: TestServer, key: string): Promise<boolean> {
  return (await server.hub.ctx.store.stat(key)) !== undefined;
}
