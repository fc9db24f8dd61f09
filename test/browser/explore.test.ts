// Browser journey of issue 5 on the explore page: open it with ?query=, see results, change
// the publication type and the sorting, load more, clear the filters, meet the empty state.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { seedSynthetic } from '../../src/modules/explore/explore.synthetic.ts';
import { PUBLICATION_TYPES } from '../../src/core/publication-types.ts';
import { browserSkipReason, launchBrowser, screenshotPath } from './support.ts';

const skip = browserSkipReason();
const SYNTHETIC = 30;

/** Waits until the search started by the last action has answered and been drawn. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const spinner = document.querySelector('#results-spinner');
    const status = document.querySelector('#results-status')?.textContent ?? '';
    return spinner?.classList.contains('d-none') && !status.startsWith('Searching');
  });
}

const titles = (page: Page) => page.$$eval('.search-result h2 a', (links) => links.map((a) => a.textContent ?? ''));

describe('explore page in Chromium', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  const api = async (body: Record<string, unknown>) => {
    const res = await fetch(`${server.baseUrl}/explore`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return (await res.json()) as { title: string; url: string; publication_type: string }[];
  };

  before(async () => {
    server = await startTestServer({ seed: true });
    await seedSynthetic(server.hub.ctx, SYNTHETIC);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('searches from ?query=, filters, sorts, loads more and clears the filters', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('response', (r) => { if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`); });

    await page.goto(`${server.baseUrl}/explore?query=synthetic`);
    await settled(page);
    assert.equal(await page.inputValue('#query'), 'synthetic');
    const all = await api({ query: 'synthetic' });
    assert.equal(all.length, SYNTHETIC);
    assert.deepEqual(await titles(page), all.slice(0, 20).map((r) => r.title), 'the first 20, newest first');
    assert.ok(await page.isVisible('#load-more'));
    const firstLink = await page.getAttribute('.search-result h2 a', 'href');
    assert.equal(firstLink, all[0]!.url);
    assert.match(firstLink ?? '', /\/doi\/10\.5555\/synthetic\.\d+$/);
    await page.screenshot({ path: screenshotPath('explore-results'), fullPage: true });

    await page.click('#load-more');
    await settled(page);
    assert.deepEqual(await titles(page), all.map((r) => r.title), 'load more appends the rest');
    assert.ok(!(await page.isVisible('#load-more')), 'nothing more to load');
    assert.match(await page.textContent('#results-status') ?? '', new RegExp(`${SYNTHETIC} datasets found`));

    // The most frequent publication type among the results (the catalogue mixes them).
    const counts = new Map<string, number>();
    for (const r of all) counts.set(r.publication_type, (counts.get(r.publication_type) ?? 0) + 1);
    const [label] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
    const type = PUBLICATION_TYPES.find(([, l]) => l === label)![0];
    const articles = await api({ query: 'synthetic', publication_type: type });
    assert.ok(articles.length > 1 && articles.length < SYNTHETIC, 'the synthetic catalogue mixes publication types');
    assert.ok(articles.every((r) => r.publication_type === label));
    await page.selectOption('#publication_type', type);
    await settled(page);
    assert.deepEqual(await titles(page), articles.slice(0, 20).map((r) => r.title));

    await page.check('#sorting-oldest');
    await settled(page);
    const oldest = await api({ query: 'synthetic', publication_type: type, sorting: 'oldest' });
    assert.deepEqual(await titles(page), oldest.slice(0, 20).map((r) => r.title));
    assert.notDeepEqual(oldest.map((r) => r.title), articles.map((r) => r.title));

    await page.click('#clear-filters');
    await settled(page);
    assert.equal(await page.inputValue('#query'), '');
    assert.equal(await page.inputValue('#publication_type'), 'any');
    assert.ok(await page.isChecked('#sorting-newest'));
    const everything = await api({});
    assert.equal(everything.length, SYNTHETIC + 4, 'the synthetic and the four seeded datasets');
    assert.deepEqual(await titles(page), everything.slice(0, 20).map((r) => r.title));
    assert.ok(await page.isVisible('#load-more'));
    assert.ok(!page.url().includes('query='), 'the address no longer carries the cleared query');

    await page.fill('#query', 'nothing matches this zzqx');
    await page.press('#query', 'Enter');
    await settled(page);
    assert.ok(await page.isVisible('#results-empty'), 'a clear empty state');
    assert.equal((await titles(page)).length, 0);
    assert.ok(!(await page.isVisible('#load-more')));
    assert.match(page.url(), /query=nothing\+matches\+this\+zzqx/);
    await page.screenshot({ path: screenshotPath('explore-empty'), fullPage: true });

    // Rapid changes abort the searches in flight: only the last one is drawn, none is an error.
    await page.fill('#query', 'sample');
    for (const type of ['book', 'article', 'none', 'any']) await page.selectOption('#publication_type', type);
    await settled(page);
    const samples = await api({ query: 'sample' });
    assert.ok(samples.length > 0);
    assert.deepEqual(await titles(page), samples.slice(0, 20).map((r) => r.title));
    assert.ok(!(await page.isVisible('#results-error')));

    await page.setViewportSize({ width: 375, height: 740 });
    await page.screenshot({ path: screenshotPath('explore-phone'), fullPage: true });
    assert.deepEqual(errors, [], 'no script errors, failed requests or CSP violations');
  });
});
