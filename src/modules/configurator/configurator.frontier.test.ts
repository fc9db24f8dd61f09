// Heavy work fairly shared, in the configurator (extensions sections 10 and 6a): a model that does
// not compile within its budget (linux-2.6.33.3 with a 1 s budget) is answered at once by
// propagation, its failure is stored per (SHA-256, engine version) and never compiled again; a
// requester holding its share of heavy jobs gets 429 with Retry-After, another requester does not.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { fetchJson, uploadDataset } from '../../../test/support/uploads.ts';
import type { WorkerKind } from '../../core/scheduler/index.ts';
import type { GateJob, GateReply } from '../../core/scheduler/scheduler.test-support.ts';
import { ENGINE_VERSION } from '../../../packages/analysis/src/index.ts';
import { PRINTER_UVL } from './configurator.test-support.ts';

const LINUX = readFileSync(new URL('../../../../shared/uvl-corpus/real/Feature_Models/Operating_Systems/Linux/linux-2.6.33.3.uvl', import.meta.url), 'utf8');
const gateKind: WorkerKind<GateJob, GateReply> = {
  name: 'test-gate',
  options: {
    script: new URL('../../core/scheduler/scheduler.test-support.ts', import.meta.url),
    crash: { error: (e) => e.message, exit: (c) => `exit ${c}`, overrun: () => 'overran' },
  },
};

for (const dialect of testDialects()) {
  describe(`the configurator under heavy work [${dialect.name}]`, () => {
    let server: TestServer;
    let linux = 0;
    let printer = 0;
    const configure = (id: number, body: unknown, headers: Record<string, string> = {}) => fetch(`${server.baseUrl}/api/v1/files/${id}/configure`, {
      method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers },
    });
    const failureRows = () => server.hub.db.selectFrom('model_compile_failure').selectAll().execute();

    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { ANALYSIS_WORKERS: '0', ANALYSIS_TIMEOUT_S: '1', HEAVY_WORKERS: '2' } });
      const client = new TestClient(server.baseUrl);
      await client.login('user1@example.com', '1234');
      await client.get('/dataset/upload');
      const ids = async (title: string, files: [string, string][]) =>
        (await fetchJson(`${server.baseUrl}/api/v1/datasets/${(await uploadDataset(client, title, files)).dataset_id}`)).json.files[0].file_id as number;
      linux = await ids('Linux', [['linux.uvl', LINUX]]);
      printer = await ids('Printer', [['printer.uvl', PRINTER_UVL]]);
    });
    after(async () => server?.close());

    it('answers linux by propagation at once while it compiles, then remembers that it did not compile', async () => {
      const first = await configure(linux, {});
      assert.equal(first.status, 200, await first.clone().text());
      const body = await first.json();
      assert.equal(body.consistent, true);
      assert.equal(body.remaining, null);
      assert.ok(['counting', 'not counted'].includes(body.remaining_status), body.remaining_status);
      assert.equal(Object.keys(body.features).length, 6467);
      // The compile in the background runs out of its 1 s budget; its failure is stored.
      while ((await failureRows()).length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
      const [row] = await failureRows();
      assert.equal(row!.engine_version, ENGINE_VERSION);
      assert.match(row!.message, /could not be compiled|overran|memory/);

      // Remembered: a step is one job (no compile again) and says "not counted"; why is exact.
      const started = server.hub.ctx.scheduler.started;
      const feature = Object.keys(body.features).find((name) => body.features[name] === 'open')!;
      const step = await configure(linux, { selected: [feature], why: feature });
      assert.equal(step.status, 200);
      const stepBody = await step.json();
      assert.equal(stepBody.remaining, null);
      assert.equal(stepBody.remaining_status, 'not counted');
      assert.equal(stepBody.features[feature], 'selected');
      assert.deepEqual(stepBody.why.why, [`selected ${feature}`]);
      assert.equal(server.hub.ctx.scheduler.started - started, 1);
      // The commonality needs the compiled form: 422 at once with the stored reason, no job started.
      const commonality = await fetch(`${server.baseUrl}/api/v1/files/${linux}/commonality`);
      assert.equal(commonality.status, 422);
      assert.match((await commonality.json()).message, /could not be compiled|overran|memory/);
      assert.equal(server.hub.ctx.scheduler.started - started, 1);
    });

    it('remembers the failure in the database: another instance answers linux "not counted" at its first step, compiling nothing', async () => {
      assert.equal((await failureRows()).length, 1);
      const other = await startTestServer({ databaseUrl: server.database.url, workingDir: server.workingDir, env: { ANALYSIS_WORKERS: '0', ANALYSIS_TIMEOUT_S: '1', HEAVY_WORKERS: '2' } });
      try {
        const res = await fetch(`${other.baseUrl}/api/v1/files/${linux}/configure`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
        assert.equal(res.status, 200);
        const body = await res.json();
        assert.equal(body.remaining_status, 'not counted');
        assert.equal(Object.keys(body.features).length, 6467);
        // One job: the step. Without the stored failure this instance would have started a compile first.
        assert.equal(other.hub.ctx.scheduler.started, 1);
      } finally {
        await other.close();
      }
    });

    it('counts a small model on its first step (its compile is placed before the step on its seat)', async () => {
      const res = await configure(printer, {});
      assert.equal(res.status, 200);
      const body = await res.json();
      assert.equal(body.remaining, '6');
      assert.equal(body.remaining_status, 'exact');
    });

    it('refuses a 5th heavy job of one requester with 429, Retry-After and a message; another requester gets in', async () => {
      const shared = new Int32Array(new SharedArrayBuffer(4 * 8));
      const scheduler = server.hub.ctx.scheduler;
      // Four large jobs of the anonymous client at 203.0.113.7 (behind the loopback proxy), held on a gate.
      const held = [1, 2, 3, 4].map((id) => scheduler.submit(gateKind, { requester: 'address:203.0.113.7', lane: 'large', job: { id, shared, gate: 0 }, hardLimitMs: 120_000 }));
      const refused = await configure(printer, {}, { 'x-forwarded-for': '203.0.113.7' });
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
      assert.match((await refused.json()).message, /at most 4/);
      const samples = await fetch(`${server.baseUrl}/api/v1/files/${printer}/samples?kind=uniform&n=3&seed=9`, { headers: { 'x-forwarded-for': '203.0.113.7' } });
      assert.equal(samples.status, 429);
      const tree = await fetch(`${server.baseUrl}/configurator/${printer}/tree.json`, { headers: { 'x-forwarded-for': '203.0.113.7' } });
      assert.equal(tree.status, 429);
      // Another client is another requester, and the small model's lane is free of the held large jobs.
      const other = await configure(printer, {}, { 'x-forwarded-for': '198.51.100.2' });
      assert.equal(other.status, 200);
      Atomics.store(shared, 1, 1);
      Atomics.notify(shared, 1);
      await Promise.all(held);
      assert.equal((await configure(printer, {}, { 'x-forwarded-for': '203.0.113.7' })).status, 200);
    });
  });
}
