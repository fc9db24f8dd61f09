// Issue 10 in Chromium: what a new user meets on the upload, explore, DOI and profile pages.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { browserSkipReason, dropFiles, launchBrowser, screenshotPath } from './support.ts';
import { VALID_UVL, loggedIn, stage, uploadForm } from '../../src/modules/dataset/dataset.test-support.ts';

const skip = browserSkipReason();

describe('everyday use in Chromium', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  before(async () => {
    server = await startTestServer({ seed: true });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
    page = await context.newPage();
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text()); });
    await page.goto(`${server.baseUrl}/login`);
    await page.fill('#email', 'user1@example.com');
    await page.fill('#password', '1234');
    await Promise.all([page.waitForURL(`${server.baseUrl}/`), page.click('main button[type="submit"]')]);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('re-checks a marked upload field as it is corrected; the server stays the authority', async () => {
    await page.goto(`${server.baseUrl}/dataset/upload`);
    await page.fill('#publication_doi', 'not a doi');
    await page.click('#upload-button');
    await page.locator('#form-errors:not(.d-none)').waitFor();
    for (const id of ['#title', '#desc', '#publication_doi']) assert.equal(await page.locator(`${id}.is-invalid`).count(), 1, `${id} is marked`);
    await page.fill('#title', 'Corrected title');
    assert.equal(await page.locator('#title.is-invalid').count(), 0, 'the corrected title loses its mark at once');
    assert.equal(await page.locator('#title + .invalid-feedback').count(), 0, 'and its message');
    await page.fill('#publication_doi', 'still not one');
    assert.equal(await page.locator('#publication_doi.is-invalid').count(), 1, 'a still wrong DOI stays marked');
    await page.fill('#publication_doi', '10.1234/abcd');
    assert.equal(await page.locator('#publication_doi.is-invalid').count(), 0);
    assert.equal(await page.locator('#desc.is-invalid').count(), 1, 'an untouched field keeps its mark');
    await page.screenshot({ path: screenshotPath('everyday-upload-recheck'), fullPage: true });
  });

  it('says when a file name was staged twice, and when a model declares no features', async () => {
    await page.goto(`${server.baseUrl}/dataset/upload`);
    await dropFiles(page, [{ name: 'twice.uvl', content: VALID_UVL }]);
    await page.locator('.model-entry', { hasText: 'twice.uvl' }).locator('.model-status', { hasText: 'Valid' }).waitFor();
    await dropFiles(page, [{ name: 'twice.uvl', content: VALID_UVL }, { name: 'nothing.uvl', content: '' }]);
    const copy = page.locator('.model-entry', { hasText: 'twice (1).uvl' });
    await copy.locator('.model-status', { hasText: 'Valid' }).waitFor();
    assert.match(await copy.locator('.model-warnings').innerText(), /twice\.uvl was staged already: this file is kept as twice \(1\)\.uvl/);
    const empty = page.locator('.model-entry', { hasText: 'nothing.uvl' });
    await empty.locator('.model-status', { hasText: 'Valid' }).waitFor();
    assert.match(await empty.locator('.model-warnings').innerText(), /declares no features/);
    await page.screenshot({ path: screenshotPath('everyday-upload-warnings'), fullPage: true });
  });

  it('explains a refused search in words and drops the earlier results', async () => {
    await page.goto(`${server.baseUrl}/explore?query=sample`);
    await page.waitForSelector('.search-result');
    const words = Array.from({ length: 101 }, (_, i) => `w${i}x`).join(' ');
    await page.fill('#query', words);
    await page.press('#query', 'Enter');
    await page.locator('#results-error:not(.d-none)').waitFor();
    assert.match(await page.textContent('#results-error') ?? '', /too many different words: at most 100 are searched/);
    assert.doesNotMatch(await page.textContent('#results-error') ?? '', /HTTP 400/);
    assert.equal(await page.locator('.search-result').count(), 0, 'no stale results under the message');
    await page.screenshot({ path: screenshotPath('everyday-explore-refused'), fullPage: true });
    await page.fill('#query', '10.1234/dataset2');
    await page.press('#query', 'Enter');
    await page.locator('#results-error.d-none').waitFor({ state: 'attached' });
    await page.waitForFunction(() => document.querySelectorAll('.search-result').length === 1);
    assert.match(await page.textContent('.search-result h2') ?? '', /Sample dataset 2/);
  });

  it('numbers the lines of a viewed file and keeps tabs narrow', async () => {
    await page.goto(`${server.baseUrl}/doi/10.1234/dataset1/`);
    await page.locator('.js-view-file').first().click();
    await page.locator('#file-source .uvl-keyword').first().waitFor();
    const numbers = (await page.textContent('#file-lines') ?? '').split('\n');
    const lines = (await page.evaluate(() => document.querySelector('#file-source code')!.textContent!)).replace(/\n$/, '').split('\n');
    assert.equal(numbers.length, lines.length, 'one number per line');
    assert.deepEqual(numbers.slice(0, 3), ['1', '2', '3']);
    assert.equal(await page.evaluate(() => getComputedStyle(document.getElementById('file-source')!).tabSize), '4');
    await page.screenshot({ path: screenshotPath('everyday-file-view') });
    await page.locator('#file-modal .btn-close').click();
  });

  it('keeps a 14,000-character description from pushing the models down the page', async () => {
    const client = await loggedIn(server, 'user2@example.com');
    await stage(client, 'story.uvl', VALID_UVL);
    const res = await client.post('/dataset/upload', { form: uploadForm(['story.uvl'], { title: 'Long story', desc: 'A long description. '.repeat(700) }) });
    assert.equal(res.json.status, 'ok');
    await page.goto(`${server.baseUrl}/doi/${res.json.doi}/`);
    const box = await page.locator('#dataset-description').boundingBox();
    assert.ok(box && box.height <= 260, `the description box is short (${box?.height} px)`);
    const models = await page.locator('#feature-models').boundingBox();
    assert.ok(models && models.y < 1200, `the models start near the top (${models?.y} px)`);
  });

  it('shows every column of the profile dataset table at phone width', async () => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto(`${server.baseUrl}/profile/summary`);
    const fits = await page.evaluate(() => {
      const table = document.getElementById('dataset-table')!;
      return table.scrollWidth <= table.parentElement!.clientWidth;
    });
    assert.ok(fits, 'the table fits its box: the state column is not cut');
    assert.ok(await page.isVisible('#dataset-table th:last-child'));
    await page.screenshot({ path: screenshotPath('everyday-profile-phone'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    assert.deepEqual(problems, [], 'no script error or CSP violation');
  });
});
