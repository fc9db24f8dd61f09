// Browser journey of issue 24: configure a hand-made model by clicking (a decision that excludes a
// feature shows it excluded with its why; a conflicting click is refused with the conflict shown;
// undo; the URL restores the state), download a sample, axe-core on the configurator, screenshots
// at desktop and phone width.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { storeModel } from '../../src/modules/model/model.test-support.ts';
import { seriousViolations } from './axe.ts';
import { generatedModel } from '../../src/modules/configurator/configurator.test-support.ts';
import { browserSkipReason, screenshotPath, useBrowserServer, watchPageErrors } from './support.ts';

const skip = browserSkipReason();

const ENGINE_MODEL = 'features\n    Car\n        mandatory\n            Engine\n                alternative\n                    Diesel\n                    Petrol\n        optional\n            Turbo\n\nconstraints\n    Diesel => !Turbo\n';

const stateOf = (page: Page, name: string) => page.locator(`#cfg-tree li[data-feature="${name}"] > .cfg-row > .cfg-state`);
const button = (page: Page, name: string, act: string) => page.locator(`#cfg-tree li[data-feature="${name}"] > .cfg-row button[data-act="${act}"]`);

describe('the configurator in Chromium', { skip }, () => {
  const journey = useBrowserServer({ seed: true, env: { ANALYSIS_WORKERS: '0' } });

  it('configures by clicking: excluded with why, a conflict refused, undo, the state in the URL, a sample downloaded', async () => {
    const { server, browser } = journey;
    const { fileId } = await storeModel(server, { content: ENGINE_MODEL, name: 'engine.uvl' });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true, reducedMotion: 'reduce', acceptDownloads: true });
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    // The probabilities are held until a "why?" is open, as a loaded hub may send them late: they
    // must not close it when they come.
    let releaseProbabilities!: () => void;
    const probabilitiesHeld = new Promise<void>((resolve) => { releaseProbabilities = resolve; });
    await page.route(/\/probabilities\.json/, async (route) => { await probabilitiesHeld; await route.continue(); });
    await page.goto(`${server.baseUrl}/model/${fileId}/`);
    await page.locator('#cfg-remaining', { hasText: '3 configurations remaining' }).waitFor();

    await button(page, 'Diesel', 'select').click();
    await page.locator('#cfg-remaining', { hasText: '1 configuration remaining' }).waitFor();
    assert.equal(await stateOf(page, 'Diesel').textContent(), 'selected');
    assert.equal(await stateOf(page, 'Turbo').textContent(), 'excluded');
    assert.equal(await stateOf(page, 'Petrol').textContent(), 'excluded');
    assert.match(page.url(), /[?&]select=Diesel/);
    await button(page, 'Turbo', 'why').click();
    const why = page.locator('#cfg-tree li[data-feature="Turbo"] > .cfg-why');
    await why.locator('li').first().waitFor();
    assert.match(await why.textContent() ?? '', /Turbo is excluded because of:.*selected Diesel/s);
    // The constraint line behind it links to its source line.
    assert.equal(await why.locator('a[href="#L12"]').textContent(), 'Line 12');
    releaseProbabilities();
    await page.locator('#cfg-tree li[data-feature="Diesel"] > .cfg-row > .cfg-prob', { hasText: '%' }).waitFor();
    await page.unroute(/\/probabilities\.json/);
    assert.equal(await why.isVisible(), true, 'the probabilities came after the why and left it open');
    assert.match(await why.textContent() ?? '', /Turbo is excluded because of:.*selected Diesel/s);

    // Selecting the excluded Turbo is refused: the conflict is shown and nothing changes.
    await button(page, 'Turbo', 'select').click();
    await page.locator('#cfg-conflict:not([hidden])').waitFor();
    assert.match(await page.locator('#cfg-conflict').textContent() ?? '', /selected Diesel.*selected Turbo/s);
    assert.equal(await stateOf(page, 'Turbo').textContent(), 'excluded');

    await page.locator('#cfg-undo').click();
    await page.locator('#cfg-remaining', { hasText: '3 configurations remaining' }).waitFor();
    assert.equal(await stateOf(page, 'Diesel').textContent(), 'open');
    assert.doesNotMatch(page.url(), /select=/);

    // The URL restores a state.
    await page.goto(`${server.baseUrl}/model/${fileId}/?deselect=Turbo`);
    await page.locator('#cfg-remaining', { hasText: '2 configurations remaining' }).waitFor();
    assert.equal(await stateOf(page, 'Turbo').textContent(), 'deselected');
    // Probabilities from the commonality.
    await page.locator('#cfg-tree li[data-feature="Diesel"] > .cfg-row > .cfg-prob', { hasText: '33.3%' }).waitFor();
    // The fact label's histogram, drawn by the server from the stored commonality.
    await page.locator('#commonality-plot-img[src$="ready=1"]').waitFor();
    const svg = await (await fetch(`${server.baseUrl}/configurator/${fileId}/commonality.svg`)).text();
    assert.match(svg, /, 1: 2<\/desc>/, 'Car and Engine are core');

    const violations = await seriousViolations(page);
    assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
    await page.locator('#configurator').screenshot({ path: screenshotPath('configurator-desktop') });

    await page.fill('#sample-n', '5');
    await page.fill('#sample-seed', '9');
    await page.click('#sample-go');
    await page.locator('#sample-result:not([hidden])').waitFor();
    // The citation (issue 37, item 6): authors and year, then file, kind, parameters, seed and engine version, in three forms.
    assert.match(await page.inputValue('#sample-cite'), /^Anonymous \(\d{4}\)\. Model fixture 1\. https:\/\/doi\.org\/10\.9999\/model\.1\. File engine\.uvl, uniform sample, parameters n=5, seed 9, UVL Hub engine version \d/);
    assert.match(await page.inputValue('#sample-bibtex'), /author = \{.+\}[\s\S]*year = \{\d{4}\}[\s\S]*parameters n=5; seed 9; engine version \d/);
    const csl = JSON.parse(await page.inputValue('#sample-csl'));
    assert.equal(csl[0].type, 'dataset');
    // The fixture's dataset has no authors (the HTTP test checks them): its DOI and year are there.
    assert.equal(csl[0].DOI, '10.9999/model.1');
    assert.ok(csl[0].issued['date-parts'][0][0] > 2000, JSON.stringify(csl));
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#sample-csv')]);
    const csv = await (await import('node:fs/promises')).readFile((await download.path())!, 'utf8');
    assert.equal(csv.split('\n')[0], 'Car,Diesel,Engine,Petrol,Turbo');
    assert.equal(csv.trim().split('\n').length, 6);

    await page.setViewportSize({ width: 390, height: 844 });
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scroll <= 390, `no horizontal scroll at phone width (${scroll})`);
    await page.locator('#configurator').screenshot({ path: screenshotPath('configurator-phone') });
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('keeps a feature whose name holds a comma in the URL and draws at random under it', async () => {
    const { server, browser } = journey;
    const roof = 'features\n    Car\n        optional\n            Sun\n            Roof\n            "Sun, Roof"\nconstraints\n    !(Sun & Roof)\n';
    const { fileId } = await storeModel(server, { content: roof, name: 'roof.uvl' });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true, reducedMotion: 'reduce' });
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.goto(`${server.baseUrl}/model/${fileId}/`);
    await page.locator('#cfg-remaining', { hasText: '6 configurations remaining' }).waitFor();
    await button(page, 'Sun, Roof', 'select').click();
    await page.locator('#cfg-remaining', { hasText: '3 configurations remaining' }).waitFor();
    assert.deepEqual(new URL(page.url()).searchParams.getAll('select'), ['"Sun, Roof"']);
    // The shared link restores the one feature, not two named Sun and Roof (which would conflict).
    await page.goto(page.url());
    await page.locator('#cfg-remaining', { hasText: '3 configurations remaining' }).waitFor();
    assert.equal(await stateOf(page, 'Sun, Roof').textContent(), 'selected');
    assert.equal(await stateOf(page, 'Sun').textContent(), 'open');
    await page.locator('#cfg-random').click();
    await page.locator('#cfg-remaining', { hasText: '1 configuration remaining' }).waitFor();
    assert.equal(await stateOf(page, 'Sun, Roof').textContent(), 'selected');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('ignores the decision controls while a step is pending, and says "not counted" or "counting" instead of a number', async () => {
    const { server, browser } = journey;
    const { fileId } = await storeModel(server, { content: ENGINE_MODEL, name: 'pending.uvl' });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true, reducedMotion: 'reduce' });
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    // The probabilities are held until a "why?" is open, as a loaded hub may send them late: they
    // must not close it when they come.
    let releaseProbabilities!: () => void;
    const probabilitiesHeld = new Promise<void>((resolve) => { releaseProbabilities = resolve; });
    await page.route(/\/probabilities\.json/, async (route) => { await probabilitiesHeld; await route.continue(); });
    await page.goto(`${server.baseUrl}/model/${fileId}/`);
    await page.locator('#cfg-remaining', { hasText: '3 configurations remaining' }).waitFor();
    // The next step is held until the test lets it go, then answered as for a model that did not compile.
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    await page.route('**/configure', async (route) => {
      await held;
      const response = await route.fetch();
      const answer = await response.json();
      await route.fulfill({ response, json: { ...answer, remaining: null, remaining_status: 'not counted' } });
    });
    const steps: string[] = [];
    page.on('request', (request) => { if (request.url().endsWith('/configure')) steps.push(request.postData() ?? ''); });
    await button(page, 'Diesel', 'select').click();
    await page.locator('#configurator[aria-busy="true"]').waitFor();
    for (const control of [page.locator('#cfg-reset'), page.locator('#cfg-random'), page.locator('#cfg-undo')]) {
      assert.equal(await control.isDisabled(), true);
    }
    // The tree's own buttons are not disabled one by one (9 600 of them on linux-2.6.33.3 froze the
    // tab twice a step): a click on them while the step is under way is ignored instead.
    assert.equal(await page.locator('#cfg-tree button:disabled').count(), 0, 'no tree button is disabled');
    await button(page, 'Petrol', 'select').click();
    await button(page, 'Turbo', 'deselect').click();
    assert.equal(steps.length, 1, 'the clicks made while the step was under way asked nothing');
    release();
    await page.locator('#cfg-remaining', { hasText: 'not counted' }).waitFor();
    assert.equal(await stateOf(page, 'Turbo').textContent(), 'excluded');
    assert.equal(await button(page, 'Petrol', 'select').isDisabled(), false);
    assert.equal(await page.locator('#cfg-undo').isDisabled(), false);
    await page.unroute('**/configure');
    await page.route('**/configure', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, json: { ...(await response.json()), remaining: null, remaining_status: 'counting' } });
    });
    await page.locator('#cfg-reset').click();
    await page.locator('#cfg-remaining', { hasText: 'being counted' }).waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('shows a pairwise sample\'s progress and cancels it (issue 37, item 6)', async () => {
    const { server, browser } = journey;
    const { fileId } = await storeModel(server, { content: generatedModel(300, false), name: 'generated.uvl' });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true, reducedMotion: 'reduce' });
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.goto(`${server.baseUrl}/model/${fileId}/`);
    const computed = () => server.hub.ctx.services.configurator.computedHere();
    const before = computed();
    await page.selectOption('#sample-kind', 'twise');
    await page.fill('#sample-seed', '5');
    await page.click('#sample-go');
    await page.locator('#sample-status', { hasText: /interactions covered/ }).waitFor();
    assert.match(await page.textContent('#sample-status') ?? '', /A worker is computing the sample: [\d,]+ of [\d,]+ interactions covered \(\d+%\), \d+ s/);
    await page.click('#sample-cancel');
    await page.locator('#sample-status', { hasText: 'Cancelled.' }).waitFor();
    assert.equal(await page.isHidden('#sample-cancel'), true);
    assert.equal(await page.isHidden('#sample-result'), true);
    // The worker stops on the cancel flag (the test's time-out fails it if it never does) and gives
    // the claim back: the next request starts the sample afresh. Counted from the cancel on: the page
    // computes other results (its probabilities) beside the sample.
    const stoppedEarly = () => server.hub.ctx.services.configurator.stoppedEarlyHere();
    while (stoppedEarly() < 1) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(computed() > before);
    const afterCancel = computed();
    const url = `${server.baseUrl}/api/v1/files/${fileId}/samples?kind=twise&t=2&seed=5`;
    while (computed() < afterCancel + 1) {
      assert.equal((await fetch(url)).status, 202);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(stoppedEarly(), 1, 'the worker stopped on the cancel flag, once');
    assert.deepEqual(errors, []);
    await context.close();
  });
});
