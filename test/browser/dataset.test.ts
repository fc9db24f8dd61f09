// Browser journey of the dataset pages (headless Chromium through playwright-core): log in,
// drop two models on the upload page (one invalid: its error with line and column is shown),
// remove the invalid one, fill the form, upload, land on the DOI page, view a file with
// highlighting, run the check, download the zip. Screenshots go to test-output/screenshots/.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { storedEntries } from '../support/stored.ts';
import { browserSkipReason, dropFiles, launchBrowser, screenshotPath } from './support.ts';
import { INVALID_UVL, VALID_UVL, unzip } from '../../src/modules/dataset/dataset.test-support.ts';

const skip = browserSkipReason();

describe('dataset journey in a browser', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  before(async () => {
    server = await startTestServer({ seed: true });
    browser = await launchBrowser();
    // Reduced motion turns Bootstrap's transitions off, so screenshots show finished states.
    const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
    page = await context.newPage();
    // A CSP violation or a script error shows up here; the journey must produce none.
    // (A refused request, such as the 400 of an invalid form, is logged too; that one is expected.)
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const stagingFolder = async () => {
    const id = (await server.hub.db.selectFrom('user').select('id').where('email', '=', 'user1@example.com').executeTakeFirstOrThrow()).id;
    return storedEntries(server, `temp/${id}/`);
  };

  it('uploads a dataset from the upload page and uses its DOI page', async () => {
    await page.goto(`${server.baseUrl}/login`);
    await page.fill('input[name="email"]', 'user1@example.com');
    await page.fill('input[name="password"]', '1234');
    await Promise.all([page.waitForURL(`${server.baseUrl}/`), page.click('form button[type="submit"]')]);

    await page.goto(`${server.baseUrl}/dataset/upload`);
    const files = [
      { name: 'journey-valid.uvl', content: VALID_UVL },
      { name: 'journey-broken.uvl', content: INVALID_UVL },
    ];
    await dropFiles(page, files);

    const valid = page.locator('.model-entry', { hasText: 'journey-valid.uvl' });
    const broken = page.locator('.model-entry', { hasText: 'journey-broken.uvl' });
    await valid.locator('.model-status', { hasText: 'Valid' }).waitFor();
    await broken.locator('.model-status', { hasText: 'Syntax errors' }).waitFor();
    const errorText = await broken.locator('.model-errors').innerText();
    assert.match(errorText, /Line 3:\d+ - /, 'the error shows its line and column');
    assert.deepEqual(await stagingFolder(), ['journey-broken.uvl', 'journey-valid.uvl']);
    await page.screenshot({ path: screenshotPath('dataset-upload-staged'), fullPage: true });

    const [removal] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/dataset/file/delete')),
      broken.locator('.js-remove-model').click(),
    ]);
    assert.equal(removal.status(), 200);
    await broken.waitFor({ state: 'detached' });
    assert.deepEqual(await stagingFolder(), ['journey-valid.uvl'], 'the removed file left the staging folder');

    await page.fill('#title', 'Journey dataset');
    await page.fill('#desc', 'Uploaded by the browser journey.');
    await page.selectOption('#publication_type', 'report');
    await page.fill('#tags', 'journey, browser');
    await valid.locator('summary').click();
    await valid.locator('[data-field="title"]').fill('Journey phone');
    await Promise.all([
      page.waitForURL(/\/doi\/10\.1234\/fakenodo\.\d+\/$/),
      page.click('#upload-button'),
    ]);
    assert.match(await page.locator('#dataset-title').innerText(), /Journey dataset/);
    assert.match(await page.locator('#publication-type').innerText(), /Report/);
    assert.match(await page.content(), /Dataset published with DOI/);
    await page.screenshot({ path: screenshotPath('dataset-doi-page'), fullPage: true });

    await page.locator('.js-view-file').first().click();
    const source = page.locator('#file-source');
    await source.locator('.uvl-keyword', { hasText: 'features' }).first().waitFor();
    assert.ok(await source.locator('.uvl-operator').count() > 0, 'operators are highlighted');
    assert.match(await source.innerText(), /Camera => Large/);
    await page.screenshot({ path: screenshotPath('dataset-file-view') });
    await page.locator('#file-modal .btn-close').click();
    await page.locator('#file-modal').waitFor({ state: 'hidden' });

    await page.locator('.js-check-file').first().click();
    await page.locator('.check-result .alert-success').waitFor();
    assert.match(await page.locator('.check-result').first().innerText(), /Valid Model/);

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-all')]);
    const id = /fakenodo\.(\d+)/.exec(page.url())![1];
    assert.equal(download.suggestedFilename(), `dataset_${id}.zip`);
    const entries = await unzip(readFileSync((await download.path())!));
    assert.deepEqual([...entries.keys()], [`dataset_${id}/journey-valid.uvl`]);
    assert.equal(entries.get(`dataset_${id}/journey-valid.uvl`), VALID_UVL);
    assert.deepEqual(problems, [], 'no script error and no CSP violation');
  });

  it('shows field errors from the server and works on a phone-sized screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.baseUrl}/dataset/upload`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, 'no horizontal scrolling on a phone');
    await page.fill('#publication_doi', 'not a doi');
    await page.click('#upload-button');
    await page.locator('#form-errors:not(.d-none)').waitFor();
    assert.ok(await page.locator('#title.is-invalid').count() === 1, 'the title is marked');
    assert.match(await page.locator('#title + .invalid-feedback').innerText(), /required/);
    assert.ok(await page.locator('#publication_doi.is-invalid').count() === 1);
    assert.match(await page.locator('#feature_models-errors').innerText(), /at least one/);
    await page.screenshot({ path: screenshotPath('dataset-upload-phone-errors'), fullPage: true });
    assert.deepEqual(problems, []);
  });
});
