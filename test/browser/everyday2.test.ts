// Issue 25 in Chromium: the warning of a suspicious model, a binary file renamed .uvl and a long
// error list on the upload page, the model page's warnings, and a draft from "Save as draft" to
// its preview and publication (screenshots of each).
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { TestServer } from '../support/server.ts';
import { browserSkipReason, dropFiles, loggedInPage, screenshotPath, useBrowserServer } from './support.ts';
import { VALID_UVL } from '../../src/modules/dataset/dataset.test-support.ts';

const skip = browserSkipReason();
const MISSING_REFERENCE = 'features\n    A\n        optional\n            B\n\nconstraints\n    C | D\n';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0xff, 0xfe, 0x00, 0x10]);

describe('everyday use, second pass, in Chromium', { skip }, () => {
  const env = useBrowserServer({ seed: true });
  let server: TestServer;
  let page: Page;
  const problems: string[] = [];
  before(async () => {
    server = env.server;
    page = await loggedInPage(env.browser, server);
    page.on('pageerror', (e) => problems.push(e.message));
  });

  it('shows a warning under a suspicious model, one error for a binary file and "and N more" for a long list', async () => {
    await page.goto(`${server.baseUrl}/dataset/upload`);
    await dropFiles(page, [{ name: 'missingreference.uvl', content: MISSING_REFERENCE }, { name: 'broken.uvl', content: 'features\n  A\n' + '    ) ( ]\n'.repeat(60) }]);
    const warned = page.locator('.model-entry', { hasText: 'missingreference.uvl' });
    await warned.locator('.model-status', { hasText: 'Valid, with warnings' }).waitFor();
    assert.match(await warned.locator('.model-warnings').innerText(), /`C` is not a feature: the constraint is left out of the analysis/);
    assert.ok(await warned.locator('.model-errors').isHidden(), 'a warning is not shown as an error');
    await page.setInputFiles('#file-input', { name: 'picture.uvl', mimeType: 'image/png', buffer: PNG });
    const binary = page.locator('.model-entry', { hasText: 'picture.uvl' });
    await binary.locator('.model-status', { hasText: 'Syntax errors' }).waitFor();
    assert.deepEqual(await binary.locator('.model-errors li').allInnerTexts(), ['Line 1:0 - not UTF-8 text']);
    const broken = page.locator('.model-entry', { hasText: 'broken.uvl' });
    await broken.locator('.model-status', { hasText: 'Syntax errors' }).waitFor();
    assert.equal(await broken.locator('.model-errors li').count(), 21);
    assert.equal(await broken.locator('.model-errors li').last().innerText(), 'and 40 more');
    await page.screenshot({ path: screenshotPath('everyday2-upload-warning-binary'), fullPage: true });
    // The page opened again lists the same, from the staging answer.
    await page.reload();
    await page.locator('.model-entry', { hasText: 'picture.uvl' }).locator('.model-errors li').first().waitFor();
    assert.equal(await page.locator('.model-entry', { hasText: 'broken.uvl' }).locator('.model-errors li').last().innerText(), 'and 40 more');
    for (const name of ['missingreference.uvl', 'picture.uvl', 'broken.uvl']) {
      // The entry goes at once and its file is removed in the background: the next test's page load would race that request (or cancel it).
      const removed = page.waitForResponse((res) => res.url().endsWith('/dataset/file/delete'));
      await page.locator('.model-entry', { hasText: name }).locator('.js-remove-model').click();
      await page.locator('.model-entry', { hasText: name }).waitFor({ state: 'detached' });
      assert.equal((await removed).status(), 200);
    }
  });

  it('saves a draft, lists it, previews it and publishes it', async () => {
    await page.goto(`${server.baseUrl}/dataset/upload`);
    await dropFiles(page, [{ name: 'draft-phone.uvl', content: VALID_UVL }]);
    await page.locator('.model-entry', { hasText: 'draft-phone.uvl' }).locator('.model-status', { hasText: 'Valid' }).waitFor();
    await page.fill('#title', 'Browser draft');
    await page.fill('#desc', 'Saved as a draft by the browser journey.');
    await Promise.all([page.waitForURL(/\/dataset\/unsynchronized\/\d+\/$/), page.click('#draft-button')]);
    assert.match(await page.content(), /Draft saved: nothing is deposited/);
    await page.screenshot({ path: screenshotPath('everyday2-draft-page'), fullPage: true });

    await page.goto(`${server.baseUrl}/dataset/list`);
    const row = page.locator('tr', { hasText: 'Browser draft' });
    assert.equal(await row.locator('.dataset-draft').innerText(), 'Draft');
    await page.screenshot({ path: screenshotPath('everyday2-my-datasets-draft'), fullPage: true });
    await Promise.all([page.waitForURL(/\?preview=1$/), row.locator('.js-preview-dataset').click()]);
    assert.ok(await page.locator('#preview-notice').isVisible());
    assert.equal(await page.locator('.owner-actions').count(), 0);
    await page.screenshot({ path: screenshotPath('everyday2-draft-preview'), fullPage: true });

    await page.goto(`${server.baseUrl}/dataset/list`);
    await Promise.all([
      page.waitForURL(/\/doi\/10\.1234\/fakenodo\.\d+\/$/),
      page.locator('tr', { hasText: 'Browser draft' }).locator('.js-publish-form button').click(),
    ]);
    assert.match(await page.locator('#dataset-title').innerText(), /Browser draft/);
    await page.screenshot({ path: screenshotPath('everyday2-draft-published'), fullPage: true });
  });

  it('highlights only the first 1000 lines of a large model in the source pop-up, and shows every line', async () => {
    const comments = Array.from({ length: 1500 }, (_, i) => `// comment ${i + 1}`).join('\n');
    const large = `${comments}\nfeatures\n    Big\n`;
    await page.goto(`${server.baseUrl}/dataset/upload`);
    await dropFiles(page, [{ name: 'large.uvl', content: large }]);
    await page.locator('.model-entry', { hasText: 'large.uvl' }).locator('.model-status', { hasText: 'Valid' }).waitFor();
    await page.fill('#title', 'Large source');
    await page.fill('#desc', 'A long file.');
    await Promise.all([page.waitForURL(/\/doi\//), page.click('#upload-button')]);
    await page.locator('.js-view-file').first().click();
    await page.waitForFunction(() => (document.querySelector('#file-source code')?.textContent ?? '').includes('comment 1500'));
    assert.equal(await page.locator('#file-source code span.uvl-comment').count(), 1000);
    assert.equal(await page.locator('#file-source code').textContent(), large);
  });

  it('shows the model page\'s warnings panel', async () => {
    await page.goto(`${server.baseUrl}/dataset/upload`);
    await dropFiles(page, [{ name: 'warned.uvl', content: MISSING_REFERENCE }]);
    await page.locator('.model-entry', { hasText: 'warned.uvl' }).locator('.model-status', { hasText: 'Valid, with warnings' }).waitFor();
    await page.fill('#title', 'Warned dataset');
    await page.fill('#desc', 'A model with a warning.');
    await Promise.all([page.waitForURL(/\/doi\//), page.click('#upload-button')]);
    const modelPage = /href="(\/model\/\d+\/)"/.exec(await page.content())?.[1];
    assert.ok(modelPage, 'the DOI page links the model page');
    await page.goto(server.baseUrl + modelPage);
    assert.match(await page.locator('#model-warnings').innerText(), /`C` is not a feature/);
    await page.locator('#ignored-constraints').waitFor();
    assert.match(await page.locator('#ignored-constraints').innerText(), /Line 7: C \| D: `C` is not a feature/);
    await page.screenshot({ path: screenshotPath('everyday2-model-warnings'), fullPage: true });
    assert.deepEqual(problems, []);
  });
});
