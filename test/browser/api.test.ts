// Browser journey of issue 13: create a token on /profile/tokens, use it, revoke it, and read the
// API reference at /api/docs (rendered by Swagger UI from the hub's own OpenAPI document).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { browserSkipReason, useBrowserServer, screenshotPath } from './support.ts';

const skip = browserSkipReason();

describe('tokens and the API reference in Chromium', { skip }, () => {
  const journey = useBrowserServer({ seed: true });

  it('creates a token shown once, uses it, revokes it', async () => {
    const page = await journey.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto(`${journey.server.baseUrl}/login`);
    await page.fill('#email', 'user1@example.com');
    await page.fill('#password', '1234');
    await Promise.all([page.waitForURL(`${journey.server.baseUrl}/`), page.click('button[type="submit"]')]);
    await page.goto(`${journey.server.baseUrl}/profile/summary`);
    await Promise.all([page.waitForURL(`${journey.server.baseUrl}/profile/tokens`), page.click('text=Access tokens')]);
    await page.fill('#name', 'Notebook');
    await page.check('#scope-write');
    await page.fill('#expires_in_days', '90');
    await Promise.all([page.waitForEvent('load'), page.click('#token-form button[type="submit"]')]);
    const token = await page.inputValue('#new-token');
    assert.match(token, /^hub_/);
    await page.click('#copy-new-token');
    await page.waitForFunction(() => (document.getElementById('copy-new-token-status')?.textContent ?? '') !== '');
    assert.match(await page.textContent('#copy-new-token-status') ?? '', /Copied|selected/);
    await page.screenshot({ path: screenshotPath('api-tokens'), fullPage: true });
    const used = await fetch(`${journey.server.baseUrl}/api/v1/datasets/`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{"name": "From the notebook"}' });
    assert.equal(used.status, 201);
    await page.goto(`${journey.server.baseUrl}/profile/tokens`);
    assert.equal(await page.locator('#new-token').count(), 0, 'shown once');
    assert.notEqual((await page.textContent('[data-token-id] .last-used'))?.trim(), 'never');
    await Promise.all([page.waitForEvent('load'), page.click('[data-token-id] button:has-text("Revoke")')]);
    assert.match(await page.textContent('#token-table') ?? '', /Revoked/);
    const refused = await fetch(`${journey.server.baseUrl}/api/v1/datasets/`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(refused.status, 401);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('shows every token fact and Revoke inside the page at 1280 px and at phone width', async () => {
    for (const width of [1280, 390]) {
      const page = await journey.browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(`${journey.server.baseUrl}/login`);
      await page.fill('#email', 'user2@example.com');
      await page.fill('#password', '1234');
      await Promise.all([page.waitForURL(`${journey.server.baseUrl}/`), page.click('button[type="submit"]')]);
      await page.goto(`${journey.server.baseUrl}/profile/tokens`);
      await page.fill('#name', `A rather long token name for width ${width}`);
      await page.check('#scope-read');
      await Promise.all([page.waitForEvent('load'), page.click('#token-form button[type="submit"]')]);
      const copy = await page.locator('#copy-new-token').boundingBox();
      assert.ok(copy && copy.x + copy.width <= width, `the copy button is inside the page at ${width} px`);
      const row = page.locator('[data-token-id]').first();
      for (const part of [row.locator('button:has-text("Revoke")'), row.locator('dt:has-text("Scopes")'), row.locator('dt:has-text("Expires")'), row.locator('.last-used')]) {
        const box = await part.boundingBox();
        assert.ok(box && box.x >= 0 && box.x + box.width <= width, `visible inside ${width} px`);
      }
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'no sideways scrolling');
      await page.screenshot({ path: screenshotPath(`api-tokens-${width}`), fullPage: true });
      await page.close();
    }
  });

  it('renders the OpenAPI document at /api/docs', async () => {
    const page = await journey.browser.newPage({ viewport: { width: 1280, height: 1400 } });
    const errors: string[] = [];
    const external: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('request', (r) => { if (!r.url().startsWith(journey.server.baseUrl) && !r.url().startsWith('data:')) external.push(r.url()); });
    await page.goto(`${journey.server.baseUrl}/api/docs`);
    await page.waitForSelector('.opblock-summary-path');
    const paths = await page.locator('.opblock-summary-path').allTextContents();
    for (const expected of ['/api/v1/datasets/{id}/files', '/api/v1/datasets/{id}/publish', '/api/v1/files/{file_id}', '/api/v1/search']) {
      assert.ok(paths.some((p) => p.replace(/\u200b/g, '') === expected), `${expected} is listed`);
    }
    assert.match(await page.textContent('.info .title') ?? '', /UVL Hub API/);
    await page.screenshot({ path: screenshotPath('api-docs'), fullPage: false });
    assert.deepEqual(external, [], 'nothing is loaded from elsewhere');
    assert.deepEqual(errors, []);
    await page.close();
  });
});
