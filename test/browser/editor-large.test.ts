// The editor on the corpus' large models in Chromium (extensions section 12): on automotive01 a
// typed error's diagnostic is `hub uvl check`'s and the worker's count is `hub uvl analyze`'s; the
// largest model, automotive2_4, opens and takes keystrokes. The times of the section's targets
// are measured and printed (test diagnostics), not asserted: `npm run bench:editor` reports them.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { checkUvl, parseUvl } from '../../packages/uvl/src/index.ts';
import { analyzeModel } from '../../packages/analysis/src/index.ts';
import { corpusSkipReason, findCorpus } from '../../packages/uvl/src/corpus.support.ts';
import type { TestServer } from '../support/server.ts';
import { storeModel } from '../../src/modules/model/model.test-support.ts';
import { browserSkipReason, useBrowserServer, watchPageErrors } from './support.ts';
import { analysisIn, keystrokeAnswered, keystrokeToDiagnostic, openedIn } from './editor-timing.ts';
import { LARGEST } from './largest-model.ts';

const A01 = 'real/Feature_Models/Automotive/Automotive01/automotive01.uvl';
const corpus = findCorpus();
const skip = browserSkipReason() || (corpus ? false : corpusSkipReason);

describe('model editor on large models in Chromium', { skip }, () => {
  const env = useBrowserServer({ seed: true, env: { ANALYSIS_WORKERS: '0' } });
  let server: TestServer;
  let browser: Browser;
  before(() => ({ server, browser } = env));

  it('automotive01: a typed error gives hub uvl check\'s diagnostic at its line, and the worker counts what hub uvl analyze counts', async (t) => {
    const text = corpus!.read(A01);
    const { fileId } = await storeModel(server, { content: text, name: 'automotive01.uvl' });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchPageErrors(page);
    const opened = await openedIn(page, `${server.baseUrl}/editor/file/${fileId}`);
    const analysis = await analysisIn(page);
    assert.equal(analysis.configurations, analyzeModel(parseUvl(text).model, { text }).configurations);

    // An edit while the worker analyses cancels it (the reserve worker takes over) and asks the server
    // for nothing. Once typing pauses the panel starts the next reserve worker, which loads its script:
    // only requests before that next analysis starts are typing's.
    await page.waitForSelector('#panel[data-spare-ready]');
    const requests: { url: string; at: number }[] = [];
    page.on('request', (r) => requests.push({ url: r.url(), at: Date.now() }));
    await page.evaluate(() => {
      const view = (window as unknown as { hubEditor: { state: { doc: { line(n: number): { to: number } } }; dispatch(s: object): void; focus(): void } }).hubEditor;
      const end = view.state.doc.line(10).to;
      view.dispatch({ changes: { from: end, insert: ' ' }, selection: { anchor: end + 1 } });
      view.focus();
    });
    await page.waitForSelector('#panel[data-state="running"]');
    // The states the panel passes through are recorded: on a loaded machine the next analysis may
    // start (the typing paused) before the test reads the attribute back.
    await page.evaluate(() => {
      const panel = document.getElementById('panel')!;
      const seen: string[] = [];
      const w = window as unknown as { panelStates: string[]; rerunAt?: number };
      w.panelStates = seen;
      new MutationObserver(() => {
        const state = panel.dataset.state ?? '';
        if (state === 'running' && seen.includes('stale')) w.rerunAt ??= Date.now();
        seen.push(state);
      }).observe(panel, { attributes: true, attributeFilter: ['data-state'] });
    });
    await page.keyboard.press('Backspace');
    await page.waitForFunction(() => (window as unknown as { panelStates: string[] }).panelStates.length > 0);
    assert.equal(await page.evaluate(() => (window as unknown as { panelStates: string[] }).panelStates[0]), 'stale');
    assert.equal(await page.getAttribute('#panel', 'data-cancelled'), '1', 'the running analysis was cancelled (its worker terminated)');
    const seenSoFar = [...requests];
    const rerunAt = await page.evaluate(() => (window as unknown as { rerunAt?: number }).rerunAt) ?? Infinity;
    assert.deepEqual(seenSoFar.filter((r) => r.at < rerunAt).map((r) => r.url), [], 'no request while typing, a cancel included');
    await analysisIn(page);
    const typed = await keystrokeToDiagnostic(page, 10, '=');
    const lines = text.split('\n');
    lines[9] += '=';
    assert.equal(typed.first, checkUvl(lines.join('\n')).errors[0]);
    assert.match(typed.first, /^Line 10:/);
    t.diagnostic(`automotive01: opened ${opened.toFixed(0)} ms, analysed in the worker ${analysis.ms} ms, keystroke to diagnostic ${typed.ms.toFixed(0)} ms`);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('automotive2_4 opens with every line and takes a keystroke', async (t) => {
    const text = corpus!.read(LARGEST);
    const { fileId } = await storeModel(server, { content: text, name: 'automotive2_4.uvl' });
    const page = await browser.newPage({ viewport: { width: 960, height: 900 } });
    const errors = watchPageErrors(page);
    const opened = await openedIn(page, `${server.baseUrl}/editor/file/${fileId}`);
    const shown = await page.evaluate(() => (window as unknown as { hubEditor: { state: { doc: { toString(): string } } } }).hubEditor.state.doc.toString());
    assert.ok(shown === text, 'the editor holds the stored text exactly, its leading blank line included');
    assert.equal(checkUvl(text).valid, true);
    assert.equal(await page.getAttribute('#editor', 'data-errors'), '0', 'checked in the page without an error');
    const drawn = await keystrokeAnswered(page, 20, 'x');
    t.diagnostic(`automotive2_4: opened ${opened.toFixed(0)} ms, keystroke drawn ${drawn.toFixed(0)} ms`);
    assert.deepEqual(errors, []);
    await page.close();
  });
});
