// A collection of 20 corpus models from 5 datasets (extensions section 13), made and published
// over HTTP as a person would, then its page in Chromium at 1280 and 390 px: axe-core finds no
// serious or critical violation, nothing scrolls sideways, the DOI and every member are shown.
// The two screenshots are kept in docs/screenshots/ (collection-1280.png, collection-390.png).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { projectPath } from '../../src/core/config.ts';
import { browserSkipReason, useBrowserServer } from './support.ts';
import { seriousViolations } from './axe.ts';
import { newUser } from '../support/accounts.ts';
import { bearer, createToken, uvlForm } from '../support/api.ts';

const skip = browserSkipReason();
const CORPUS = '../shared/uvl-corpus/real';

/** Corpus models under 60 KB outside the parser's test resources, in a stable order. */
function corpusModels(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) { if (name !== 'test_resources') walk(path); } else if (name.endsWith('.uvl') && statSync(path).size < 60_000) found.push(path);
    }
  };
  walk(CORPUS);
  return found;
}

describe('a published collection of 20 corpus models in Chromium', { skip }, () => {
  const journey = useBrowserServer({ seed: true });
  let collectionUrl = '';
  let email = '';

  /** A fresh browser context at `width` px, logged in as the collection's owner. */
  async function loggedInPage(width: number): Promise<{ context: BrowserContext; page: Page }> {
    const context = await journey.browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true, reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(`${journey.server.baseUrl}/login`);
    await page.fill('#email', email);
    await page.fill('#password', 'test-password-1');
    await Promise.all([page.waitForURL(`${journey.server.baseUrl}/`), page.click('main button[type="submit"]')]);
    return { context, page };
  }

  it('publishes 5 datasets of 4 corpus models, collects their 20 models and publishes the collection', async () => {
    const server = journey.server;
    const user = await newUser(server, 'Curator');
    email = user.email;
    const token = await createToken(user.client, ['write']);
    const models = corpusModels();
    const fileIds: number[] = [];
    for (let d = 0; d < 5; d++) {
      const created = await bearer(server.baseUrl, token, 'POST', '/api/v1/datasets', {
        name: `Corpus sample ${d + 1}`, description: 'Real UVL models of the corpus', tags: 'corpus', authors: [{ name: 'Tester, Curator' }],
      });
      let added = 0;
      while (added < 4 && models.length > 0) {
        const path = models.shift()!;
        const res = await bearer(server.baseUrl, token, 'POST', `/api/v1/datasets/${created.json.id}/files`, uvlForm(basename(path), readFileSync(path, 'utf8')));
        if (res.status === 201) { fileIds.push(res.json.file_id); added++; }
      }
      assert.equal(added, 4, `dataset ${d + 1} has 4 models`);
      assert.equal((await bearer(server.baseUrl, token, 'POST', `/api/v1/datasets/${created.json.id}/publish`)).json.status, 'ok');
    }
    await user.client.get('/collections');
    const made = await user.client.post('/collections', { form: { title: 'Twenty corpus models', description: 'Models of five published datasets, for a benchmark of analysis tools.', tags: 'benchmark, corpus' } });
    const id = Number(/\/collection\/(\d+)\//.exec(made.location ?? '')?.[1]);
    for (const fileId of fileIds) assert.equal((await user.client.post(`/collection/${id}/add`, { form: { file_id: String(fileId) } })).status, 303);
    assert.equal((await user.client.post(`/collection/${id}/publish`, { form: {} })).status, 303);
    const api = (await user.client.get(`/api/v1/collections/${id}`)).json;
    assert.equal(api.members.length, 20);
    assert.equal(new Set(api.members.map((m: { dataset_doi: string }) => m.dataset_doi)).size, 5);
    assert.match(api.doi, /^10\.1234\/fakenodo\.collection\.\d+$/);
    collectionUrl = `${server.baseUrl}/collection/${id}/`;
    await server.hub.ctx.services.analysis.drain();
  });

  for (const width of [1280, 390]) {
    it(`shows the published collection at ${width} px`, async () => {
      assert.ok(collectionUrl, 'the collection was published');
      const { context, page } = await loggedInPage(width);
      await page.goto(collectionUrl);
      assert.equal(await page.locator('.collection-member').count(), 20);
      assert.match(await page.textContent('#collection-doi') ?? '', /^10\.1234\/fakenodo\.collection\.\d+$/);
      assert.match(await page.textContent('#collection-meta') ?? '', /20 models from 5 datasets/);
      const problems = await seriousViolations(page);
      assert.deepEqual(problems, [], `axe on ${page.url()}: ${JSON.stringify(problems)}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
      const path = projectPath('docs', 'screenshots', `collection-${width}.png`);
      // The first screen only: a PNG of the whole page is over 300 KB at 1280 px.
      await page.screenshot({ path });
      assert.ok(statSync(path).size < 300_000, `${path} is ${statSync(path).size} bytes`);
      await context.close();
    });
  }

  it("refuses explore's Save without a title on the page, the reason under the field, then saves with one", async () => {
    const context = await journey.browser.newContext({ viewport: { width: 390, height: 900 } });
    const page: Page = await context.newPage();
    await page.goto(`${journey.server.baseUrl}/login`);
    await page.fill('#email', email);
    await page.fill('#password', 'test-password-1');
    await Promise.all([page.waitForURL(`${journey.server.baseUrl}/`), page.click('main button[type="submit"]')]);
    await page.goto(`${journey.server.baseUrl}/explore`);
    await page.fill('#explore-save-title', '   ');
    await page.click('#explore-save-button');
    await page.waitForSelector('#explore-save-title[aria-invalid="true"]');
    assert.equal(new URL(page.url()).pathname, '/explore', 'no error page');
    assert.equal(await page.textContent('#explore-save-error'), 'Give the collection a title.');
    await page.fill('#explore-save-title', 'Everything found');
    await Promise.all([page.waitForURL(/\/collection\/\d+\/$/), page.click('#explore-save-button')]);
    await context.close();
  });

  it('points at a newer version with a link that reads on the notice (axe: colour contrast)', async () => {
    const { context, page } = await loggedInPage(390);
    await page.goto(collectionUrl);
    await Promise.all([page.waitForURL((url) => url.href !== collectionUrl), page.click('#collection-new-version button[type="submit"]')]);
    await page.goto(collectionUrl);
    assert.match(await page.textContent('.alert-info') ?? '', /A newer version exists/);
    const problems = await seriousViolations(page);
    assert.deepEqual(problems, [], `axe on ${page.url()}: ${JSON.stringify(problems)}`);
    await context.close();
  });
});
