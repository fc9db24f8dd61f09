// Every text answer over 1 KB is compressed (issue 37, item 1): pages, the API's JSON, the
// configurator's tree and answers, SVG; brotli or gzip as Accept-Encoding allows, decoding to
// the bytes sent to a client that accepts neither. Small answers, assets and sample streams
// keep their own ways.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { storeModelFile } from '../../../test/support/fixtures.ts';
import { COMPRESS_MIN_BYTES } from './compression.ts';

/** A model whose tree and configure answers are tens of KB: 400 optional features under the root. */
const WIDE_MODEL = `features\n    Root\n        optional\n${Array.from({ length: 400 }, (_, i) => `            Feature_${String(i).padStart(3, '0')}\n`).join('')}`;

interface Raw { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }

/** The answer's bytes as they came over the wire (fetch would decode them). */
function raw(base: string, path: string, encoding: string, body?: unknown): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'accept-encoding': encoding, accept: 'application/json, text/html' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const req = request(`${base}${path}`, { method: body === undefined ? 'GET' : 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const decode = (answer: Raw): Buffer => {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(answer.body);
  if (encoding === 'gzip') return gunzipSync(answer.body);
  assert.equal(encoding, undefined, `an encoding this test knows (${String(encoding)})`);
  return answer.body;
};

/** Asks until the answer is no longer 202 (the worker parses the model first). */
async function ready(base: string, path: string, encoding: string, body?: unknown): Promise<Raw> {
  for (;;) {
    const answer = await raw(base, path, encoding, body);
    if (answer.status !== 202) return answer;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('compressed answers', () => {
  let server: TestServer;
  let fileId: number;
  before(async () => {
    server = await startTestServer({ seed: true, env: { ANALYSIS_WORKERS: '0' } });
    ({ fileId } = await storeModelFile(server, { label: 'Model', content: WIDE_MODEL, name: 'wide.uvl' }));
  });
  after(async () => { await server?.close(); });

  const answers = () => [
    { label: 'the home page', path: '/' },
    { label: 'the model page', path: `/model/${fileId}/` },
    { label: 'the diagram (SVG)', path: `/model/${fileId}/diagram.svg` },
    { label: 'the feature tree', path: `/configurator/${fileId}/tree.json` },
    { label: 'a configure answer', path: `/api/v1/files/${fileId}/configure`, body: { selected: ['Feature_007'], deselected: [] } },
    { label: 'the API description', path: '/api/v1/openapi.json' },
  ];

  it('sends each text answer over 1 KB as brotli or gzip, as the client asks, decoding to the plain bytes', async () => {
    for (const { label, path, body } of answers()) {
      const plain = await ready(server.baseUrl, path, 'identity', body);
      assert.equal(plain.status, 200, `${label}: ${plain.status}`);
      assert.equal(plain.headers['content-encoding'], undefined, `${label}: plain to a client that accepts no encoding`);
      assert.ok(plain.body.length > COMPRESS_MIN_BYTES, `${label} is over 1 KB (${plain.body.length} bytes)`);
      for (const encoding of ['br', 'gzip']) {
        const packed = await ready(server.baseUrl, path, `${encoding}, deflate`, body);
        assert.equal(packed.headers['content-encoding'], encoding, `${label}: ${encoding}`);
        assert.match(String(packed.headers.vary), /accept-encoding/i, `${label}: Vary names Accept-Encoding`);
        assert.ok(packed.body.length < plain.body.length, `${label}: ${encoding} is smaller (${packed.body.length} of ${plain.body.length} bytes)`);
        // Pages carry a fresh CSRF token per answer, configure answers their engine's times: compared without them.
        const same = (b: Buffer) => b.toString('utf8').replace(/(csrf[^"]*"\s*content=|name="csrf_token" value=)"[^"]*"/g, '$1""').replace(/"timings_ms":\{[^}]*\}/g, '');
        assert.equal(same(decode(packed)), same(plain.body), `${label}: ${encoding} decodes to the same bytes`);
      }
    }
  });

  it('prefers brotli when both are accepted, and sends small answers as they are', async () => {
    const tree = await ready(server.baseUrl, `/configurator/${fileId}/tree.json`, 'gzip, deflate, br');
    assert.equal(tree.headers['content-encoding'], 'br');
    const small = await raw(server.baseUrl, '/api/v1/files/999999/configure', 'br, gzip', {});
    assert.equal(small.status, 404);
    assert.ok(small.body.length < COMPRESS_MIN_BYTES);
    assert.equal(small.headers['content-encoding'], undefined, 'an answer under 1 KB is not compressed');
    assert.deepEqual(JSON.parse(small.body.toString('utf8')), { message: 'File not found' });
  });

  it('keeps a sample stream working: compressed once, by the stream itself', async () => {
    const path = `/api/v1/files/${fileId}/samples?kind=uniform&n=20&seed=3`;
    const plain = await ready(server.baseUrl, path, 'identity');
    assert.equal(plain.status, 200);
    for (const encoding of ['br', 'gzip']) {
      const packed = await ready(server.baseUrl, path, encoding);
      assert.equal(packed.headers['content-encoding'], encoding);
      assert.deepEqual(JSON.parse(decode(packed).toString('utf8')), JSON.parse(plain.body.toString('utf8')));
    }
  });
});
