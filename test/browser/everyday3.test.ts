// Everyday use, third pass, in Chromium: what a person sees of it (the user menu's My datasets, the
// review link's warning on a published dataset and its Copy button, the collapsed loss report).
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { TestServer } from '../support/server.ts';
import { browserSkipReason, loggedInPage, screenshotPath, useBrowserServer, watchPageErrors } from './support.ts';
import { newUser, stage, uploadForm } from '../../src/modules/dataset/dataset.test-support.ts';
import { SANDWICH } from '../support/sandwich.ts';

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

  it('shows a long loss report after the model facts, collapsed to its count, and opens it to three grouped kinds', async () => {
    const { client } = await newUser(server, 'Sandwich');
    await stage(client, 'sandwich.xml', SANDWICH);
    const saved = await client.post('/dataset/upload', { form: uploadForm(['sandwich.uvl']) });
    assert.equal(saved.status, 200, JSON.stringify(saved.json));
    await page.goto(`${server.baseUrl}/doi/${saved.json.doi}/`);
    await Promise.all([page.waitForURL(/\/model\/\d+\/$/), page.locator('a[href^="/model/"]', { hasText: /model page/i }).first().click()]);
    const facts = await page.locator('#fact-label').boundingBox();
    const report = page.locator('#conversion');
    const box = await report.boundingBox();
    assert.ok(facts && box && box.y >= facts.y + facts.height, 'the report is below the facts');
    const diagram = await page.locator('#diagram').boundingBox();
    assert.ok(diagram && diagram.y < box.y, 'the diagram is not pushed down by it');
    const summary = report.locator('summary.losses-summary');
    assert.equal((await summary.innerText()).trim(), '24 things could not be carried over (3 kinds)');
    assert.equal(await report.locator('li.loss-kind').first().isVisible(), false, 'collapsed');
    await page.screenshot({ path: screenshotPath('everyday3-loss-report-collapsed') });
    await summary.click();
    const kinds = report.locator('li.loss-kind');
    await kinds.first().waitFor({ state: 'visible' });
    assert.equal(await kinds.count(), 3);
    assert.match(await kinds.first().innerText(), /^8 × unit `kcal` of attribute `Calories` of `…` dropped: UVL attributes have no unit: Bread, Cheese, Ham/);
    await report.screenshot({ path: screenshotPath('everyday3-loss-report-open') });
    assert.deepEqual(problems, []);
  });

  it('makes a review link of a published dataset, warning before and beside the link, and Copy puts it on the clipboard', async () => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    await page.goto(`${server.baseUrl}/doi/10.1234/dataset1/`);
    await Promise.all([page.waitForURL(/\/review-links$/), page.locator('a[href$="/review-links"]').first().click()]);
    // Before: the warning above the form, and no box to tick.
    assert.match(await page.locator('#review-published-warning').innerText(), /Its DOI page names its authors/);
    assert.equal(await page.locator('main input[type="checkbox"]').count(), 0);
    const day = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    await page.fill('#expires', day);
    await Promise.all([page.waitForEvent('load'), page.click('main form button[type="submit"]:has-text("Make a review link")')]);
    const link = (await page.locator('#review-link').innerText()).trim();
    assert.match(link, /^http:\/\/127\.0\.0\.1:\d+\/review\/[\w-]{43}\/$/);
    // Beside the link: the same warning, naming the DOI.
    assert.match(await page.locator('#review-link-published-warning').innerText(), /This dataset is published: its DOI page \(10\.1234\/dataset1\) names its authors/);
    await page.click('#review-link-copy');
    await page.locator('#review-link-copy-status', { hasText: 'Copied the link to the clipboard.' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
    await page.screenshot({ path: screenshotPath('everyday3-review-link-copied'), fullPage: true });
    assert.deepEqual(problems, [], 'no script error');
  });
});
