// Statistics, the cart and a review link in Chromium (extensions section 8), at desktop and phone width: axe-core
// finds no serious or critical violation, nothing scrolls sideways, the cart fills from the DOI
// page's buttons and downloads its zip. Screenshots go to test-output/screenshots/.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { browserSkipReason, screenshotPath, useBrowserServer } from './support.ts';
import { seriousViolations } from './axe.ts';

const skip = browserSkipReason();

describe('statistics, cart and review links in Chromium', { skip }, () => {
  const journey = useBrowserServer({ seed: true });

  const check = async (page: Page) => {
    assert.deepEqual(await seriousViolations(page), [], `axe on ${page.url()}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `${page.url()} scrolls sideways by ${overflow} px`);
  };

  for (const [label, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 375, height: 740 }]] as const) {
    it(`shows the statistics with their plots (${label})`, async () => {
      await journey.server.hub.ctx.services.analysis.drain();
      const context = await journey.browser.newContext({ viewport, bypassCSP: true, reducedMotion: 'reduce' });
      const page = await context.newPage();
      await page.goto(`${journey.server.baseUrl}/statistics`);
      assert.ok(await page.isVisible('#plot-features svg'));
      const plotWidth = await page.evaluate(() => document.querySelector('#plot-features svg')!.getBoundingClientRect().width);
      assert.ok(plotWidth > 200 && plotWidth <= viewport.width, `the plot fits the width (${plotWidth} px)`);
      await check(page);
      await page.screenshot({ path: screenshotPath(`statistics-${label}`), fullPage: true });
      await context.close();
    });

    it(`fills the cart from a DOI page and downloads it (${label})`, async () => {
      const context = await journey.browser.newContext({ viewport, bypassCSP: true, reducedMotion: 'reduce', acceptDownloads: true });
      const page = await context.newPage();
      for (const doi of ['10.1234/dataset1', '10.1234/dataset2']) {
        await page.goto(`${journey.server.baseUrl}/doi/${doi}/`);
        // The form returns to the address already shown: the wait is for the new page's load.
        await Promise.all([page.waitForEvent('load'), page.locator('.js-cart-add').first().click()]);
        await page.waitForURL(`${journey.server.baseUrl}/doi/${doi}/`);
        assert.match(await page.textContent('body') ?? '', /is in your cart/);
      }
      await page.goto(`${journey.server.baseUrl}/cart`);
      assert.equal(await page.locator('.cart-file').count(), 2);
      await page.check('#format-dimacs');
      await check(page);
      await page.screenshot({ path: screenshotPath(`cart-${label}`), fullPage: true });
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#cart-download')]);
      assert.equal(download.suggestedFilename(), 'cart.zip');
      assert.match(download.url(), /\/cart\/download\?format=uvl&format=dimacs$/);
      await context.close();
    });

    it(`shows a dataset through a review link without its authors (${label})`, async () => {
      const ctx = journey.server.hub.ctx;
      const owner = (await ctx.services.auth.getUserByEmail('user1@example.com'))!;
      const resolved = await ctx.services.dataset.resolveDoi('10.1234/dataset1');
      assert.equal(resolved.kind, 'dataset');
      const datasetId = resolved.kind === 'dataset' ? resolved.dataset.id : 0;
      const token = await ctx.services.review.create(datasetId, owner.id, new Date(Date.now() + 86_400_000).toISOString().slice(0, 10));
      const context = await journey.browser.newContext({ viewport, bypassCSP: true, reducedMotion: 'reduce' });
      const page = await context.newPage();
      await page.goto(`${journey.server.baseUrl}/review/${token}/`);
      assert.match(await page.textContent('h1') ?? '', /Sample dataset 1/);
      assert.doesNotMatch(await page.textContent('body') ?? '', /Doe/);
      await check(page);
      await page.screenshot({ path: screenshotPath(`review-link-${label}`), fullPage: true });
      await context.close();
    });
  }
});
