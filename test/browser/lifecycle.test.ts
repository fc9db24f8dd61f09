// Browser journey of a dataset's life after its DOI (issue 11): upload a dataset, edit its metadata
// (the DOI stays, the history lists the edit), start a new version, replace its model with one
// that adds an optional feature, publish it (a new DOI under the same concept), move between the
// versions, compare them (a generalization listing the feature) and copy the BibTeX entry, which a
// BibTeX parser reads back. Screenshots go to test-output/screenshots/lifecycle-*.png.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Cite } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import { browserSkipReason, dropFiles, screenshotPath, useBrowserServer } from './support.ts';
import { VALID_UVL } from '../../src/modules/dataset/dataset.test-support.ts';

const skip = browserSkipReason();

/** The first version's model with one more optional feature. */
const GENERALIZED_UVL = VALID_UVL.replace('            Camera\n', '            Camera\n            GPS\n');

describe('dataset lifecycle journey in a browser', { skip }, () => {
  const env = useBrowserServer({ seed: true });

  it('edits a dataset, publishes a new version, compares the versions and copies a BibTeX entry', async () => {
    assert.notEqual(GENERALIZED_UVL, VALID_UVL);
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.baseUrl });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    const base = env.server.baseUrl;

    await page.goto(`${base}/login`);
    await page.fill('input[name="email"]', 'user1@example.com');
    await page.fill('input[name="password"]', '1234');
    await Promise.all([page.waitForURL(`${base}/`), page.click('form button[type="submit"]')]);

    // Version 1.
    await page.goto(`${base}/dataset/upload`);
    await dropFiles(page, [{ name: 'phone.uvl', content: VALID_UVL }]);
    await page.locator('.model-entry', { hasText: 'phone.uvl' }).locator('.model-status', { hasText: 'Valid' }).waitFor();
    await page.fill('#title', 'Lifecycle phones');
    await page.fill('#desc', 'A phone product line.');
    await page.fill('#tags', 'phones');
    await Promise.all([page.waitForURL(/\/doi\/10\.1234\/fakenodo\.\d+\/$/), page.click('#upload-button')]);
    const firstUrl = page.url();
    const firstDoi = /\/doi\/(.+)\/$/.exec(new URL(firstUrl).pathname)![1]!;

    // Edit: a new title, a second author and another licence; the DOI stays.
    await page.locator('.js-edit-dataset').first().click();
    await page.waitForURL(/\/dataset\/\d+\/edit$/);
    await page.fill('#title', 'Lifecycle phones, corrected');
    await page.selectOption('#license', 'CC0-1.0');
    await page.screenshot({ path: screenshotPath('lifecycle-edit-form'), fullPage: true });
    await Promise.all([page.waitForURL(firstUrl), page.click('#save-button')]);
    assert.match(await page.locator('#dataset-title').innerText(), /Lifecycle phones, corrected/);
    assert.match(await page.locator('#dataset-license').innerText(), /CC0-1\.0/);
    assert.match(await page.locator('#history-list').innerText(), /title/i, 'the history lists the edited fields');

    // Version 2: its upload page starts with the current metadata and files; the model is replaced.
    await Promise.all([page.waitForURL(/\/dataset\/upload/), page.locator('#new-version').click()]);
    assert.equal(await page.inputValue('#title'), 'Lifecycle phones, corrected');
    const staged = page.locator('.model-entry', { hasText: 'phone.uvl' });
    await staged.waitFor();
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/dataset/file/delete')), staged.locator('.js-remove-model').click()]);
    await staged.waitFor({ state: 'detached' });
    await dropFiles(page, [{ name: 'phone.uvl', content: GENERALIZED_UVL }]);
    await page.locator('.model-entry', { hasText: 'phone.uvl' }).locator('.model-status', { hasText: 'Valid' }).waitFor();
    await Promise.all([page.waitForURL((url) => /\/doi\/10\.1234\/fakenodo\.\d+\/$/.test(url.pathname) && url.toString() !== firstUrl), page.click('#upload-button')]);
    const secondUrl = page.url();
    assert.match(await page.locator('#version-of').innerText(), /Version 2 of 2/);
    await page.screenshot({ path: screenshotPath('lifecycle-version-navigation'), fullPage: true });

    // The first version points at the newest.
    await page.goto(firstUrl);
    assert.match(await page.locator('#version-of').innerText(), /Version 1 of 2/);
    assert.match(await page.locator('#newer-version-banner').innerText(), /newer version/i);

    // The comparison: one model, generalized by GPS.
    await page.goto(secondUrl);
    await Promise.all([page.waitForURL(/\/dataset\/\d+\/compare\/\d+\/$/), page.locator('#compare-previous').click()]);
    const model = page.locator('.model-change[data-model="phone.uvl"]');
    // Decided while the page waited, or written in by the page's script once decided.
    await model.locator('.edit-class[data-edit-class="generalization"]').waitFor({ timeout: 60_000 });
    assert.match(await model.locator('[id^="added-features-"]').innerText(), /GPS/);
    assert.match(await model.innerText(), /Features removed\s+none/);
    await page.screenshot({ path: screenshotPath('lifecycle-compare'), fullPage: true });

    // The BibTeX entry of version 2, copied with the button and read back by a BibTeX parser.
    await page.goto(secondUrl);
    await page.selectOption('#citation-format', 'bibtex');
    await page.click('#citation-copy');
    await page.locator('#citation-copy-status', { hasText: /Copied/ }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    const [entry] = new Cite(copied, { forceType: '@bibtex/text' }).data as { DOI?: string; title?: string; author?: unknown[]; issued?: { 'date-parts': number[][] } }[];
    const secondDoi = /\/doi\/(.+)\/$/.exec(new URL(secondUrl).pathname)![1]!;
    assert.notEqual(secondDoi, firstDoi);
    assert.equal(entry?.DOI, secondDoi);
    assert.equal(entry?.title, 'Lifecycle phones, corrected');
    assert.ok((entry?.author ?? []).length >= 1);
    assert.equal(entry?.issued?.['date-parts'][0]![0], new Date().getUTCFullYear());
    // Another format is fetched when chosen, then copied like the first.
    await page.selectOption('#citation-format', 'ris');
    await page.locator('#citation-ris', { hasText: /TY {2}- DATA/ }).waitFor();
    await page.click('#citation-copy');
    await page.locator('#citation-copy-status', { hasText: /Copied RIS/ }).waitFor();
    assert.match(await page.evaluate(() => navigator.clipboard.readText()), new RegExp(`DO {2}- ${secondDoi.replace(/\./g, '\\.')}`));
    assert.deepEqual(problems, [], 'no script error and no CSP violation');
    await context.close();
  });
});
