// Browser journey of issue 24, item 5: the model page of the largest corpus model (automotive2_4,
// 18 616 features, 22 307 source lines) in Chromium. The diagram opens fitted to its frame,
// zooms (buttons, wheel, keyboard, pinch) and pans (mouse and finger drag, keys), expands and collapses a feature in
// place (no reload), and finds a feature by name; an anchor deep in the source (#L12000) shows
// its line; axe-core finds no serious or critical violation; desktop and phone screenshots.
// The load time is printed, not asserted.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { screenshotPath, watchPageErrors } from './support.ts';
import { seriousViolations } from './axe.ts';
import { DEEP_FEATURE, largestModelSkip, useLargestModel } from './largest-model.ts';

/** The diagram's viewBox as numbers [x, y, width, height]. */
const viewBox = (page: Page) => page.$eval('#diagram-frame svg', (s) => (s.getAttribute('viewBox') ?? '').split(' ').map(Number));

describe('the model page of automotive2_4 in Chromium', { skip: largestModelSkip }, () => {
  const journey = useLargestModel();

  it('opens fitted, zooms, pans, expands in place and finds a feature by name', async () => {
    const { server, browser, fileId } = journey;
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchPageErrors(page);
    const url = `${server.baseUrl}/model/${fileId}/`;
    await page.goto(url); // warms the server's parse and highlight cache: the second load is the one measured
    const started = Date.now();
    await page.goto(url, { waitUntil: 'load' });
    const loadMs = Date.now() - started;
    const nav = await page.evaluate(() => {
      const n = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      return { ttfb: Math.round(n.responseStart), dcl: Math.round(n.domContentLoadedEventEnd), load: Math.round(n.loadEventEnd), bytes: n.transferSize, elements: document.getElementsByTagName('*').length };
    });
    console.log(`# automotive2_4 model page in Chromium (desktop): load ${loadMs} ms (TTFB ${nav.ttfb} ms, DOMContentLoaded ${nav.dcl} ms, load event ${nav.load} ms), ${nav.elements} elements, ${Math.round(nav.bytes / 1024)} KB transferred`);

    // Fitted: the whole drawing inside the frame, not cropped.
    await page.waitForSelector('#diagram-frame.is-interactive');
    const fitted = await page.evaluate(() => {
      const frame = document.getElementById('diagram-frame')!.getBoundingClientRect();
      const drawing = document.querySelector('#diagram-frame svg g.features')!.getBoundingClientRect();
      return { frame: [frame.left, frame.top, frame.right, frame.bottom], drawing: [drawing.left, drawing.top, drawing.right, drawing.bottom] };
    });
    assert.ok(fitted.drawing[0]! >= fitted.frame[0]! - 1 && fitted.drawing[1]! >= fitted.frame[1]! - 1
      && fitted.drawing[2]! <= fitted.frame[2]! + 1 && fitted.drawing[3]! <= fitted.frame[3]! + 1, `drawing ${fitted.drawing} inside frame ${fitted.frame}`);
    const fit = await viewBox(page);

    // Zoom: the button, the wheel and the keyboard each show a smaller part of the drawing.
    await page.click('[data-diagram-action="zoom-in"]');
    const zoomed = await viewBox(page);
    assert.ok(zoomed[2]! < fit[2]!, 'zoom in by the button');
    const frameBox = (await page.locator('#diagram-frame').boundingBox())!;
    await page.mouse.move(frameBox.x + frameBox.width / 2, frameBox.y + frameBox.height / 2);
    await page.mouse.wheel(0, -300);
    await page.waitForFunction((w) => Number(document.querySelector('#diagram-frame svg')!.getAttribute('viewBox')!.split(' ')[2]) < w, zoomed[2]!);
    await page.focus('#diagram-frame');
    const beforeKey = await viewBox(page);
    await page.keyboard.press('-');
    const zoomedOut = await viewBox(page);
    assert.ok(zoomedOut[2]! > beforeKey[2]!, 'zoom out by the keyboard');
    await page.keyboard.press('ArrowRight');
    assert.ok((await viewBox(page))[0]! > zoomedOut[0]!, 'the arrow key moves the view right');
    const beforeDrag = await viewBox(page);
    await page.mouse.move(frameBox.x + 200, frameBox.y + 200);
    await page.mouse.down();
    await page.mouse.move(frameBox.x + 300, frameBox.y + 260, { steps: 5 });
    await page.mouse.up();
    const dragged = await viewBox(page);
    assert.ok(dragged[0]! < beforeDrag[0]! && dragged[1]! < beforeDrag[1]!, 'dragging right and down moves the view left and up');
    await page.keyboard.press('0');
    assert.deepEqual(await viewBox(page), fit, 'the key 0 fits again');

    // Expand in place: the page is not reloaded, the feature shows its children, then hides them.
    await page.evaluate(() => { (window as unknown as { stayed: boolean }).stayed = true; });
    const name = await page.$eval('#diagram-frame g.feature.collapsed', (g) => (g as SVGElement).dataset.feature!);
    const count = () => page.locator('#diagram-frame g.feature').count();
    const shownBefore = await count();
    await page.locator('#diagram-frame g.feature.collapsed a').first().click();
    const box = `#diagram-frame g.feature[data-feature="${name}"]`;
    await page.waitForSelector(`${box}[data-open]`);
    assert.ok(await count() > shownBefore, 'its children are drawn');
    await page.screenshot({ path: screenshotPath('model-large-expanded') });
    await page.locator(`${box} a`).click();
    await page.waitForSelector(`${box}.collapsed`);
    assert.equal(await count(), shownBefore, 'collapsed again');
    assert.equal(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed), true, 'expanded in place, not reloaded');
    assert.match(new URL(page.url()).search, /close=|open=|depth=/, 'the view is in the address');

    // Search by name: a feature ten levels down is opened, centred and marked.
    await page.fill('#diagram-search-input', DEEP_FEATURE.slice(-12).toLowerCase());
    await page.waitForSelector(`#diagram-search-results button[data-name="${DEEP_FEATURE}"]`);
    await page.click(`#diagram-search-results button[data-name="${DEEP_FEATURE}"]`);
    const found = `#diagram-frame g.feature.is-found[data-feature="${DEEP_FEATURE}"]`;
    await page.waitForSelector(found);
    const foundBox = (await page.locator(`${found} rect`).boundingBox())!;
    const frameNow = (await page.locator('#diagram-frame').boundingBox())!;
    assert.ok(foundBox.x >= frameNow.x && foundBox.x < frameNow.x + frameNow.width && foundBox.y >= frameNow.y && foundBox.y < frameNow.y + frameNow.height, 'the found feature is in view');
    assert.match(await page.textContent('#diagram-status') ?? '', new RegExp(`Found ${DEEP_FEATURE}`));
    await page.screenshot({ path: screenshotPath('model-large-desktop') });
    assert.deepEqual(errors, [], 'no script errors, CSP violations or failed requests');
    await page.close();
  });

  it('shows line 12 000 when the address names it (#L12000), loading its lines on demand', async () => {
    const { server, browser, fileId } = journey;
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchPageErrors(page);
    await page.goto(`${server.baseUrl}/model/${fileId}/#L12000`);
    await page.waitForSelector('#L12000.is-target');
    assert.match(await page.textContent('#L12000') ?? '', new RegExp(DEEP_FEATURE));
    // In view once the layout settles (fonts, the diagram's frame): the browser's own scroll to a fragment may come last.
    await page.waitForFunction(() => {
      const r = document.getElementById('L12000')!.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight;
    }, undefined, { timeout: 10_000 });
    // A link to another far line, as an explanation would be, follows without a reload.
    await page.evaluate(() => { window.location.hash = '#L20000'; });
    await page.waitForSelector('#L20000.is-target');
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('works at phone width: no sideways scrolling, the diagram fitted', async () => {
    const { server, browser, fileId } = journey;
    const context = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    // The drawing folded for the phone's frame is held until after the pinch, as a loaded hub
    // would send it late: it must not undo the person's zoom when it comes.
    let releaseFolded!: () => void;
    const foldedHeld = new Promise<void>((resolve) => { releaseFolded = resolve; });
    await page.route(/\/diagram\.svg\?.*fit=/, async (route) => { await foldedHeld; await route.continue(); });
    const started = Date.now();
    await page.goto(`${server.baseUrl}/model/${fileId}/`, { waitUntil: 'load' });
    console.log(`# automotive2_4 model page in Chromium (phone width): load ${Date.now() - started} ms`);
    await page.waitForSelector('#diagram-frame.is-interactive[aria-busy="true"]');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `no horizontal page scrolling (overflow ${overflow}px)`);
    // Touch: two fingers spreading apart zoom in; one finger dragging moves the view.
    await page.locator('#diagram-frame').scrollIntoViewIfNeeded();
    const box = (await page.locator('#diagram-frame').boundingBox())!;
    const cx = Math.round(box.x + box.width / 2);
    const cy = Math.round(box.y + box.height / 2);
    const cdp = await context.newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', points: [number, number][]) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map(([x, y], id) => ({ x, y, id })) });
    const beforePinch = await viewBox(page);
    await touch('touchStart', [[cx - 20, cy], [cx + 20, cy]]);
    for (let d = 30; d <= 100; d += 10) await touch('touchMove', [[cx - d, cy], [cx + d, cy]]);
    await touch('touchEnd', []);
    const pinched = await viewBox(page);
    assert.ok(pinched[2]! < beforePinch[2]! * 0.6, `pinching zooms in (${beforePinch[2]} -> ${pinched[2]})`);
    releaseFolded();
    await page.waitForSelector('#diagram-frame:not([aria-busy])');
    await page.unroute(/\/diagram\.svg\?.*fit=/);
    assert.deepEqual((await viewBox(page)).slice(2), pinched.slice(2), 'the folded drawing came after the pinch and kept its zoom');
    await touch('touchStart', [[cx, cy]]);
    for (let d = 10; d <= 60; d += 10) await touch('touchMove', [[cx + d, cy + d]]);
    await touch('touchEnd', []);
    const swiped = await viewBox(page);
    assert.ok(swiped[0]! < pinched[0]! && swiped[1]! < pinched[1]!, 'a one-finger drag moves the view');
    await page.tap('[data-diagram-action="fit"]');
    await page.screenshot({ path: screenshotPath('model-large-phone'), fullPage: true });
    await context.close();
    // The page's own data requests share this visitor's 4 heavy jobs with the earlier tests' pages,
    // whose background work (compile, commonality) may still run on a loaded machine: a 429 then is
    // the hub's fair limit (extensions section 10), and the page asks again after Retry-After
    // (a configure step too: configurator.js).
    assert.deepEqual(errors.filter((e) => !/\b429\b.*\/(configurator\/|api\/v1\/files\/\d+\/configure)|status of 429/.test(e)), []);
  });

  it('has no serious or critical accessibility violation (axe-core), at desktop and phone width', async () => {
    const { server, browser, fileId } = journey;
    const found: string[] = [];
    for (const viewport of [{ width: 1280, height: 900 }, { width: 375, height: 740 }]) {
      const context = await browser.newContext({ viewport, bypassCSP: true, reducedMotion: 'reduce' });
      const page = await context.newPage();
      await page.goto(`${server.baseUrl}/model/${fileId}/`);
      await page.waitForSelector('#diagram-frame.is-interactive');
      await page.fill('#diagram-search-input', 'F_F12');
      await page.waitForSelector('#diagram-search-results button');
      for (const v of await seriousViolations(page)) found.push(`${viewport.width}px: ${v.impact} ${v.id} (${v.help}) at ${v.targets.join(', ')}`);
      await context.close();
    }
    assert.deepEqual(found, []);
  });
});
