// A failure of the machinery is no verdict on a model (issue 35's flaky analysis test): a worker
// stopped under an analysis, or the scheduler closing before the runner's own stop hook (the
// app's preClose), left `status: failed` stored for good on a model that analyses fine. Now the
// model is analysed again, or its claim given back; on every dialect.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { HARD_UVL, fetchJson, uploadDataset, waitForAnalyses } from './analysis.test-support.ts';

/** The fair queues' key of the runner's jobs (analysis.pool.ts). */
const RUNNER = 'background:analysis';
const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

for (const dialect of testDialects()) {
  describe(`analysis when its machinery fails [${dialect.name}]`, () => {
    let server: TestServer;
    let client: TestClient;

    before(async () => {
      // A 2 s budget: the hard model (whose count never finishes in a test) ends `partial` soon.
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { ANALYSIS_WORKERS: '1', ANALYSIS_TIMEOUT_S: '2' } });
      client = new TestClient(server.baseUrl);
      await client.login('user1@example.com', '1234');
      await client.get('/dataset/upload');
      // The seeded models first, so that the runner's next job is the one a test uploads.
      const seeded = (await server.hub.db.selectFrom('file').select('id').execute()).map((f) => Number(f.id));
      await waitForAnalyses(server, seeded);
    });
    after(async () => server?.close());

    const row = (text: string) => server.hub.db.selectFrom('model_analysis').select(['status', 'claimed_by', 'attempts', 'error'])
      .where('sha256', '=', createHash('sha256').update(text).digest('hex')).executeTakeFirst();

    /** Uploads `text` and waits until its analysis runs in a worker thread (claimed, submitted, started). */
    async function uploadAndWaitForItsJob(title: string, text: string): Promise<number> {
      const { dataset_id: id } = await uploadDataset(client, title, [['machinery.uvl', text]]);
      const fileId = (await fetchJson(`${server.baseUrl}/api/v1/datasets/${id}`)).json.files[0].file_id;
      while ((await row(text))?.status !== 'running' || server.hub.ctx.scheduler.heldBy(RUNNER) === 0 || !analysisThread(server)) await tick();
      return fileId;
    }

    it('analyses a model again when its worker is stopped under it, rather than storing a failure', async () => {
      const text = `${HARD_UVL}    F1 | F2\n`;
      const fileId = await uploadAndWaitForItsJob('Machinery recycled', text);
      // What recycling a worker does to the job it runs: a crash reply, while the runner goes on.
      server.hub.ctx.scheduler.stopKind('analysis', 'The worker was recycled.');
      const result = (await waitForAnalyses(server, [fileId])).get(fileId);
      assert.equal(result.status, 'partial', `analysed again to its budget, not failed: ${result.error ?? ''}`);
      assert.equal(result.error, undefined);
      assert.deepEqual(result.timeouts?.includes('count'), true);
    });

    it('analyses a model again when its worker thread exits under it (a crash), rather than storing a failure', async () => {
      const text = `${HARD_UVL}    F5 | F6\n`;
      const fileId = await uploadAndWaitForItsJob('Machinery crashed', text);
      // The thread itself ends, as a crash of the worker does: the job answers its exit.
      await analysisThread(server)!.terminate();
      const result = (await waitForAnalyses(server, [fileId])).get(fileId);
      assert.equal(result.status, 'partial', `analysed again to its budget, not failed: ${result.error ?? ''}`);
      assert.equal((await row(text))?.attempts, 2, 'the crashed run counts as one attempt');
    });

    it('gives the claim back when the scheduler closes before the runner stops (the app closing)', async () => {
      const text = `${HARD_UVL}    F3 | F4\n`;
      await uploadAndWaitForItsJob('Machinery closing', text);
      const started = server.hub.ctx.scheduler.started;
      // The app's preClose hook closes the scheduler; the runner's stop hook runs only afterwards.
      server.hub.ctx.scheduler.close();
      let now = await row(text);
      while (now?.status === 'running') {
        await tick();
        now = await row(text);
      }
      assert.deepEqual(now, { status: 'pending', claimed_by: null, attempts: 0, error: null });
      assert.equal(server.hub.ctx.scheduler.started, started);
    });
  });
}

/**
 * The worker thread running the analysis job now. Reached through the scheduler's private seats:
 * no public way ends a thread from outside, which is what a crash is.
 */
function analysisThread(server: TestServer): { terminate(): Promise<number> } | undefined {
  const seats = (server.hub.ctx.scheduler as any).seats as Record<string, { busy?: { kind: { name: string } }; workers: Map<string, any> }[]>;
  for (const seat of [...seats.small!, ...seats.large!]) {
    if (seat.busy?.kind.name === 'analysis') return seat.workers.get('analysis')?.worker;
  }
  return undefined;
}
