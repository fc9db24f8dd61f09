// Static assets over HTTP (issue 12, item 1): validators, 304s, precompressed forms, and no
// session work for an asset request.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';

const require = createRequire(import.meta.url);
const BOOTSTRAP_CSS = join(dirname(require.resolve('bootstrap/package.json')), 'dist/css/bootstrap.min.css');

describe('static assets', () => {
  let server: TestServer;
  let queries: string[] = [];
  before(async () => { server = await startTestServer({ onQuery: (q) => queries.push(q) }); });
  after(async () => { await server?.close(); });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.baseUrl}${path}`, { headers });

  it('answers with ETag, Last-Modified and the cache lifetime; 304 to a matching If-None-Match or If-Modified-Since', async () => {
    const res = await get('/vendor/bootstrap/css/bootstrap.min.css', { 'accept-encoding': 'identity' });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^text\/css/);
    assert.equal(res.headers.get('cache-control'), 'public, max-age=604800');
    const etag = res.headers.get('etag')!;
    assert.match(etag, /^"[^"]+"$/);
    const lastModified = res.headers.get('last-modified')!;
    assert.ok(!Number.isNaN(Date.parse(lastModified)));
    assert.ok(Buffer.from(await res.arrayBuffer()).equals(readFileSync(BOOTSTRAP_CSS)));

    const cached = await get('/vendor/bootstrap/css/bootstrap.min.css', { 'if-none-match': `"other", ${etag}` });
    assert.equal(cached.status, 304);
    assert.equal(await cached.text(), '');
    assert.equal((await get('/vendor/bootstrap/css/bootstrap.min.css', { 'if-none-match': '"other"' })).status, 200);
    assert.equal((await get('/vendor/bootstrap/css/bootstrap.min.css', { 'if-modified-since': lastModified })).status, 304);
    assert.equal((await get('/vendor/bootstrap/css/bootstrap.min.css', { 'if-modified-since': 'Thu, 01 Jan 1970 00:00:00 GMT' })).status, 200);
    // Our own assets are revalidated on every use.
    const own = await get('/static/js/hub.js');
    assert.equal(own.status, 200);
    assert.equal(own.headers.get('cache-control'), 'public, max-age=0');
    assert.equal((await get('/static/js/hub.js', { 'if-none-match': own.headers.get('etag')! })).status, 304);
  });

  it('sends the gzip or brotli form to clients that accept it, the same bytes once decoded', async () => {
    const original = readFileSync(BOOTSTRAP_CSS);
    const gz = await get('/vendor/bootstrap/css/bootstrap.min.css', { 'accept-encoding': 'gzip' });
    assert.equal(gz.headers.get('content-encoding'), 'gzip');
    assert.equal(gz.headers.get('vary'), 'accept-encoding');
    // fetch decodes transparently: the body equals the file.
    assert.ok(Buffer.from(await gz.arrayBuffer()).equals(original));
    // Brotli is compressed off the event loop after the first request; ask until it is there.
    let br: Response | undefined;
    for (let i = 0; i < 200; i++) {
      br = await get('/vendor/bootstrap/css/bootstrap.min.css', { 'accept-encoding': 'gzip, br' });
      if (br.headers.get('content-encoding') === 'br') break;
      await br.arrayBuffer();
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(br!.headers.get('content-encoding'), 'br');
    assert.ok(Buffer.from(await br!.arrayBuffer()).equals(original));
    const refused = await get('/vendor/bootstrap/css/bootstrap.min.css', { 'accept-encoding': 'br;q=0, gzip;q=0' });
    assert.equal(refused.headers.get('content-encoding'), null);
  });

  it('HEAD answers the headers only; an asset request with a session cookie neither reads nor writes the session', async () => {
    const head = await fetch(`${server.baseUrl}/static/js/hub.js`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.ok(head.headers.get('etag'));
    const visitor = new TestClient(server.baseUrl);
    await visitor.get('/login');
    assert.ok(visitor.cookies.has('session'));
    queries = [];
    const res = await visitor.get('/vendor/bootstrap-icons/bootstrap-icons.min.css');
    assert.equal(res.status, 200);
    assert.equal(res.setCookies.size, 0);
    assert.deepEqual(queries, []);
    assert.equal((await visitor.get('/vendor/bootstrap-icons/nope.css')).status, 404);
  });
});
