// Everyday use, third pass, in Chromium: what a person sees of it (the user menu's My datasets).
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
});
