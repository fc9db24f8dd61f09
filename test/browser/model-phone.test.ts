// Issue 37, item 3: the model page of the largest corpus model (automotive2_4, analysed) on a phone
// (390 x 844) in Chromium. Links to the diagram and the configurator are on the first screen and
// bring their sections into view; the fact label's long lists are folded to their counts (and open
// on a tap); every decision control is at least 24 x 24 px (44 x 44 here); a focused ✓ of an
// excluded feature is an outline, a selected feature's ✓ is filled. axe-core at phone width; the
// desktop keeps its lists open. Screenshots at 1280 and 390 px go to docs/screenshots/.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { preparedPage, storeModel } from '../../src/modules/model/model.test-support.ts';
import { TestClient } from '../support/client.ts';
import { findCorpus } from '../../packages/uvl/src/corpus.support.ts';
import { projectPath } from '../../src/core/config.ts';
import { launchBrowser, watchPageErrors } from './support.ts';
import { seriousViolations } from './axe.ts';
import { LARGEST, largestModelSkip } from './largest-model.ts';

/** The first configurator step compiles the model in the worker, and the analysis of 18 616 features takes a while: waits, never measures. */
const SLOW_MS = 600_000;
const PHONE = { width: 390, height: 844 };

const row = (name: string) => `#cfg-tree li[data-feature="${name}"]`;
const stateOf = (page: Page, name: string) => page.locator(`${row(name)} > .cfg-row > .cfg-state`).textContent();
const answered = (page: Page) => page.waitForFunction(() => /configurations? remaining$/.test(document.getElementById('cfg-remaining')!.textContent ?? ''), undefined, { timeout: SLOW_MS });

/** A small PNG under docs/screenshots (the viewport or one element, not the whole 20 000 px page). */
async function shot(page: Page, name: string, selector?: string): Promise<void> {
  const path = projectPath('docs', 'screenshots', `${name}.png`);
  if (selector) await page.locator(selector).screenshot({ path });
  else await page.screenshot({ path });
  const size = statSync(path).size;
  assert.ok(size < 300 * 1024, `${name}.png is ${Math.round(size / 1024)} KB`);
}

/** Waits until the section's heading is at the top of the screen (where following its link scrolls it). */
const atTop = (page: Page, selector: string) => page.waitForFunction((s) => {
  const r = document.querySelector(s)!.getBoundingClientRect();
  return r.top >= -1 && r.top < 50;
}, selector);

describe('the model page of automotive2_4 on a phone (issue 37, item 3)', { skip: largestModelSkip }, () => {
  let server: TestServer;
  let browser: Browser;
  let fileId = 0;
  before(async () => {
    server = await startTestServer({ seed: true, env: { ANALYSIS_WORKERS: '1' } });
    browser = await launchBrowser();
    ({ fileId } = await storeModel(server, { content: findCorpus()!.read(LARGEST), name: 'automotive2_4.uvl' }));
    // Prepared once (the model module's model-page.jobs.ts): the page then loads whole, not its progress state.
    await preparedPage(new TestClient(server.baseUrl), `/model/${fileId}/`);
    const started = Date.now();
    for (;;) {
      const body = await (await fetch(`${server.baseUrl}/model/${fileId}/analysis.json`)).json() as { status?: string };
      if (body.status && body.status !== 'pending') break;
      if (Date.now() - started > SLOW_MS) throw new Error('the analysis did not finish');
      await new Promise((r) => setTimeout(r, 1000));
    }
    console.log(`# automotive2_4 analysed in ${Date.now() - started} ms`);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('reaches the diagram and the configurator from the first screen, the long lists folded to their counts', async () => {
    // Reduced motion: Bootstrap scrolls to an anchor smoothly otherwise, and the screenshot would catch it half-way.
    const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, reducedMotion: 'reduce' });
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.goto(`${server.baseUrl}/model/${fileId}/`);
    await page.waitForSelector('#diagram-frame.is-interactive');
    assert.equal(await page.getAttribute('#model-page', 'data-analysis-state'), 'finished');
    for (const target of ['#diagram', '#configurator']) {
      const box = (await page.locator(`#model-jump a[href="${target}"]`).boundingBox())!;
      assert.ok(box.y + box.height <= PHONE.height, `the link to ${target} is on the first screen (bottom at ${box.y + box.height} px)`);
      assert.ok(box.height >= 44, `the link to ${target} is ${box.height} px high`);
    }
    const lists = page.locator('#fact-label details.fact-list[data-fold]');
    console.log(`# phone: ${await lists.count()} long lists: ${await page.$$eval('#fact-label details.fact-list[data-fold] summary', (ss) => ss.map((x) => x.textContent!.trim()).join('; '))}`);
    assert.ok(await lists.count() >= 2, 'the long dead, false-optional or core lists are marked');
    assert.equal(await page.locator('#fact-label details.fact-list[data-fold][open]').count(), 0, 'every long list is folded');
    const tops = await page.evaluate(() => Object.fromEntries(['fact-label', 'diagram', 'configurator'].map((id) => [id, Math.round(document.getElementById(id)!.getBoundingClientRect().top + window.scrollY)])));
    console.log(`# phone: the diagram at ${tops.diagram} px, the configurator at ${tops.configurator} px`);
    assert.match(await page.locator('#fact-label details.fact-list summary').first().textContent() ?? '', /\d/, 'a folded list shows its count');
    await shot(page, 'model-page-390-top');

    // Following a link brings its section into view; the folded lists still open on a tap.
    await page.tap('#model-jump a[href="#diagram"]');
    await atTop(page, '#diagram');
    await shot(page, 'model-page-390-diagram');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.tap('#model-jump a[href="#configurator"]');
    await atTop(page, '#configurator');
    await page.evaluate(() => window.scrollTo(0, 0));
    const first = lists.first();
    await first.locator('summary').tap();
    assert.equal(await first.evaluate((d) => (d as HTMLDetailsElement).open), true, 'a folded list opens');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('draws every decision control at least 24 x 24 px (44 on a phone) and focus apart from selection', async () => {
    const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, bypassCSP: true, reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/model/${fileId}/`);
    await page.locator('#cfg-tree > li').waitFor({ timeout: SLOW_MS });
    await answered(page);

    // A feature still open, with children: deselecting it excludes them.
    const openParent = () => page.$$eval('#cfg-tree li[data-feature]', (lis) => lis.find((li) => li.querySelector(':scope > .cfg-row > [data-act="toggle"]')
      && li.querySelector(':scope > .cfg-row > .cfg-state')!.textContent === 'open')?.getAttribute('data-feature'));
    let parent = await openParent();
    // The first levels may all be mandatory (forced): open further down until one is optional.
    for (let level = 0; !parent && level < 6; level++) {
      await page.locator('#cfg-tree [data-act="toggle"][aria-expanded="false"]').first().click();
      parent = await openParent();
    }
    assert.ok(parent, 'an open feature with children');
    await page.click(`${row(parent)} > .cfg-row [data-act="deselect"]`);
    await answered(page);
    await page.click(`${row(parent)} > .cfg-row [data-act="toggle"]`);
    const child = (await page.getAttribute(`${row(parent)} > ul > li`, 'data-feature'))!;
    assert.equal(await stateOf(page, child), 'excluded');

    const boxes = await page.$$eval('#cfg-tree [data-act="select"], #cfg-tree [data-act="deselect"], #cfg-tree [data-act="clear"], #cfg-tree [data-act="toggle"]', (buttons) => buttons.map((b) => {
      const r = b.getBoundingClientRect();
      return { what: b.getAttribute('aria-label'), width: r.width, height: r.height };
    }));
    assert.ok(boxes.length > 20, `${boxes.length} controls`);
    const small = boxes.filter((b) => b.width < 44 || b.height < 44);
    assert.deepEqual(small, [], 'every control at least 44 x 44 px at phone width');

    // The search focuses the excluded feature's ✓ (by the keyboard: the focus is visible).
    await page.fill('#cfg-search', child);
    await page.press('#cfg-search', 'Enter');
    await page.waitForSelector(`${row(child)}.cfg-hit`);
    const focused = await page.evaluate(() => {
      const b = document.activeElement as HTMLElement;
      const s = getComputedStyle(b);
      return { act: b.dataset.act, feature: b.closest('li')!.dataset.feature, visible: b.matches(':focus-visible'), outline: s.outlineStyle, outlineWidth: parseFloat(s.outlineWidth), background: s.backgroundColor, pressed: b.getAttribute('aria-pressed') };
    });
    assert.equal(focused.act, 'select');
    assert.equal(focused.feature, child);
    assert.equal(focused.visible, true);
    assert.equal(focused.pressed, 'false');

    // A selected feature's ✓: filled, with no outline once the focus has moved on.
    const sibling = await page.$$eval(`#cfg-tree li[data-feature]`, (lis) => lis.find((li) => li.querySelector(':scope > .cfg-row > .cfg-state')!.textContent === 'open')?.getAttribute('data-feature'));
    assert.ok(sibling, 'an open feature to select');
    await page.click(`${row(sibling)} > .cfg-row [data-act="select"]`);
    await answered(page);
    assert.equal(await stateOf(page, sibling), 'selected');
    await page.focus('#cfg-search');
    await page.mouse.move(0, 0); // not hovered: Bootstrap fills a hovered button too
    const selected = await page.$eval(`${row(sibling)} > .cfg-row [data-act="select"]`, (b) => {
      const s = getComputedStyle(b);
      return { outline: s.outlineStyle, background: s.backgroundColor, pressed: b.getAttribute('aria-pressed') };
    });
    const transparent = 'rgba(0, 0, 0, 0)';
    assert.equal(selected.pressed, 'true');
    assert.notEqual(selected.background, transparent, 'selection is the fill');
    assert.equal(selected.outline, 'none');
    assert.equal(focused.background, transparent, 'focus does not fill the button');
    assert.notEqual(focused.outline, 'none', 'focus is an outline');
    assert.ok(focused.outlineWidth >= 2, `an outline of ${focused.outlineWidth} px`);
    await page.evaluate(() => document.getElementById('configurator')!.scrollIntoView());
    await shot(page, 'model-page-390-configurator');

    const found: string[] = [];
    for (const v of await seriousViolations(page)) found.push(`${v.impact} ${v.id} (${v.help}) at ${v.targets.join(', ')}`);
    assert.deepEqual(found, [], 'axe-core at 390 px, the lists folded and a decision taken');
    await context.close();
  });

  it('keeps the desktop as it was: lists open, no section links, controls at least 24 x 24 px', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/model/${fileId}/`);
    await page.waitForSelector('#diagram-frame.is-interactive');
    assert.equal(await page.locator('#model-jump').isVisible(), false);
    const lists = await page.$$eval('#fact-label details.fact-list', (ds) => ds.map((d) => (d as HTMLDetailsElement).open));
    assert.ok(lists.filter(Boolean).length >= 1, `the short lists stay open on the desktop (${lists})`);
    await shot(page, 'model-page-1280-top');
    await shot(page, 'model-page-1280-diagram', '#diagram');
    await page.locator('#cfg-tree > li').waitFor({ timeout: SLOW_MS });
    const boxes = await page.$$eval('#cfg-tree [data-act="select"], #cfg-tree [data-act="deselect"], #cfg-tree [data-act="clear"]', (buttons) => buttons.map((b) => b.getBoundingClientRect()).map((r) => [r.width, r.height]));
    assert.ok(boxes.length > 0 && boxes.every(([w, h]) => w! >= 24 && h! >= 24), `controls at least 24 x 24 px (${JSON.stringify(boxes.slice(0, 3))})`);
    await page.evaluate(() => document.getElementById('configurator')!.scrollIntoView());
    await shot(page, 'model-page-1280-configurator');
    await context.close();
  });
});
