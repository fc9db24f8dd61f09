// The model page's data is heavy work on the scheduler (extensions section 10, issue 35): a large
// model's parse, highlighting and diagram run in a worker while the serving thread answers
// everyone else; the page does not wait for them, says the model is being prepared, and its poll
// (prepared.json) tells when they are ready. No timed assertion: the home page is asked while the
// page's job is known to be running (started by a seat and not yet ended).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { preparedPage, storeModel } from './model.test-support.ts';

/** 20 groups of 1,000 optional features: 20,021 features, seconds of parsing, highlighting and drawing in a worker. */
const LARGE = ['features', '    Root', '        optional', ...Array.from({ length: 20 }, (_, g) => [
  `            G${g}`, '                optional', ...Array.from({ length: 1000 }, (_, i) => `                    F${g}_${i}`),
]).flat(), ''].join('\n');
/** The page's jobs of an anonymous visitor on this machine: a share of their own (model-page.jobs.ts). */
const ANONYMOUS = 'model-page:address:127.0.0.1';

describe('the model page of a large model, prepared off the serving thread', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ seed: true, env: { ANALYSIS_WORKERS: '0' } });
  });
  after(async () => server?.close());

  it('answers at once with a progress state while a worker prepares it, and GET / meanwhile', async () => {
    const { fileId } = await storeModel(server, { content: LARGE, name: 'large.uvl' });
    const scheduler = server.hub.ctx.scheduler;
    const client = new TestClient(server.baseUrl);
    const started = scheduler.started;
    const page = await client.get(`/model/${fileId}/`);
    assert.equal(page.status, 200);
    // Before, the page parsed, highlighted and drew the model on the serving thread, then answered it whole.
    assert.match(page.text, /id="model-preparing" data-prepared-url="\/model\/\d+\/prepared.json"/);
    assert.doesNotMatch(page.text, /id="uvl-code"/);
    assert.equal(scheduler.heldBy(ANONYMOUS), 1, 'the page\'s data is one job of its visitor');

    // The home page answers while the job runs: asked after a seat started it, answered before it ended.
    let answeredWhileRunning = 0;
    let ready = false;
    while (!ready) {
      const running = scheduler.started > started && scheduler.heldBy(ANONYMOUS) === 1;
      const home = await client.get('/');
      assert.equal(home.status, 200);
      if (running && scheduler.heldBy(ANONYMOUS) === 1) answeredWhileRunning++;
      const poll = await client.get(`/model/${fileId}/prepared.json`);
      assert.ok(poll.status === 200 || poll.status === 202, `prepared.json: ${poll.status}`);
      if (poll.status === 202) assert.equal(poll.headers.get('retry-after'), '1');
      ready = poll.status === 200 && poll.json.ready === true;
    }
    assert.ok(answeredWhileRunning > 0, 'GET / was answered while the page\'s job ran');
    assert.equal(scheduler.heldBy(ANONYMOUS), 0);

    // Ready: the page is whole, from the kept answer (no new job).
    const jobs = scheduler.started;
    const whole = await client.get(`/model/${fileId}/`);
    assert.doesNotMatch(whole.text, /id="model-preparing"/);
    assert.match(whole.text, /id="L1"/);
    assert.match(whole.text, /data-feature="G19"/);
    assert.equal(scheduler.started, jobs, 'the kept answer, not a new job');
  });

  it('keeps a small model\'s page whole at once, through the small lane', async () => {
    const { fileId } = await storeModel(server);
    const page = await new TestClient(server.baseUrl).get(`/model/${fileId}/`);
    assert.equal(page.status, 200);
    assert.doesNotMatch(page.text, /id="model-preparing"/);
    assert.match(page.text, /data-feature="Turbo"/);
  });

  it('polls with 429 and Retry-After while the visitor holds its share of heavy jobs, then prepares the page', async () => {
    const { fileId } = await storeModel(server, { content: LARGE.replace('Root', 'Other'), name: 'other.uvl' });
    const client = new TestClient(server.baseUrl);
    const scheduler = server.hub.ctx.scheduler;
    // Four jobs of this visitor held in the queue: a large model's diagram, asked four times with other depths.
    const held = [1, 2, 3, 4].map((depth) => client.get(`/model/${fileId}/diagram.svg?depth=${depth}`));
    while (scheduler.heldBy(ANONYMOUS) < 4) await new Promise((resolve) => setTimeout(resolve, 10));
    const page = await client.get(`/model/${fileId}/`);
    assert.equal(page.status, 200, 'the page itself is never refused');
    assert.match(page.text, /id="model-preparing"/);
    const poll = await client.get(`/model/${fileId}/prepared.json`);
    if (scheduler.heldBy(ANONYMOUS) >= 4) {
      assert.equal(poll.status, 429);
      assert.ok(Number(poll.headers.get('retry-after')) > 0);
    }
    for (const res of await Promise.all(held)) assert.equal(res.status, 200);
    const whole = await preparedPage(client, `/model/${fileId}/`);
    assert.match(whole.text, /id="L1"/);
  });
});
