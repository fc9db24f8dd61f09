// Extensions section 10 in Chromium: the upload page's own work never gets its person refused.
// Six large models dropped on the upload page, then Upload clicked at once and a configure step
// asked in the same session: the submission waits for the staging with its progress shown and
// goes by itself; the step is queued, not refused. Before, the page answered "Wait until every
// file has been uploaded." and the six checks held the account's four heavy jobs, so the step
// got 429. Both seats are held by another requester's gated jobs until the test has looked, so
// nothing here depends on how fast the machine checks a model.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { storeModelFile } from '../support/fixtures.ts';
import { gateKind, largeModel, SMALL_MODEL, until } from '../../src/modules/dataset/staging/page-share.test-support.ts';
import { browserSkipReason, dropFiles, loggedInPage, screenshotPath, useBrowserServer, watchPageErrors } from './support.ts';

const skip = browserSkipReason();


describe('the upload page\'s own work in Chromium', { skip }, () => {
  // One seat per lane, so that two gated jobs hold every seat.
  const env = useBrowserServer({ seed: true, env: { ANALYSIS_WORKERS: '0', HEAVY_WORKERS: '1', SMALL_MODEL_WORKERS: '1' } });

  it('stages six large models, submits at once and configures meanwhile: the upload waits with progress and succeeds, the step is not refused', { timeout: 240_000 }, async (t) => {
    const { server, browser } = env;
    const scheduler = server.hub.ctx.scheduler;
    const { fileId } = await storeModelFile(server, { label: 'Printer', content: SMALL_MODEL, name: 'printer.uvl' });
    const page = await loggedInPage(browser, server, 'user2@example.com');
    const problems = watchPageErrors(page);
    await page.goto(`${server.baseUrl}/dataset/upload`);

    const shared = new Int32Array(new SharedArrayBuffer(4 * 8));
    const held = (['large', 'small'] as const).map((lane, i) => scheduler.submit(gateKind, { requester: 'test:other', lane, job: { id: 9100 + i, shared, gate: 0 }, hardLimitMs: 120_000 }));
    const open = async () => {
      Atomics.store(shared, 1, 1);
      Atomics.notify(shared, 1);
      await Promise.all(held);
    };
    t.after(open);

    await dropFiles(page, [1, 2, 3, 4, 5, 6].map((n) => ({ name: `large${n}.uvl`, content: largeModel(n) })));
    await page.fill('#title', 'Six large models');
    await page.fill('#desc', 'Submitted while they were still being checked.');
    await page.click('#upload-button');
    // Whichever the page shows first: its wait, or an error.
    await page.locator('#upload-status:not(.d-none), #form-errors:not(.d-none)').first().waitFor();
    assert.equal(await page.locator('#form-errors').isVisible(), false, `no error is shown: ${await page.locator('#form-errors').textContent()}`);
    assert.match(await page.locator('#upload-status').textContent() ?? '', /Waiting for \d of 6 files to be uploaded and checked; the upload starts then\./);
    assert.equal(await page.locator('#upload-progress').isVisible(), true, 'the progress is shown');
    await page.screenshot({ path: screenshotPath('upload-waits-for-staging'), fullPage: true });

    // A configure step of the same person meanwhile (the configurator in another tab): queued behind the held seats, not refused.
    const queuedBefore = scheduler.queued('small');
    let answered: number | undefined;
    const step = page.context().request.post(`${server.baseUrl}/api/v1/files/${fileId}/configure`, { data: { selected: ['Laser'] }, timeout: 120_000 })
      .then((res) => { answered = res.status(); return res; });
    await until(() => answered !== undefined || scheduler.queued('small') > queuedBefore, 'the configure step is queued or answered');
    assert.equal(answered, undefined, `the configure step waits for its turn instead of answering ${answered}`);

    await open();
    assert.equal((await step).status(), 200);
    await page.waitForURL(/\/doi\/.+\/$/, { timeout: 120_000 });
    for (let n = 1; n <= 6; n++) assert.match(await page.content(), new RegExp(`large${n}\\.uvl`));
    assert.deepEqual(problems, []);
    await page.context().close();
  });
});
