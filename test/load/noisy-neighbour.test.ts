// The noisy neighbour with small numbers (extensions section 10, "Measured"; the bench is
// bench/noisy-neighbour.bench.ts): three clients keep 4 heavy requests each in flight (configure
// linux-2.6.33.3, uniform samples of automotive2_4, staging a generated FeatureIDE model) on one
// large-model seat; a fourth client's configure of a 20-feature model and GET / must answer while
// the heavy jobs are still queued (asserted on the scheduler's queue, never on a duration), and
// the fifth heavy request of one client is 429.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startTestServer, type TestServer } from '../support/server.ts';
import { TestClient } from '../support/client.ts';
import { storeModelFile } from '../support/fixtures.ts';
import { featureIdeXml } from '../support/featureide-model.ts';

const corpus = (path: string) => readFileSync(new URL(`../../../shared/uvl-corpus/real/Feature_Models/${path}`, import.meta.url), 'utf8');
const SMALL = `features\n    Root\n        optional\n${Array.from({ length: 19 }, (_, i) => `            F${i}\n`).join('')}`;

describe('the noisy neighbour, small numbers', () => {
  let server: TestServer;
  let stager: TestClient;
  const files: Record<string, number> = {};

  before(async () => {
    // A 5 s budget: linux's compile (which does not finish in 60 s) fails sooner, as it would.
    server = await startTestServer({ seed: true, env: { ANALYSIS_WORKERS: '0', ANALYSIS_TIMEOUT_S: '5', HEAVY_WORKERS: '1', SMALL_MODEL_WORKERS: '1' } });
    stager = new TestClient(server.baseUrl);
    await stager.login('user1@example.com', '1234');
    await stager.get('/dataset/upload');
    const models: [string, string][] = [['linux', corpus('Operating_Systems/Linux/linux-2.6.33.3.uvl')], ['automotive', corpus('Automotive/Automotive02/automotive2_4.uvl')], ['small', SMALL]];
    for (const [name, text] of models) files[name] = (await storeModelFile(server, { label: name, content: text, name: `${name}.uvl`, modelTitle: name })).fileId;
  });
  const heavy: Promise<number>[] = [];
  after(async () => {
    // The scheduler answers the heavy requests still queued at once (the server stops); with them
    // answered, no connection is left busy when the server closes.
    server?.hub.ctx.scheduler.close();
    await Promise.allSettled(heavy);
    await server?.close();
  });

  it('answers the small configure before any heavy job ended, and GET /, while the heavy queue has not drained', async () => {
    const scheduler = server.hub.ctx.scheduler;
    const from = (address: string) => ({ 'x-forwarded-for': address, 'content-type': 'application/json' });
    const xml = featureIdeXml(20_000);
    for (let i = 0; i < 4; i++) {
      heavy.push(fetch(`${server.baseUrl}/api/v1/files/${files.linux}/configure`, { method: 'POST', headers: from('203.0.113.1'), body: JSON.stringify({ deselected: [] }) }).then(async (r) => { await r.arrayBuffer(); return r.status; }));
      // Each sample is another stored result: a job of its own, computed in the background (202).
      heavy.push(fetch(`${server.baseUrl}/api/v1/files/${files.automotive}/samples?kind=uniform&n=${1000 + i}&seed=1`, { headers: from('203.0.113.2') }).then(async (r) => { await r.arrayBuffer(); return r.status; }));
      const form = new FormData();
      form.append('file', new Blob([xml], { type: 'application/xml' }), `generated-${i}.xml`);
      heavy.push(stager.post('/dataset/file/upload', { body: form }).then((r) => r.status));
    }
    // Every heavy client holds its 4: the large seat runs one job, the others queue.
    while (scheduler.queued('large') < 6) await new Promise((resolve) => setImmediate(resolve));
    const fifth = await fetch(`${server.baseUrl}/api/v1/files/${files.automotive}/samples?kind=uniform&n=999&seed=1`, { headers: from('203.0.113.2') });
    assert.equal(fifth.status, 429);
    assert.ok(Number(fifth.headers.get('retry-after')) > 0);
    assert.equal(typeof (await fifth.json()).message, 'string');

    const largeEndedBefore = scheduler.ended.large;
    const small = await fetch(`${server.baseUrl}/api/v1/files/${files.small}/configure`, { method: 'POST', headers: from('198.51.100.4'), body: JSON.stringify({ selected: ['F3'] }) });
    const queuedAtSmall = scheduler.queued('large');
    const largeEndedMeanwhile = scheduler.ended.large - largeEndedBefore;
    assert.equal(small.status, 200);
    assert.equal((await small.json()).remaining, String(2 ** 18));
    const home = await fetch(`${server.baseUrl}/`, { headers: { 'x-forwarded-for': '198.51.100.4' } });
    const queuedAtHome = scheduler.queued('large');
    assert.equal(home.status, 200);
    // Read to its end: a response left unread holds its connection open past the server's close.
    await home.text();
    // The small job did not wait for any heavy job to end (its lane has seats of its own), and it
    // and the page answered while heavy ones were still queued.
    assert.equal(largeEndedMeanwhile, 0, 'the small configure waited until a heavy job ended');
    assert.ok(queuedAtSmall > 0, `the heavy queue had drained (${queuedAtSmall}) before the small configure answered`);
    assert.ok(queuedAtHome > 0, `the heavy queue had drained (${queuedAtHome}) before GET / answered`);
    // The heavy requests are not waited for: closing the server answers them (no 5xx among those answered).
    const answered: number[] = [];
    for (const h of heavy) void h.then((status) => answered.push(status));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(answered.filter((s) => s >= 500), []);

  });
});
