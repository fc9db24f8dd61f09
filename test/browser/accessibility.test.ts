// Issue 10 point 5: axe-core finds no serious or critical violation on the landing, login,
// sign-up, upload, DOI and explore pages and on the account pages, at desktop and phone width;
// none of them scrolls sideways.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext } from 'playwright-core';
import { browserSkipReason, useBrowserServer } from './support.ts';
import { seriousViolations } from './axe.ts';

const skip = browserSkipReason();

const ANONYMOUS = ['/', '/login', '/signup/', '/forgot-password', '/explore', '/doi/10.1234/dataset1/', '/reset-password/no-such-token-in-the-database'];
const LOGGED_IN = ['/dataset/upload', '/profile/summary', '/profile/edit', '/profile/password', '/profile/email', '/dataset/list'];

describe('accessibility (axe-core) in Chromium', { skip }, () => {
  const journey = useBrowserServer({ seed: true });

  for (const [label, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 375, height: 740 }]] as const) {
    it(`finds no serious or critical violation at ${label} width`, async () => {
      // axe is injected as a script: only this test's context lifts the hub's CSP to allow it.
      const context: BrowserContext = await journey.browser.newContext({ viewport, bypassCSP: true, reducedMotion: 'reduce' });
      const page = await context.newPage();
      const found: string[] = [];
      const check = async (path: string) => {
        await page.goto(`${journey.server.baseUrl}${path}`);
        if (path === '/explore') await page.waitForSelector('.search-result');
        for (const v of await seriousViolations(page)) found.push(`${path}: ${v.impact} ${v.id} (${v.help}) at ${v.targets.join(', ')}`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        if (overflow > 0) found.push(`${path}: scrolls sideways by ${overflow} px`);
      };
      for (const path of ANONYMOUS) await check(path);
      await page.goto(`${journey.server.baseUrl}/login`);
      await page.fill('#email', 'user1@example.com');
      await page.fill('#password', '1234');
      await Promise.all([page.waitForURL(`${journey.server.baseUrl}/`), page.click('main button[type="submit"]')]);
      for (const path of LOGGED_IN) await check(path);
      // A form with its field errors shown.
      await page.goto(`${journey.server.baseUrl}/profile/password`);
      await Promise.all([page.waitForEvent('load'), page.click('main button[type="submit"]')]);
      for (const v of await seriousViolations(page)) found.push(`/profile/password with errors: ${v.impact} ${v.id} at ${v.targets.join(', ')}`);
      await context.close();
      assert.deepEqual(found, []);
    });
  }
});
