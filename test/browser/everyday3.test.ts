// Everyday use, third pass, in Chromium: what a person sees of it (the user menu's My datasets, the
// review link's warning on a published dataset and its Copy button).
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { TestServer } from '../support/server.ts';
import { browserSkipReason, loggedInPage, screenshotPath, useBrowserServer, watchPageErrors } from './support.ts';

const skip = browserSkipReason();

describe('everyday use, third pass, in Chromium', { skip }, () => {
  const env = useBrowserServer({ seed: true });
  let server: TestServer;
  let page: Page;
  let problems: string[];
  before(async () => {
    server = env.server;
    page = await loggedInPage(env.browser, server);
    problems = watchPageErrors(page);
  });

  it('offers My datasets in the user menu, which opens the list of the own datasets', async () => {
    await page.goto(`${server.baseUrl}/`);
    await page.click('#user-menu');
    const entry = page.locator('.dropdown-menu.show a.dropdown-item', { hasText: 'My datasets' });
    await entry.waitFor();
    await page.screenshot({ path: screenshotPath('everyday3-user-menu') });
    await Promise.all([page.waitForURL(`${server.baseUrl}/dataset/list`), entry.click()]);
    assert.match(await page.locator('main').innerText(), /Sample dataset 1/);
    assert.deepEqual(problems, []);
  });

  it('makes a review link of a published dataset after the confirmation, and Copy puts it on the clipboard', async () => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    await page.goto(`${server.baseUrl}/doi/10.1234/dataset1/`);
    await Promise.all([page.waitForURL(/\/review-links$/), page.locator('a[href$="/review-links"]').first().click()]);
    assert.match(await page.locator('#review-published-warning').innerText(), /Its DOI page names its authors/);
    const day = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    await page.fill('#expires', day);
    // Without the confirmation: the form comes back with the reason under the box, the day kept.
    await Promise.all([page.waitForLoadState('load'), page.click('main button[type="submit"]')]);
    await page.locator('#confirm_published-errors').waitFor();
    assert.equal(await page.inputValue('#expires'), day);
    await page.check('#confirm_published');
    await Promise.all([page.waitForLoadState('load'), page.click('main form button[type="submit"]:has-text("Make a review link")')]);
    const link = (await page.locator('#review-link').innerText()).trim();
    assert.match(link, /^http:\/\/127\.0\.0\.1:\d+\/review\/[\w-]{43}\/$/);
    await page.click('#review-link-copy');
    await page.locator('#review-link-copy-status', { hasText: 'Copied the link to the clipboard.' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
    await page.screenshot({ path: screenshotPath('everyday3-review-link-copied'), fullPage: true });
    const problemsNow = problems.filter((p) => !p.endsWith('/review-links') && !p.includes('400 (Bad Request)'));
    assert.deepEqual(problemsNow, [], 'no script error (the refused form is an expected 400)');
  });
});
