// Browser journey over the scripts of modeltool and hubfile on a DOI landing page: an export
// is saved under its attachment name, an export the model refuses shows its error beside the
// file, a download goes through the browser's own download, and a missing file says so.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, launchBrowser } from '../../../test/browser/support.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { insertDatasetRow, userIdByEmail } from '../../../test/support/fixtures.ts';
import { nowIso } from '../../core/db/database.ts';

const GOOD = 'features\n    Shop\n        optional\n            Search\n            Cart\n';
const GHOST = 'features\n    Root\n        optional\n            A\nconstraints\n    A => Ghost\n';
const DOI = '10.9999/modeltool.browser';

const skip = browserSkipReason();

describe('modeltool and hubfile scripts in the browser', { skip, timeout: 120_000 }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const ids: Record<string, number> = {};

  before(async () => {
    server = await startTestServer({ seed: true });
    const { db, ctx } = server.hub;
    const userId = await userIdByEmail(db, 'user1@example.com');
    const datasetId = await insertDatasetRow(db, userId, { title: 'Browser fixture', doi: DOI, createdAt: nowIso() });
    const folder = ctx.services.hubfile.datasetFolder(userId, datasetId);
    await mkdir(folder, { recursive: true });
    for (const [name, text] of Object.entries({ 'shop.uvl': GOOD, 'ghost.uvl': GHOST, 'gone.uvl': GOOD })) {
      const fmId = await ctx.services.featuremodel.createFeatureModel(db, datasetId, {
        uvl_filename: name, title: name, description: '', publication_type: 'none', publication_doi: null, tags: null, uvl_version: null, authors: [],
      });
      ids[name] = await ctx.services.hubfile.createFile(db, fmId, { name, checksum: createHash('md5').update(text).digest('hex'), size: text.length });
      await writeFile(join(folder, name), text);
    }
    await rm(join(folder, 'gone.uvl'));
    browser = await launchBrowser();
    page = await (await browser.newContext({ acceptDownloads: true })).newPage();
    const res = await page.goto(`${server.baseUrl}/doi/${DOI}/`);
    assert.equal(res?.status(), 200);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const row = (name: string) => page.locator(`.file-row[data-file-id="${ids[name]}"]`);

  it('saves an export under its attachment name', async () => {
    await row('shop.uvl').getByRole('button', { name: 'Export' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row('shop.uvl').getByRole('link', { name: 'DIMACS CNF' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'shop.uvl_cnf.txt');
    const path = await download.path();
    const { readFile } = await import('node:fs/promises');
    assert.match(await readFile(path, 'utf8'), /^p cnf 3 /);
    assert.equal(new URL(page.url()).pathname, `/doi/${DOI}/`, 'the page stays');
  });

  it('shows the error of an export the model refuses beside the file', async () => {
    await row('ghost.uvl').getByRole('button', { name: 'Export' }).click();
    await row('ghost.uvl').getByRole('link', { name: 'Glencoe (JSON)' }).click();
    const alert = page.locator(`#check-result-${ids['ghost.uvl']} .alert-danger`);
    await alert.waitFor();
    assert.match(await alert.innerText(), /Ghost/);
    assert.equal(new URL(page.url()).pathname, `/doi/${DOI}/`);
  });

  it('downloads a file through the browser and counts it once', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row('shop.uvl').getByRole('link', { name: 'Download' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'shop.uvl');
    await download.path();
    assert.deepEqual(await server.hub.ctx.services.hubfile.countsForFile(ids['shop.uvl']!), { views: 0, downloads: 1 });
  });

  it('says so when a file is gone, instead of leaving for a bare JSON error', async () => {
    // An open alert blocks the page, so it is answered as soon as it shows.
    const message = new Promise<string>((resolve) => page.once('dialog', (dialog) => {
      resolve(dialog.message());
      void dialog.dismiss();
    }));
    await row('gone.uvl').getByRole('link', { name: 'Download' }).click();
    assert.match(await message, /not available/);
    assert.equal(new URL(page.url()).pathname, `/doi/${DOI}/`);
  });
});
