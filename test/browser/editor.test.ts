// Browser journeys of the model editor (extensions section 12, issue 38) in Chromium: diagnostics
// as you type equal `hub uvl check`'s, the live count equals `hub uvl analyze`'s, rename, format,
// save as draft and as a new version, and no request to the server while typing.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { checkUvl, parseUvl, printUvl } from '../../packages/uvl/src/index.ts';
import { analyzeModel } from '../../packages/analysis/src/index.ts';
import type { TestServer } from '../support/server.ts';
import { DEAD_MODEL, storeModel } from '../../src/modules/model/model.test-support.ts';
import { userIdByEmail } from '../support/fixtures.ts';
import { browserSkipReason, useBrowserServer, loggedInPage, screenshotPath, watchPageErrors } from './support.ts';
import { seriousViolations } from './axe.ts';
import { text } from 'node:stream/consumers';

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
  const env = useBrowserServer({ seed: true, env: { ANALYSIS_WORKERS: '0' } });
  let server: TestServer;
  let browser: Browser;
  before(() => ({ server, browser } = env));

  it('shows the diagnostic of a typed error at its line, as hub uvl check does, and makes no request while typing', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchPageErrors(page);
    await page.goto(`${server.baseUrl}/editor`);
    await page.waitForSelector('#editor[data-ready="true"]');
    // The panel's first answer, and its reserve worker with every chunk of its script loaded: on a
    // loaded machine the workers' scripts come after the panel starts, and an edit under the first
    // analysis would cancel it and make the panel start (and fetch) a new reserve once typing pauses.
    await page.waitForSelector('#panel[data-state="current"], #panel[data-state="invalid"]');
    await page.waitForSelector('#panel[data-spare-ready="1"]');
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));

    await replaceText(page, BROKEN.replace('Light = on', 'Light'));
    // The panel catches up with the pasted text before the typing starts (not under a running analysis).
    await page.waitForSelector('#panel[data-state="current"]');
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
    await page.keyboard.press('Escape'); // the completion list, open after "on"
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

    // The panel's states are recorded with the length of the text they were set for: it catches up
    // SETTLE_MS after the typing pauses, which on a loaded machine can come before the test reads it.
    await page.evaluate(() => {
      const panel = document.getElementById('panel')!;
      const w = window as unknown as { panelStates: { state: string; length: number }[]; hubEditor: { state: { doc: { length: number } } } };
      w.panelStates = [];
      new MutationObserver(() => w.panelStates.push({ state: panel.dataset.state ?? '', length: w.hubEditor.state.doc.length }))
        .observe(panel, { attributes: true, attributeFilter: ['data-state'] });
    });
    await page.keyboard.press('Control+End');
    await page.keyboard.type('// a note');
    const typedLength = FIXED.length + '// a note'.length;
    assert.equal(await page.evaluate((n) => (window as unknown as { panelStates: { state: string; length: number }[] }).panelStates.find((s) => s.length === n)?.state, typedLength), 'stale');
    await page.waitForSelector('#panel[data-state="current"]');
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('links a dead feature\'s explanation to its lines: a click puts the cursor there', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchPageErrors(page);
    await page.goto(`${server.baseUrl}/editor`);
    await page.waitForSelector('#editor[data-ready="true"]');
    await replaceText(page, DEAD_MODEL);
    await page.waitForSelector('#panel[data-state="current"]');
    const dead = page.locator('#live-dead li.anomaly[data-feature="Turbo"]');
    assert.equal(await dead.count(), 1);
    const links = dead.locator('button.explanation-line');
    const texts = await links.allTextContents();
    assert.ok(texts.length > 0, 'the explanation names lines');
    const line = Number(/Line (\d+)/.exec(texts[0]!)![1]);
    await links.first().click();
    const cursorLine = await page.evaluate(() => {
      const view = (window as unknown as { hubEditor: { state: { selection: { main: { head: number } }; doc: { lineAt(p: number): { number: number } } } } }).hubEditor;
      return view.state.doc.lineAt(view.state.selection.main.head).number;
    });
    assert.equal(cursorLine, line);
    assert.equal(await page.locator('#panel-diagram svg g.dead[data-feature="Turbo"]').count(), 1, 'the diagram marks it dead');
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('goes to a declaration, renames a feature with its references, and formats with the hub\'s printer', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchPageErrors(page);
    await page.goto(`${server.baseUrl}/editor`);
    await page.waitForSelector('#editor[data-ready="true"]');
    await replaceText(page, FIXED);
    await diagnosticsOf(page);
    const reference = FIXED.indexOf('Frame', FIXED.indexOf('constraints'));
    await page.evaluate((at) => (window as unknown as { hubEditor: { dispatch(s: object): void } }).hubEditor.dispatch({ selection: { anchor: at } }), reference + 1);
    await page.keyboard.press('F12');
    const selected = await page.evaluate(() => (window as unknown as { hubEditor: { state: { selection: { main: { from: number; to: number } } } } }).hubEditor.state.selection.main);
    assert.deepEqual([selected.from, selected.to], [FIXED.indexOf('Frame'), FIXED.indexOf('Frame') + 5], 'F12 selects the declaration');

    await page.click('#btn-rename');
    assert.equal(await page.inputValue('#rename-from'), 'Frame');
    await page.fill('#rename-to', 'Main frame');
    await page.click('#rename-form button[type="submit"]');
    assert.equal(await editorText(page), FIXED.replaceAll('Frame', '"Main frame"'));
    assert.deepEqual(await diagnosticsOf(page), []);

    const messy = FIXED.replaceAll('    ', '\t').replace('Basket => Frame', 'Basket   =>    Frame');
    await replaceText(page, messy);
    await diagnosticsOf(page);
    await page.click('#btn-format');
    assert.equal(await editorText(page), printUvl(parseUvl(messy).model));
    assert.notEqual(await editorText(page), messy);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('saves as a draft dataset holding exactly the edited text, and keeps unsaved text over a reload', async () => {
    const page = await loggedInPage(browser, server);
    const errors = watchPageErrors(page);
    await page.goto(`${server.baseUrl}/editor`);
    await page.waitForSelector('#editor[data-ready="true"]');
    await replaceText(page, FIXED);
    await diagnosticsOf(page);
    // Unsaved changes survive a reload, with a notice.
    await page.waitForFunction(() => localStorage.getItem('hub-editor:new') !== null);
    await page.reload();
    await page.waitForSelector('#editor[data-ready="true"]');
    assert.equal(await editorText(page), FIXED);
    assert.match(await page.textContent('#draft-notice') ?? '', /Restored your unsaved changes/);

    await page.fill('#draft-title', 'Bikes from the editor');
    await Promise.all([page.waitForURL((url) => !url.pathname.startsWith('/editor')), page.click('#btn-save-draft')]);
    const fileId = await page.getAttribute('.file-row[data-file-id]', 'data-file-id');
    assert.ok(fileId, 'the draft lists its file');
    const stored = await page.request.get(`${server.baseUrl}/file/download/${fileId}`);
    assert.equal(stored.status(), 200);
    assert.equal(await stored.text(), FIXED, 'the exact text is in the dataset');
    assert.match(await page.textContent('main') ?? '', /Bikes from the editor/);
    assert.equal(await page.evaluate(() => localStorage.getItem('hub-editor:new')), null, 'the saved text is no longer kept aside');
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('opens a stored model and saves a new version: the version form opens with the edited model staged', async () => {
    const { fileId } = await storeModel(server, { content: FIXED, name: 'bikes.uvl' });
    const page = await loggedInPage(browser, server);
    const errors = watchPageErrors(page);
    await page.goto(`${server.baseUrl}/model/${fileId}/`);
    await Promise.all([page.waitForURL(`${server.baseUrl}/editor/file/${fileId}`), page.click('#open-in-editor')]);
    await page.waitForSelector('#editor[data-ready="true"]');
    assert.equal(await editorText(page), FIXED);
    const edited = FIXED.replace('Basket => Frame', 'Basket => Bell');
    await replaceText(page, edited);
    await diagnosticsOf(page);
    // Before publishing, the semantic comparison with the stored model: Basket => Frame held
    // always (Frame is mandatory), Basket => Bell takes configurations away.
    await page.waitForSelector('#version-comparison[data-edit-class="specialization"]');
    assert.match(await page.textContent('#version-comparison') ?? '', /specialization/);
    await Promise.all([page.waitForURL(/\/dataset\/upload\?version_of=\d+$/), page.click('#btn-save-version')]);
    const userId = await userIdByEmail(server.hub.ctx.db, 'user1@example.com');
    const staged = await server.hub.ctx.services.dataset.listStagedFiles(userId);
    assert.deepEqual(staged.map((f) => f.filename), ['bikes.uvl']);
    const content = await server.hub.ctx.store.get(server.hub.ctx.services.dataset.stagingFolder(userId) + 'bikes.uvl');
    assert.equal(await text(content!.body), edited);
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('refuses a new version to anyone but the owner, and a save without an account', async () => {
    const { fileId } = await storeModel(server, { content: FIXED, name: 'owned.uvl' });
    const page = await loggedInPage(browser, server, 'user2@example.com');
    await page.goto(`${server.baseUrl}/editor/file/${fileId}`);
    await page.waitForSelector('#editor[data-ready="true"]');
    assert.equal(await page.locator('#btn-save-version').count(), 0, 'no Save as new version for another user');
    assert.equal(await page.locator('#btn-save-draft').count(), 1, 'Save as draft is anyone\'s with an account');
    await page.context().close();
    const anonymous = await browser.newPage();
    await anonymous.goto(`${server.baseUrl}/editor/file/${fileId}`);
    assert.equal(await anonymous.locator('form.js-save-text').count(), 0);
    assert.equal((await anonymous.goto(`${server.baseUrl}/editor/file/999999`))!.status(), 404);
    await anonymous.close();
  });

  it('tells a keyboard user how to leave the text (Tab indents): Esc, then Tab, moves the focus out', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.baseUrl}/editor`);
    await page.waitForSelector('#editor[data-ready="true"]');
    const content = page.locator('#editor-host .cm-content');
    assert.equal(await content.getAttribute('aria-describedby'), 'editor-keys');
    assert.match(await page.locator('#editor-keys').innerText(), /Esc, then Tab/);
    const focusedInText = () => page.evaluate(() => document.activeElement?.closest('#editor-host') !== null);
    await content.click();
    await page.keyboard.press('Tab');
    assert.equal(await focusedInText(), true, 'Tab alone indents and keeps the focus in the text');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    assert.equal(await focusedInText(), false, 'Esc, then Tab, leaves the text');
    await page.close();
  });

  it('has no serious axe violation on a stored model longer than the text box (its scroller holds the focusable text)', async () => {
    const features = Array.from({ length: 120 }, (_, i) => `            Feature_${i}_with_a_long_name_that_runs_past_the_box_${'x'.repeat(40)}`).join('\n');
    const { fileId } = await storeModel(server, { content: `features\n    Root\n        optional\n${features}\n`, name: 'long.uvl' });
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, bypassCSP: true, reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/editor/file/${fileId}`);
    await page.waitForSelector('#editor[data-ready="true"]');
    assert.deepEqual(await seriousViolations(page), []);
    await context.close();
  });

  it('is usable at phone width and has no serious axe violations, with an error and with the analysis shown, at phone and desktop width', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, bypassCSP: true, reducedMotion: 'reduce' });
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (r) => scripts.push(new URL(r.url()).pathname));
    await page.goto(`${server.baseUrl}/editor`);
    await page.waitForSelector('#editor[data-ready="true"]');
    assert.equal(scripts.some((p) => /analysis\.worker|\/panel-/.test(p)), false, 'the panel and the engine load only when the panel is shown');
    await replaceText(page, BROKEN);
    await diagnosticsOf(page);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `the page fits the phone (${width} px)`);
    await page.screenshot({ path: screenshotPath('editor-error-390') });
    assert.deepEqual(await seriousViolations(page), []);
    await replaceText(page, FIXED);
    await page.click('#btn-panel');
    await page.waitForSelector('#panel[data-state="current"]');
    // The reserve worker starts beside the working one and may load its script after the first answer.
    await page.waitForSelector('#panel[data-spare-ready="1"]');
    assert.equal(scripts.filter((p) => /analysis\.worker-/.test(p)).length, 2, 'the worker\'s script, once shown, for the working and the reserve worker');
    await page.mouse.move(0, 0); // the hover colour of the button is not what axe should judge
    await page.locator('#panel').scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('editor-analysis-390') });
    assert.deepEqual(await seriousViolations(page), []);
    // The same page at desktop width: text and panel side by side.
    await page.setViewportSize({ width: 1280, height: 900 });
    assert.deepEqual(await seriousViolations(page), []);
    await context.close();
  });
});
