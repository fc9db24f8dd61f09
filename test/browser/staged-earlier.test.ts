// Issue 37, item 9, in Chromium: files staged on an earlier visit and never submitted (one of them
// broken) are shown apart, each with Add and Remove; a draft of other files is saved without them
// (before, the broken leftover was submitted too and the draft answered 400 until it was removed).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { INVALID_UVL, VALID_UVL } from '../../src/modules/dataset/dataset.test-support.ts';
import { seriousViolations } from './axe.ts';
import { browserSkipReason, dropFiles, screenshotPath, useBrowserServer, watchPageErrors } from './support.ts';

const skip = browserSkipReason();

describe('files staged on an earlier visit in Chromium', { skip }, () => {
  const env = useBrowserServer({ seed: true });

  it('shows leftovers apart with Add and Remove, and saves a draft of other files while a broken leftover waits', async () => {
    const { server, browser } = env;
    // bypassCSP: axe-core is injected as a script below.
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce', bypassCSP: true })).newPage();
    await page.goto(`${server.baseUrl}/login`);
    await page.fill('#email', 'user2@example.com');
    await page.fill('#password', '1234');
    await Promise.all([page.waitForURL(`${server.baseUrl}/`), page.click('main button[type="submit"]')]);
    const problems = watchPageErrors(page);
    await page.goto(`${server.baseUrl}/dataset/upload`);
    await dropFiles(page, [{ name: 'abandoned-broken.uvl', content: INVALID_UVL }, { name: 'abandoned-good.uvl', content: VALID_UVL }]);
    await page.locator('.model-entry', { hasText: 'abandoned-broken.uvl' }).locator('.model-status', { hasText: 'Syntax errors' }).waitFor();
    await page.locator('.model-entry', { hasText: 'abandoned-good.uvl' }).locator('.model-status', { hasText: 'Valid' }).waitFor();

    // The person leaves and comes back another day.
    await page.goto(`${server.baseUrl}/dataset/upload`);
    const earlier = page.locator('#staged-earlier');
    await earlier.waitFor();
    assert.equal(await earlier.locator('.model-entry').count(), 2);
    assert.equal(await page.locator('#models .model-entry').count(), 0, 'nothing is part of the upload unasked');
    await earlier.locator('.model-entry', { hasText: 'abandoned-broken.uvl' }).locator('.model-status', { hasText: 'Syntax errors' }).waitFor();
    assert.equal(await earlier.locator('.js-remove-model').count(), 2);
    const violations = await seriousViolations(page);
    assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
    await page.screenshot({ path: screenshotPath('staged-earlier'), fullPage: true });

    await dropFiles(page, [{ name: 'todays.uvl', content: VALID_UVL }]);
    await page.locator('#models .model-entry', { hasText: 'todays.uvl' }).locator('.model-status', { hasText: 'Valid' }).waitFor();
    await page.fill('#title', 'Draft beside leftovers');
    await page.fill('#desc', 'Saved while a broken file from an earlier visit is still staged.');
    await Promise.all([page.waitForURL(/\/dataset\/unsynchronized\/\d+\/$/), page.click('#draft-button')]);
    assert.match(await page.content(), /Draft saved/);
    assert.match(await page.content(), /todays\.uvl/);
    assert.doesNotMatch(await page.content(), /abandoned-good\.uvl/);

    // The leftovers are still waiting: one removed, the other added to a new upload.
    await page.goto(`${server.baseUrl}/dataset/upload`);
    // The entry goes at once and its file is removed in the background: the reload below waits for that answer.
    const removed = page.waitForResponse((res) => res.url().endsWith('/dataset/file/delete'));
    await earlier.locator('.model-entry', { hasText: 'abandoned-broken.uvl' }).locator('.js-remove-model').click();
    await earlier.locator('.model-entry', { hasText: 'abandoned-broken.uvl' }).waitFor({ state: 'detached' });
    assert.equal((await removed).status(), 200);
    await earlier.locator('.model-entry', { hasText: 'abandoned-good.uvl' }).locator('.js-add-staged').click();
    await page.locator('#models .model-entry', { hasText: 'abandoned-good.uvl' }).waitFor();
    await earlier.waitFor({ state: 'hidden' });
    await page.reload();
    await earlier.waitFor();
    assert.deepEqual(await page.locator('#staged-earlier .model-name').allInnerTexts(), ['abandoned-good.uvl'], 'the removed file is gone from the staging area');
    assert.deepEqual(problems, []);
    await page.context().close();
  });
});
