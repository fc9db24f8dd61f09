// Measurements of the editor in Chromium, shared by bench/editor.bench.ts and the large-model
// journey: each is taken in the page with performance.now(), from the keydown to what the person
// sees (the diagnostic listed, the typed character drawn).
import type { Page } from 'playwright-core';

interface EditorWindow {
  hubEditor: { state: { doc: { length: number; line(n: number): { to: number }; lines: number } }; dispatch(spec: object): void; focus(): void };
  keyAt?: number;
  drawnAt?: number;
}

/** Puts the cursor at the end of line `line` and starts listening for the next keydown. */
async function prepare(page: Page, line: number): Promise<void> {
  await page.evaluate((n) => {
    const w = window as unknown as EditorWindow;
    const view = w.hubEditor;
    view.dispatch({ selection: { anchor: view.state.doc.line(n).to } });
    view.focus();
    w.keyAt = undefined;
    w.drawnAt = undefined;
    document.addEventListener('keydown', () => { w.keyAt = performance.now(); }, { capture: true, once: true });
  }, line);
}

/** Milliseconds from a keystroke at the end of `line` to the diagnostics of the new text being listed. */
export async function keystrokeToDiagnostic(page: Page, line: number, key: string): Promise<{ ms: number; first: string }> {
  await prepare(page, line);
  await page.keyboard.press(key);
  await page.waitForFunction(() => {
    const w = window as unknown as EditorWindow;
    const root = document.getElementById('editor')!;
    return w.keyAt !== undefined && Number(root.dataset.checkedAt) > w.keyAt && root.dataset.checked === String(w.hubEditor.state.doc.length);
  }, undefined, { timeout: 60_000, polling: 'raf' });
  return page.evaluate(() => ({
    ms: Number(document.getElementById('editor')!.dataset.checkedAt) - (window as unknown as EditorWindow).keyAt!,
    first: document.querySelector('#diagnostics li')?.textContent ?? '',
  }));
}

/** Milliseconds from a keystroke at the end of `line` to the frame that shows the typed character. */
export async function keystrokeAnswered(page: Page, line: number, key: string): Promise<number> {
  await prepare(page, line);
  await page.evaluate(() => {
    const w = window as unknown as EditorWindow;
    const content = document.getElementById('editor-host')!.shadowRoot!.querySelector('.cm-content')!;
    const observer = new MutationObserver(() => {
      observer.disconnect();
      requestAnimationFrame(() => { w.drawnAt = performance.now(); });
    });
    observer.observe(content, { childList: true, subtree: true, characterData: true });
  });
  await page.keyboard.press(key);
  await page.waitForFunction(() => (window as unknown as EditorWindow).drawnAt !== undefined, undefined, { timeout: 60_000 });
  return page.evaluate(() => (window as unknown as EditorWindow).drawnAt! - (window as unknown as EditorWindow).keyAt!);
}

/** Milliseconds from the navigation's start to the first check of the opened text listed. */
export async function openedIn(page: Page, url: string): Promise<number> {
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById('editor')?.dataset.checkedAt !== undefined, undefined, { timeout: 60_000 });
  return page.evaluate(() => Number(document.getElementById('editor')!.dataset.checkedAt));
}

/** Milliseconds the panel's worker took for the current text, once the panel is up to date. */
export async function analysisIn(page: Page): Promise<{ ms: number; configurations: string }> {
  await page.waitForSelector('#panel[data-state="current"]', { timeout: 120_000 });
  return page.evaluate(() => ({
    ms: Number(document.getElementById('panel')!.dataset.ms),
    configurations: document.getElementById('live-configurations')?.textContent ?? '',
  }));
}

/** Waits until the panel answered the current text (a result, or that the text has errors). */
export async function panelSettled(page: Page): Promise<void> {
  await page.waitForSelector('#panel[data-state="current"], #panel[data-state="invalid"]', { timeout: 120_000 });
}
