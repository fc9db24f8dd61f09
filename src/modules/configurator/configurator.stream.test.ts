// Samples kept packed and sent as streams (extensions section 10, "Large results as streams"): the
// answer is the same bytes as the JSON.stringify of the sample (checked against the engine's own
// draw), the CSV as sampleCsv writes it, gzip and brotli when accepted; a sample past 64 MB of
// JSON is sent while the process's heap grows by less than that, and GET / answers meanwhile.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { get, type IncomingHttpHeaders } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { fetchJson, uploadDataset } from '../../../test/support/uploads.ts';
import { parseUvl } from '../../../packages/uvl/src/index.ts';
import { compileModel, ENGINE_VERSION, sampleCsv } from '../../../packages/analysis/src/index.ts';
import { waitForResult } from './configurator.test-support.ts';

/** Names a CSV must quote and JSON escape, beside plain ones. */
const ODD_UVL = 'features\n    Printer\n        alternative\n            Laser\n            "Ink, jet"\n        optional\n            Duplex\n                optional\n                    "Stäpler ✓"\n';

/** 1 000 optional features with 60-character names: a sample of 3 000 is about 95 MB of JSON. */
const WIDE_FEATURES = 1_000;
const longName = (i: number) => `Feature_with_a_long_name_so_that_rows_are_wide_${String(i).padStart(12, '0')}`;
const WIDE_UVL = `features\n    Root\n        optional\n${Array.from({ length: WIDE_FEATURES }, (_, i) => `            ${longName(i)}\n`).join('')}`;
const LARGE_N = 3_000;

/** The sample the hub must answer, drawn here by the engine itself, as the worker's JSON.stringify wrote it before. */
function expectedUniform(text: string, n: number, seed: number) {
  const compiled = compileModel(parseUvl(text).model!, { text })!;
  const configurations = compiled.sampleUniform(n, seed).map((c) => compiled.selectedNames(c));
  const features = [...compiled.names].sort();
  return { kind: 'uniform', n, seed, selected: [], deselected: [], engine_version: ENGINE_VERSION, boolean_only: true, features, configurations };
}

/** The answer's bytes as sent (fetch would decompress them). */
function bytesOf(url: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** V8's collector, to measure from a heap without the test's own garbage. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

describe('samples sent as streams', () => {
  let server: TestServer;
  let client: TestClient;
  const fileOf = async (name: string, text: string) => {
    const { dataset_id } = await uploadDataset(client, name, [[`${name}.uvl`, text]]);
    return (await fetchJson(`${server.baseUrl}/api/v1/datasets/${dataset_id}`)).json.files[0].file_id as number;
  };

  before(async () => {
    server = await startTestServer({ seed: true, env: { ANALYSIS_WORKERS: '0' } });
    client = new TestClient(server.baseUrl);
    await client.login('user1@example.com', '1234');
    await client.get('/dataset/upload');
  });
  after(async () => server?.close());

  it('answers the same bytes as JSON.stringify of the sample, plain, gzip and brotli, and the same CSV', async () => {
    const file = await fileOf('odd', ODD_UVL);
    const url = `${server.baseUrl}/api/v1/files/${file}/samples?kind=uniform&n=40&seed=5`;
    await waitForResult(url);
    const expected = expectedUniform(ODD_UVL, 40, 5);
    const json = JSON.stringify(expected);
    const plain = await bytesOf(url, { 'accept-encoding': 'identity' });
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.body.toString('utf8'), json);
    const gzip = await bytesOf(url, { 'accept-encoding': 'gzip' });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(gzip.body).toString('utf8'), json);
    const br = await bytesOf(url, { 'accept-encoding': 'gzip, br' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(brotliDecompressSync(br.body).toString('utf8'), json);

    const csv = sampleCsv(expected);
    assert.match(csv, /^Duplex,"Ink, jet",Laser,Printer,Stäpler ✓\n/);
    const asCsv = await bytesOf(url, { accept: 'text/csv', 'accept-encoding': 'br' });
    assert.match(asCsv.headers['content-type']!, /^text\/csv/);
    assert.equal(brotliDecompressSync(asCsv.body).toString('utf8'), csv);
    const download = await bytesOf(`${url}&format=csv`, {});
    assert.equal(download.body.toString('utf8'), csv);
    assert.match(download.headers['content-disposition']!, /attachment; filename="sample-uniform-\d+\.csv"/);

    const head = await fetch(url, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.match(head.headers.get('content-type')!, /^application\/json/);

    // Kept packed in the file store, not as JSON in the row.
    const row = await server.hub.db.selectFrom('model_sample').select(['result', 'stored_key']).where('kind', '=', 'uniform').where('params', '=', 'n=40;seed=5;select=;deselect=').executeTakeFirstOrThrow();
    assert.equal(row.result, null);
    assert.match(row.stored_key!, /^samples\/[0-9a-f]{64}\/uniform-[0-9a-f]{32}-[0-9a-f]{16}\.sample$/);
  });

  it('draws a sample again when its stored object is gone, instead of failing', async () => {
    const file = await fileOf('gone', ODD_UVL);
    const url = `${server.baseUrl}/api/v1/files/${file}/samples?kind=uniform&n=7&seed=9`;
    const first = await waitForResult(url);
    const { stored_key } = await server.hub.db.selectFrom('model_sample').select('stored_key').where('params', '=', 'n=7;seed=9;select=;deselect=').executeTakeFirstOrThrow();
    await server.hub.ctx.store.delete(stored_key!);
    assert.equal((await fetch(url)).status, 202);
    assert.deepEqual(await waitForResult(url), first);
  });

  it('refuses a sample past 200 million cells (configurations × features) with a 422 and its message', async () => {
    const features = 20_000;
    const text = `features\n    Root\n        optional\n${Array.from({ length: features }, (_, i) => `            F${i}\n`).join('')}`;
    const file = await fileOf('cells', text);
    const url = `${server.baseUrl}/api/v1/files/${file}/samples?kind=uniform&n=10000&seed=1`;
    assert.equal((await fetch(url)).status, 202);
    let res = await fetchJson(url);
    while (res.status === 202) res = await new Promise((resolve) => setTimeout(resolve, 100)).then(() => fetchJson(url));
    assert.equal(res.status, 422);
    assert.deepEqual(res.json, { message: 'A sample holds at most 200000000 cells (configurations × features): ask for at most 9999 configurations of this model\'s 20001 features.' });
  });

  it(`sends ${LARGE_N} configurations of ${WIDE_FEATURES} long names (over 64 MB of JSON) with the heap bounded, GET / answering meanwhile`, async () => {
    const file = await fileOf('wide', WIDE_UVL);
    const url = `${server.baseUrl}/api/v1/files/${file}/samples?kind=uniform&n=${LARGE_N}&seed=3`;
    const started = Date.now();
    const first = await fetch(url);
    assert.equal(first.status, 202);
    await first.text();
    // Waited for in the table, so that no answer of it is under way when the memory is measured.
    const done = () => server.hub.db.selectFrom('model_sample').select('status').where('params', '=', `n=${LARGE_N};seed=3;select=;deselect=`).executeTakeFirst();
    while ((await done())?.status !== 'done') await new Promise((resolve) => setTimeout(resolve, 100));
    console.log(`# drawn and stored in ${Date.now() - started} ms`);
    const expected = createHash('sha256').update(JSON.stringify(expectedUniform(WIDE_UVL, LARGE_N, 3))).digest('hex');

    const used = () => { const m = process.memoryUsage(); return m.heapUsed + m.arrayBuffers; };
    const gc = collector();
    gc();
    const baseline = used();
    let peak = baseline;
    const res = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
    assert.equal(res.status, 200);
    const reader = res.body!.getReader();
    const hash = createHash('sha256');
    let size = 0;
    let homeStatus = 0;
    let measured = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      hash.update(value);
      size += value.length;
      // What the process holds live: measured after a collection every 4 MB read (garbage is not held).
      if (size >= measured + (4 << 20)) {
        measured = size;
        gc();
        peak = Math.max(peak, used());
      }
      // Once, with the answer well under way: the home page is served between its chunks.
      if (homeStatus === 0 && size > 8 << 20) {
        const home = await fetch(`${server.baseUrl}/`);
        homeStatus = home.status;
        await home.text();
      }
    }
    console.log(`# ${LARGE_N} × ${WIDE_FEATURES}: ${(size / 2 ** 20).toFixed(0)} MB of JSON streamed, live heap + buffers ${(baseline / 2 ** 20).toFixed(0)} MB before, at most ${(peak / 2 ** 20).toFixed(0)} MB during`);
    assert.ok(size > 64 * 2 ** 20, `${size} bytes`);
    assert.equal(hash.digest('hex'), expected, 'the same bytes as JSON.stringify');
    assert.equal(homeStatus, 200);
    assert.ok(peak - baseline < 64 * 2 ** 20, `heap + buffers grew by ${peak - baseline} bytes`);
  });
});
