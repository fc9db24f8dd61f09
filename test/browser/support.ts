// Launches Debian's Chromium through playwright-core for browser journeys.
// Without a browser the journeys skip visibly, unless E2E_REQUIRED=1 (then they fail).
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { after, before } from 'node:test';
import { projectPath } from '../../src/core/config.ts';
import { startTestServer, type TestServer, type TestServerOptions } from '../support/server.ts';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOT_DIR = projectPath('test-output', 'screenshots');

/** The reason browser tests are skipped, or false when they can run. */
export function browserSkipReason(): string | false {
  if (existsSync(CHROMIUM_PATH)) return false;
  const reason = `no Chromium at ${CHROMIUM_PATH} (install Debian's chromium package)`;
  if (process.env.E2E_REQUIRED === '1') throw new Error(`E2E_REQUIRED=1 but ${reason}`);
  console.warn(`SKIPPING browser tests: ${reason}`);
  return reason;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

/**
 * Registers the suite's hooks: a test server (with `options`) and Chromium start before the
 * tests and close after them. Read `server` and `browser` from the returned object in the tests.
 */
export function useBrowserServer(options: TestServerOptions = { seed: true }): { readonly server: TestServer; readonly browser: Browser } {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  before(async () => {
    server = await startTestServer(options);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
  return { get server() { return server!; }, get browser() { return browser!; } };
}

export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return join(SCREENSHOT_DIR, `${name}.png`);
}

/** Drops files on the upload page's drop zone, as a person dragging them from their desktop would. */
export async function dropFiles(page: Page, files: { name: string; content: string }[]): Promise<void> {
  const dataTransfer = await page.evaluateHandle((list) => {
    const transfer = new DataTransfer();
    for (const f of list) transfer.items.add(new File([f.content], f.name, { type: 'text/plain' }));
    return transfer;
  }, files);
  await page.dispatchEvent('#drop-zone', 'dragenter', { dataTransfer });
  await page.dispatchEvent('#drop-zone', 'drop', { dataTransfer });
}

/** Collects a page's script errors, console errors and failed requests (4xx, 5xx) for a journey to assert none. */
export function watchPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('response', (r) => { if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`); });
  return errors;
}

/** A page of a new 1280 × 900 context (reduced motion: screenshots show finished states), logged in through the login form. */
export async function loggedInPage(browser: Browser, server: TestServer, email = 'user1@example.com', password = '1234'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}/login`);
  await page.fill('#email', email);
  await page.fill('#password', password);
  await Promise.all([page.waitForURL(`${server.baseUrl}/`), page.click('main button[type="submit"]')]);
  return page;
}
