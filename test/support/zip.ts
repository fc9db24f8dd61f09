// Zip downloads in HTTP tests: the bytes of a download with the client's cookies, and the entries of a zip.
import yauzl from 'yauzl';
import type { TestClient } from './client.ts';

export async function unzip(bytes: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const entries = new Map<string, string>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

export async function download(client: TestClient, path: string): Promise<{ status: number; headers: Headers; bytes: Buffer; setCookies: string[] }> {
  const headers: Record<string, string> = {};
  if (client.cookies.size > 0) headers.cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await fetch(client.baseUrl + path, { headers, redirect: 'manual' });
  const setCookies = res.headers.getSetCookie();
  for (const raw of setCookies) {
    const [pair] = raw.split(';');
    const eq = pair!.indexOf('=');
    client.cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
  }
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()), setCookies };
}
