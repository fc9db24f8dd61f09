// Issue 37, item 2, in Chromium: a complete configuration of a model with many long feature names
// is shared by a short address (stored, `?config=<key>`) that restores every decision, no address
// the page makes exceeds 2,000 characters, and an address too long for the server (431) or a body
// too large (413) gets the hub's own error page, or `{"message"}` from the API.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { storeModel } from '../../src/modules/model/model.test-support.ts';
import { browserSkipReason, useBrowserServer, watchPageErrors } from './support.ts';

const skip = browserSkipReason();

/** 200 optional features of 45-character names: a complete configuration written out is about 9,500 characters. */
const NAMES = Array.from({ length: 200 }, (_, i) => `Option_with_a_rather_long_descriptive_name_${String(i).padStart(3, '0')}`);
const WIDE_MODEL = `features\n    Root\n        optional\n${NAMES.map((n) => `            ${n}\n`).join('')}`;

const statesOf = (page: Page) => page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#cfg-tree li[data-feature]')]
  .map((li) => [(li as HTMLElement).dataset.feature!, li.querySelector(':scope > .cfg-row > .cfg-state')!.textContent])));

describe('shared configurations and long addresses in Chromium', { skip }, () => {
  const journey = useBrowserServer({ seed: true, env: { ANALYSIS_WORKERS: '0' } });

  it('shares a complete configuration of 201 decisions by an address under 2,000 characters that restores it', async () => {
    const { server, browser } = journey;
    const { fileId } = await storeModel(server, { content: WIDE_MODEL, name: 'wide.uvl' });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.goto(`${server.baseUrl}/model/${fileId}/`);
    await page.locator('#cfg-remaining', { hasText: 'configurations remaining' }).waitFor();
    await page.locator('#cfg-random').click();
    await page.locator('#cfg-remaining', { hasText: '1 configuration remaining' }).waitFor();
    // The address names the state as soon as it is known: written out, or by the stored key.
    await page.waitForFunction(() => /[?&](select|deselect|config)=/.test(location.search));
    const shared = page.url();
    assert.ok(shared.length <= 2000, `the address has ${shared.length} characters`);
    assert.match(shared, /\?config=[A-Za-z0-9_-]{22}$/);
    const before = await statesOf(page);
    assert.equal(Object.values(before).filter((s) => s === 'open').length, 0, 'every feature decided');

    // Another visitor (no session) opening the shared address sees the same configuration.
    const other = await (await browser.newContext()).newPage();
    const otherErrors = watchPageErrors(other);
    await other.goto(shared);
    await other.locator('#cfg-remaining', { hasText: '1 configuration remaining' }).waitFor();
    assert.deepEqual(await statesOf(other), before);
    // Complete at random again changes nothing and makes no address.
    await other.locator('#cfg-random').click();
    await other.locator('#cfg-remaining', { hasText: 'already complete' }).waitFor();
    assert.equal(other.url(), shared);

    // An unknown key says so, and the page starts from no decisions.
    await other.goto(`${server.baseUrl}/model/${fileId}/?config=AAAAAAAAAAAAAAAAAAAAAA`);
    await other.locator('#cfg-conflict', { hasText: 'This shared configuration does not exist.' }).waitFor();
    assert.match(await other.locator('#cfg-remaining').textContent() ?? '', /configurations remaining/);
    assert.deepEqual(errors, []);
    // Only the unknown key's 404 (and Chromium's console line about it).
    assert.deepEqual(otherErrors.filter((e) => !/status of 404/.test(e)), [`404 ${server.baseUrl}/configurator/${fileId}/shares/AAAAAAAAAAAAAAAAAAAAAA`]);
    await context.close();
    await other.context().close();
  });

  it('keeps the configuration in the address when a box of the diagram is closed, and the diagram\'s state when a decision is taken', async () => {
    const { server, browser } = journey;
    const kettle = 'features\n    Kettle\n        mandatory\n            Body\n        optional\n            Whistle\n                alternative\n                    Tin\n                    Brass\n';
    const { fileId } = await storeModel(server, { content: kettle, name: 'kettle.uvl' });
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    const errors = watchPageErrors(page);
    await page.goto(`${server.baseUrl}/model/${fileId}/`);
    await page.locator('#cfg-remaining', { hasText: '3 configurations remaining' }).waitFor();
    await page.locator('#cfg-tree li[data-feature="Tin"] > .cfg-row button[data-act="select"]').click();
    await page.locator('#cfg-remaining', { hasText: '1 configuration remaining' }).waitFor();
    assert.match(page.url(), /\?select=Tin$/);
    // Closing Whistle in the diagram redraws it in place and writes close=Whistle: select=Tin stays (it was dropped).
    await Promise.all([page.waitForURL(/close=Whistle/), page.locator('#diagram-frame g.feature[data-feature="Whistle"] a').first().click()]);
    assert.deepEqual([...new URL(page.url()).searchParams.entries()].sort(), [['close', 'Whistle'], ['select', 'Tin']]);
    await page.locator('#cfg-tree li[data-feature="Body"] > .cfg-row button[data-act="deselect"]').click();
    await page.locator('#cfg-conflict:not([hidden])').waitFor();
    await page.locator('#cfg-reset').click();
    await page.locator('#cfg-remaining', { hasText: '3 configurations remaining' }).waitFor();
    assert.deepEqual([...new URL(page.url()).searchParams.entries()], [['close', 'Whistle']]);
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('answers an address too long for the server (431) with the hub\'s error page, and {"message"} from the API', async () => {
    const { server, browser } = journey;
    const page = await (await browser.newContext()).newPage();
    const longList = NAMES.join(',').repeat(60);
    const response = await page.goto(`${server.baseUrl}/model/1/?select=${longList}`);
    assert.equal(response?.status(), 431);
    assert.match(response?.headers()['content-type'] ?? '', /^text\/html/);
    assert.equal(await page.locator('h1').textContent(), '431');
    assert.match(await page.locator('p.lead').textContent() ?? '', /address .* too long/);
    await page.locator('a.navbar-brand', { hasText: 'UVL Hub' }).waitFor();

    const api = await fetch(`${server.baseUrl}/api/v1/files/1/samples?kind=uniform&n=1&select=${longList}`, { headers: { accept: 'application/json' } });
    assert.equal(api.status, 431);
    assert.deepEqual(Object.keys(await api.json()), ['message']);
    await page.context().close();
  });

  it('answers a body too large (413) with the hub\'s error page for a form, and {"message"} from the API', async () => {
    const { server, browser } = journey;
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${server.baseUrl}/login`);
    // A person's form posted with a body beyond the 2 MiB limit: the browser shows what the hub answers.
    await page.evaluate(() => {
      const form = document.querySelector('main form') as HTMLFormElement;
      const field = document.createElement('textarea');
      field.name = 'padding';
      field.value = 'x'.repeat(3 * 1024 * 1024);
      form.append(field);
    });
    // The login page is loaded already: the wait is for the load of the page the post opens.
    const [response] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.waitForEvent('load'), page.click('main button[type="submit"]')]);
    assert.equal(response.status(), 413);
    assert.equal(await page.locator('h1').textContent(), '413');
    await page.locator('a.navbar-brand', { hasText: 'UVL Hub' }).waitFor();

    const api = await fetch(`${server.baseUrl}/api/v1/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ q: 'x'.repeat(3 * 1024 * 1024) }) });
    assert.equal(api.status, 413);
    assert.deepEqual(Object.keys(await api.json()), ['message']);
    await page.context().close();
  });
});
