// The upload page's own checks of staged files are background work (extensions section 10;
// scheduler README, "Background work"): they hold at most half of the uploader's share of heavy
// jobs, so that the person's next request is not refused because of them. Before, staging six
// large files (or opening the upload page with six unchecked ones) held all four of the account's
// jobs, and a configure step straight after answered 429; a cold listing of ten files answered
// the page itself with 429. The seats are held by another requester's gated jobs, so the checks
// stay queued for as long as the test needs: it asserts on what is held, never on durations.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { storeModelFile } from '../../../../test/support/fixtures.ts';
import { putStored } from '../../../../test/support/stored.ts';
import type { TestClient, TestResponse } from '../../../../test/support/client.ts';
import { newUser, stage, uploadForm } from '../dataset.test-support.ts';
import type { Scheduler } from '../../../core/scheduler/index.ts';
import { gateKind, largeModel, SMALL_MODEL, until } from './page-share.test-support.ts';

/** The calls of `requester` waiting for room (submitWhenRoom), read from the scheduler. */
const waitingOf = (scheduler: Scheduler, requester: string) => (scheduler as unknown as { waiters: Map<string, unknown[]> }).waiters.get(requester)?.length ?? 0;

/** A promise and, once settled, its value: to tell an answer given at once from one still waiting. */
function tracked<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => T | undefined } {
  let value: T | undefined;
  void promise.then((v) => { value = v; });
  return { promise, settled: () => value };
}

for (const dialect of testDialects()) {
  describe(`the upload page's own checks leave room for the person's next request [${dialect.name}]`, () => {
    let server: TestServer;
    let fileId = 0;
    before(async () => {
      // One seat per lane, both held by another requester's gated jobs in each test.
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { ANALYSIS_WORKERS: '0', HEAVY_WORKERS: '1', SMALL_MODEL_WORKERS: '1' } });
      fileId = (await storeModelFile(server, { label: 'Printer', content: SMALL_MODEL, name: 'printer.uvl' })).fileId;
    });
    after(async () => { await server?.close(); });

    /** Holds both seats with another requester's jobs until the returned function opens them. */
    function holdSeats(): () => Promise<void> {
      const scheduler = server.hub.ctx.scheduler;
      const shared = new Int32Array(new SharedArrayBuffer(4 * 8));
      const held = (['large', 'small'] as const).map((lane, i) => scheduler.submit(gateKind, { requester: 'test:other', lane, job: { id: 9000 + i, shared, gate: 0 }, hardLimitMs: 120_000 }));
      return async () => {
        Atomics.store(shared, 1, 1);
        Atomics.notify(shared, 1);
        await Promise.all(held);
      };
    }

    /** A configure step as the configurator page asks it, tracked; waits until it is queued or answered. */
    async function configureStep(client: TestClient): Promise<{ promise: Promise<TestResponse>; settled: () => TestResponse | undefined }> {
      const scheduler = server.hub.ctx.scheduler;
      const queuedBefore = scheduler.queued('small');
      const step = tracked(client.post(`/api/v1/files/${fileId}/configure`, { json: { selected: ['Laser'] }, csrf: false }));
      await until(() => step.settled() !== undefined || scheduler.queued('small') > queuedBefore, 'the configure step is queued or answered');
      return step;
    }

    it('stages six large files at once, and a configure step straight after is queued, not refused; the upload reuses their checks', { timeout: 180_000 }, async (t) => {
      const { client, userId } = await newUser(server, 'Stager');
      const requester = `account:${userId}`;
      const scheduler = server.hub.ctx.scheduler;
      const open = holdSeats();
      t.after(open);
      const staging = [1, 2, 3, 4, 5, 6].map((n) => stage(client, `large${n}.uvl`, largeModel(n)));
      await until(() => scheduler.heldBy(requester) + waitingOf(scheduler, requester) === 6, 'the six checks reached the scheduler');
      const step = await configureStep(client);
      assert.equal(step.settled()?.status, undefined, `the step is waiting for its turn, not answered ${step.settled()?.status}: ${step.settled()?.text}`);
      // Two jobs for the page's checks (four wait: no flood), two for the step and the model's compile.
      assert.equal(scheduler.heldInBackgroundBy(requester), 2);
      assert.equal(scheduler.heldBy(requester), 4);
      await open();
      const configured = await step.promise;
      assert.equal(configured.status, 200, configured.text);
      const staged = await Promise.all(staging);
      for (const res of staged) assert.equal(res.status, 200, res.text);

      // The upload right after: the checks made at staging are read, none is queued again.
      const started = scheduler.started;
      const saved = await client.post('/dataset/upload', { form: uploadForm(staged.map((res) => res.json.filename)) });
      assert.equal(saved.status, 200, saved.text);
      assert.equal(scheduler.started, started, 'the upload queued no check');
    });

    it('opens the upload page twice with ten files never checked: both answer, the files are checked once, and a configure step gets in', { timeout: 180_000 }, async (t) => {
      const { client, userId } = await newUser(server, 'Returning');
      const requester = `account:${userId}`;
      const scheduler = server.hub.ctx.scheduler;
      // Staged on an earlier run of the hub: nothing about them is remembered (a cold cache).
      for (let n = 1; n <= 10; n++) await putStored(server, `temp/${userId}/earlier${n}.uvl`, largeModel(100 + n));
      const checksBefore = server.hub.ctx.services.dataset.stagedWorkDone().checks;
      const open = holdSeats();
      t.after(open);
      const first = tracked(client.get('/dataset/upload'));
      await until(() => scheduler.heldBy(requester) > 0 || first.settled() !== undefined, 'the first visit\'s checks are queued');
      // The person reloads the page while it is being prepared.
      const reload = tracked(client.get('/dataset/upload'));
      const step = await configureStep(client);
      assert.equal(first.settled()?.status, undefined, `the first visit waits for its checks, not answered ${first.settled()?.status}`);
      assert.equal(reload.settled()?.status, undefined, `the reload waits for the same checks, not answered ${reload.settled()?.status}`);
      assert.equal(step.settled()?.status, undefined, `the step is waiting for its turn, not answered ${step.settled()?.status}: ${step.settled()?.text}`);
      await open();
      for (const page of [await first.promise, await reload.promise]) {
        assert.equal(page.status, 200, page.text.slice(0, 500));
        for (let n = 1; n <= 10; n++) assert.match(page.text, new RegExp(`earlier${n}\\.uvl`));
      }
      assert.equal((await step.promise).status, 200);
      assert.equal(server.hub.ctx.services.dataset.stagedWorkDone().checks, checksBefore + 10, 'each file checked once for both visits');
    });
  });
}
