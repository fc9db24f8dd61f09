// Browser journey of issue 9 on the explore page: the model filter panel, prefilled from a
// shared address, narrowing results by model characteristics, keeping the filters in the
// address, showing a refused value's message, and usable at phone width (screenshots).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { TestClient } from '../support/client.ts';
import { BIG_UVL, DEAD_UVL, FREE_UVL, VOID_UVL, fetchJson, uploadDataset, waitForAnalyses } from '../../src/modules/analysis/analysis.test-support.ts';
import { browserSkipReason, launchBrowser, screenshotPath } from './support.ts';

const skip = browserSkipReason();

async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const spinner = document.querySelector('#results-spinner');
    const status = document.querySelector('#results-status')?.textContent ?? '';
    return spinner?.classList.contains('d-none') && !status.startsWith('Searching');
  });
}

const titles = (page: Page) => page.$$eval('.search-result h2 a', (links) => links.map((a) => a.textContent ?? '').sort());

describe('explore model filters in Chromium', { skip }, () => {
  let server: TestServer;
  let browser: Browser;

  before(async () => {
    server = await startTestServer({ seed: true });
    const client = new TestClient(server.baseUrl);
    await client.login('user1@example.com', '1234');
    await client.get('/dataset/upload');
    const ids = [
      (await uploadDataset(client, 'Kestrel collection', [['dead.uvl', DEAD_UVL], ['void.uvl', VOID_UVL], ['free.uvl', FREE_UVL]])).dataset_id,
      (await uploadDataset(client, 'Heron collection', [['printer.uvl', FREE_UVL]])).dataset_id,
      (await uploadDataset(client, 'Kestrel typed lines', [['big.uvl', BIG_UVL]])).dataset_id,
    ];
    const files: number[] = [];
    for (const id of ids) files.push(...(await fetchJson(`${server.baseUrl}/api/v1/datasets/${id}`)).json.files.map((f: { file_id: number }) => f.file_id));
    await waitForAnalyses(server, files);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('filters by model characteristics, keeps them in the address and explains a refused value', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    // A shared address opens the panel with its filters and searches at once.
    await page.goto(`${server.baseUrl}/explore?query=analysistest&features_min=100`);
    await settled(page);
    assert.equal(await page.$eval('#model-filters', (d) => (d as HTMLDetailsElement).open), true);
    assert.equal(await page.inputValue('#m-features-min'), '100');
    assert.deepEqual(await titles(page), ['Kestrel typed lines']);
    assert.match(await page.textContent('.search-result-models') ?? '', /big\.uvl · 102 features · 2 constraints/);

    await page.fill('#m-features-min', '');
    await page.selectOption('#m-satisfiable', 'false');
    await settled(page);
    assert.deepEqual(await titles(page), ['Kestrel collection']);
    assert.match(await page.textContent('.search-result-models') ?? '', /void\.uvl · 3 features · 2 constraints · 0 configurations · void/);
    assert.match(page.url(), /satisfiable=false/);
    assert.doesNotMatch(page.url(), /features_min/);

    await page.selectOption('#m-satisfiable', '');
    await page.fill('#m-feature', 'STAPLER');
    // Typing searches after a pause: the address changes when that search starts.
    await page.waitForURL(/feature=STAPLER/);
    await settled(page);
    assert.deepEqual(await titles(page), ['Heron collection', 'Kestrel collection']);
    await page.screenshot({ path: screenshotPath('explore-model-filters-desktop'), fullPage: true });

    await page.fill('#m-depth-min', '5');
    await page.fill('#m-depth-max', '2');
    await page.waitForURL(/depth_max=2/);
    await settled(page);
    assert.equal(await page.isVisible('#results-error'), true);
    assert.match(await page.textContent('#results-error') ?? '', /the min is above the max/);

    await page.click('#clear-filters');
    await settled(page);
    assert.equal(await page.inputValue('#m-feature'), '');
    assert.doesNotMatch(page.url(), /feature=|depth_/);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('is usable at phone width', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await page.goto(`${server.baseUrl}/explore?query=analysistest&has_dead=true`);
    await settled(page);
    assert.deepEqual(await titles(page), ['Kestrel collection']);
    assert.equal(await page.isVisible('#m-has_dead'), true);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no sideways scrolling (${overflow} px too wide)`);
    await page.screenshot({ path: screenshotPath('explore-model-filters-phone'), fullPage: true });
    await page.close();
  });
});
