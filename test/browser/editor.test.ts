// Browser journeys of the model editor (extensions section 12, issue 38) in Chromium: diagnostics
// as you type equal `hub uvl check`'s, the live count equals `hub uvl analyze`'s, rename, format,
// save as draft and as a new version, and no request to the server while typing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { checkUvl, parseUvl, printUvl } from '../../packages/uvl/src/index.ts';
import { analyzeModel } from '../../packages/analysis/src/index.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { storeModel } from '../../src/modules/model/model.test-support.ts';
import { userIdByEmail } from '../support/fixtures.ts';
import { browserSkipReason, launchBrowser, loggedInPage, screenshotPath, watchPageErrors } from './support.ts';
import { seriousViolations } from './axe.ts';

const skip = browserSkipReason();

// Line 9 has the error: a lone '=' (the scanner's invalid character).
const BROKEN = [
  'namespace Bikes',
  '',
  'features',
  '    Bike',
  '        mandatory',
  '            Frame',
  '        optional',
  '            Bell',
  '            Light = on',
  '            Basket',
  '',
  'constraints',
  '    Basket => Frame',
  '',
].join('\n');
const FIXED = BROKEN.replace('Light = on', 'Light');

/** The editor's text as the page holds it. */
const editorText = (page: Page) => page.evaluate(() => (window as unknown as { hubEditor: { state: { doc: { toString(): string } } } }).hubEditor.state.doc.toString());

/** Replaces the whole text in one transaction, as a paste does (Chromium's insertText turns runs of spaces into no-break spaces). */
async function replaceText(page: Page, text: string): Promise<void> {
  await page.click('#editor-host .cm-content');
  await page.evaluate((insert) => {
    const view = (window as unknown as { hubEditor: { state: { doc: { length: number } }; dispatch(spec: object): void } }).hubEditor;
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert }, userEvent: 'input.paste' });
  }, text);
}

/** The diagnostics list once it shows the check of the current text. */
async function diagnosticsOf(page: Page): Promise<string[]> {
  await page.waitForFunction(() => {
    const root = document.getElementById('editor')!;
    const view = (window as unknown as { hubEditor: { state: { doc: { length: number } } } }).hubEditor;
    return root.dataset.checked === String(view.state.doc.length);
  });
  return page.locator('#diagnostics li').allTextContents();
}

describe('model editor in Chromium', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    server = await startTestServer({ seed: true, env: { ANALYSIS_WORKERS: '0' } });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the diagnostic of a typed error at its line, as hub uvl check does, and makes no request while typing', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchPageErrors(page);
    await page.goto(`${server.baseUrl}/editor`);
    await page.waitForSelector('#editor[data-ready="true"]');
    await page.waitForSelector('#panel[data-state]');
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));

    await replaceText(page, BROKEN.replace('Light = on', 'Light'));
    // The error typed key by key at the end of line 9.
    await page.click('#editor-host .cm-line:nth-child(9)');
    await page.keyboard.press('End');
    await page.keyboard.type(' = on', { delay: 20 });
    assert.equal(await editorText(page), BROKEN);
    const shown = await diagnosticsOf(page);
    const cli = checkUvl(BROKEN);
    assert.equal(cli.valid, false);
    assert.deepEqual(shown, [...cli.errors, ...cli.warnings], 'the same lines as hub uvl check');
    assert.match(shown[0]!, /^Line 9:/);
    assert.equal(await page.getAttribute('#diagnostics li:first-child', 'data-line'), '9');
    assert.equal(await page.locator('.cm-lintRange-error').count() >= 1, true, 'the error is underlined in the text');
    await page.waitForSelector('#panel[data-state="invalid"]');
    await page.screenshot({ path: screenshotPath('editor-error-1280') });

    assert.deepEqual(requests, [], 'no request while typing');
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('shows the count of the fixed model, as hub uvl analyze does, with the diagram, and marks the result stale on an edit', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchPageErrors(page);
    await page.goto(`${server.baseUrl}/editor`);
    await page.waitForSelector('#editor[data-ready="true"]');
    await replaceText(page, FIXED);
    assert.deepEqual(await diagnosticsOf(page), []);
    const expected = analyzeModel(parseUvl(FIXED).model, { text: FIXED }).configurations;
    await page.waitForSelector('#panel[data-state="current"]');
    assert.equal(await page.textContent('#live-configurations'), expected);
    assert.equal(await page.locator('#panel-diagram svg g.feature[data-feature="Basket"]').count(), 1);
    await page.screenshot({ path: screenshotPath('editor-analysis-1280') });

    await page.keyboard.press('Control+End');
    await page.keyboard.type('// a note');
    assert.equal(await page.getAttribute('#panel', 'data-state'), 'stale');
    await page.waitForSelector('#panel[data-state="current"]');
    assert.deepEqual(errors, []);
    await page.close();
  });
});
