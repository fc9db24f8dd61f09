// Browser journey of issue 9 (the front half): from the DOI page to a model page with a planted
// dead feature; the fact label fills in when the analysis finishes (the page's own script, no
// reload), the diagram marks the dead feature, an explanation links to its source line, and the
// page is usable at phone width. Screenshots for desktop and phone.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { storeModel } from '../../src/modules/model/model.test-support.ts';
import { browserSkipReason, launchBrowser, screenshotPath, watchPageErrors } from './support.ts';

const skip = browserSkipReason();

// Tab-indented, as many corpus files are, with a long constraint: neither may widen the page.
const JOURNEY_MODEL = [
  'namespace Cars',
  '',
  'features',
  '\tCar {abstract}',
  '\t\tmandatory',
  '\t\t\tEngine',
  '\t\t\t\talternative',
  '\t\t\t\t\tPetrol',
  '\t\t\t\t\tElectric',
  '\t\t\t\t\tHybrid',
  '\t\t\tBody',
  '\t\toptional',
  '\t\t\tTurbo',
  '\t\t\tDiesel',
  '\t\t\tInfotainment',
  '\t\t\t\tor',
  '\t\t\t\t\tRadio',
  '\t\t\t\t\tNavigation',
  '\t\t\t\t\tStreaming',
  '\t\t\tTrailerHitch cardinality [0..1]',
  '',
  'constraints',
  '\tDiesel => !Turbo',
  '\tDiesel',
  '\t(Navigation & Streaming & Radio) | (Petrol & !Electric & !Hybrid) | (Electric & !Petrol & !Hybrid) | (Hybrid & !Petrol & !Electric)',
  '',
].join('\n');

describe('model page in Chromium', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    // No workers at first, so the page surely opens while the analysis is pending; the test
    // starts one worker once the page is open, and the page must update itself.
    server = await startTestServer({ seed: true, env: { ANALYSIS_WORKERS: '0' } });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('opens the model page from the DOI page, sees the fact label fill in and the dead feature marked in the diagram', async () => {
    const { fileId, doi } = await storeModel(server, { content: JOURNEY_MODEL, name: 'cars.uvl' });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchPageErrors(page);

    await page.goto(`${server.baseUrl}/doi/${doi}/`);
    await Promise.all([page.waitForURL(`${server.baseUrl}/model/${fileId}/`), page.click(`.file-row[data-file-id="${fileId}"] .js-model-page`)]);
    assert.equal(await page.getAttribute('#model-page', 'data-analysis-state'), 'pending');
    assert.match(await page.textContent('#analysis-pending') ?? '', /pending/);
    assert.equal(await page.locator('#diagram svg g.feature[data-feature="Turbo"]').count(), 1);
    assert.equal(await page.locator('#diagram svg g.dead').count(), 0, 'nothing is coloured before the analysis');
    await page.screenshot({ path: screenshotPath('model-page-pending'), fullPage: true });
    // A marker on the document: it survives only if the page is updated in place, not reloaded.
    await page.evaluate(() => { (window as unknown as { stayed: boolean }).stayed = true; });
    server.hub.ctx.services.analysis.start(1);

    // The script polls and swaps the finished fact label and diagram in without a reload. A partial
    // label (what is known so far) can show Turbo dead before the analysis finishes: the finished one
    // also explains it, the explanations being the analysis' last step.
    await page.waitForSelector('#dead-features .anomaly[data-feature="Turbo"] a[href="#L23"]', { timeout: 60_000 });
    assert.equal(await page.getAttribute('#model-page', 'data-analysis-state'), 'finished');
    assert.equal(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed), true, 'updated in place, not reloaded');
    assert.match(await page.textContent('#fact-satisfiable') ?? '', /yes/);
    assert.match(await page.textContent('#fact-label') ?? '', /Configurations/);
    const dead = page.locator('#diagram svg g.dead[data-feature="Turbo"]');
    // The diagram draws itself again, coloured, once the finished label is in: a request of its own.
    await dead.waitFor();
    assert.equal(await dead.count(), 1, 'the diagram marks the dead feature');
    assert.equal(await page.locator('#diagram svg g.core[data-feature="Engine"]').count(), 1);
    assert.equal(await page.locator('#diagram svg g.abstract[data-feature="Car"]').count(), 1);
    await page.screenshot({ path: screenshotPath('model-page-desktop'), fullPage: true });

    // An explanation line leads to its source line.
    await page.click('#dead-features a[href="#L23"]');
    await page.waitForFunction(() => window.location.hash === '#L23');
    assert.match(await page.textContent('#L23') ?? '', /Diesel => !Turbo/);

    // Back on the DOI page, the model's facts stand beside its file (issue 24, item 7).
    await page.goto(`${server.baseUrl}/doi/${doi}/`);
    const facts = page.locator(`.file-row[data-file-id="${fileId}"] .model-facts`);
    await facts.waitFor();
    assert.match(await facts.textContent() ?? '', /^\d+ features · 3 constraints · \d+ configurations? · 1 dead, \d+ false-optional$/);
    assert.equal(await page.getAttribute('#models-csv', 'href'), `/model/dataset/${await page.getAttribute('#dataset', 'data-dataset-id')}/models.csv`);

    assert.deepEqual(errors, [], 'no script errors, CSP violations or failed requests');

    // The SVG on its own, as a browser shows it (a bare SVG document asks for /favicon.ico: not checked).
    const svg = await page.goto(`${server.baseUrl}/model/${fileId}/diagram.svg`);
    assert.equal(svg?.status(), 200);
    assert.equal(await page.locator('g.dead[data-feature="Turbo"]').count(), 1);
    await page.screenshot({ path: screenshotPath('model-diagram-svg') });
  });

  it('is usable at phone width: the page never scrolls sideways; code and diagram scroll inside their frames', async () => {
    const { fileId } = await storeModel(server, { content: JOURNEY_MODEL, name: 'cars-phone.uvl' });
    const context = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.goto(`${server.baseUrl}/model/${fileId}/`);
    await page.waitForSelector('#dead-features .anomaly[data-feature="Turbo"]', { timeout: 60_000 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `no horizontal page scrolling (overflow ${overflow}px)`);
    const code = await page.evaluate(() => {
      const el = document.querySelector('.uvl-code')!;
      return { scrolls: el.scrollWidth > el.clientWidth, width: el.getBoundingClientRect().width };
    });
    assert.ok(code.scrolls, 'the long constraint scrolls inside the code block');
    assert.ok(code.width <= 375);
    await page.screenshot({ path: screenshotPath('model-page-phone'), fullPage: true });
    await context.close();
    assert.deepEqual(errors, []);
  });
});
