// Issue 10 in Chromium: a protected page sends to the login and back; the password reset
// journey through the email caught by the in-process SMTP server; the email change; the
// lockout message. Screenshots of each email's landing page and of the lockout go to
// test-output/screenshots/.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startTestSmtp, type TestSmtp } from '../support/smtp.ts';
import { browserSkipReason, launchBrowser, screenshotPath } from './support.ts';

const skip = browserSkipReason();

describe('accounts in Chromium', { skip }, () => {
  let server: TestServer;
  let smtp: TestSmtp;
  let browser: Browser;
  before(async () => {
    smtp = await startTestSmtp();
    server = await startTestServer({ seed: true, env: { SMTP_URL: smtp.url } });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await smtp?.close();
  });

  const watch = (page: Page, problems: string[]) => {
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text()); });
  };
  const noSidewaysScroll = async (page: Page) =>
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth) <= 0, `no horizontal scrolling on ${page.url()}`);

  for (const [label, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 375, height: 740 }]] as const) {
    it(`resets a forgotten password from the emailed link and returns to the page asked for (${label})`, async () => {
      const email = `forgetful.${label}@example.com`;
      const signup: BrowserContext = await browser.newContext({ viewport });
      const before = await signup.newPage();
      await before.goto(`${server.baseUrl}/signup/`);
      await before.fill('#name', 'Forgetful');
      await before.fill('#surname', 'Person');
      await before.fill('#email', email);
      await before.fill('#password', 'first-password-1');
      await before.fill('#password_confirm', 'first-password-1');
      await Promise.all([before.waitForURL(`${server.baseUrl}/`), before.click('main button[type="submit"]')]);

      const context = await browser.newContext({ viewport, reducedMotion: 'reduce' });
      const page = await context.newPage();
      const problems: string[] = [];
      watch(page, problems);
      await page.goto(`${server.baseUrl}/dataset/upload`);
      assert.equal(page.url(), `${server.baseUrl}/login?next=%2Fdataset%2Fupload`);
      await Promise.all([page.waitForURL(`${server.baseUrl}/forgot-password`), page.click('text=Forgot your password?')]);
      await page.fill('#email', email);
      await Promise.all([page.waitForEvent('load'), page.click('main button[type="submit"]')]);
      assert.match(await page.textContent('#reset-sent') ?? '', /we have sent it a link/);
      await noSidewaysScroll(page);
      await page.screenshot({ path: screenshotPath(`accounts-reset-sent-${label}`), fullPage: true });

      const mail = await smtp.take(email);
      const path = smtp.linkPath(mail, '/reset-password/');
      // The email itself, as a mail client at this width shows its HTML part.
      const html = /<!doctype html>[\s\S]*<\/html>/i.exec(mail.decoded)?.[0];
      assert.ok(html, 'the email has an HTML part');
      const mailPage = await context.newPage();
      await mailPage.setContent(html);
      await noSidewaysScroll(mailPage);
      await mailPage.screenshot({ path: screenshotPath(`accounts-reset-email-${label}`), fullPage: true });
      await mailPage.close();

      await page.goto(`${server.baseUrl}${path}`);
      await noSidewaysScroll(page);
      await page.screenshot({ path: screenshotPath(`accounts-reset-form-${label}`), fullPage: true });
      await page.fill('#password', 'short');
      await page.fill('#password_confirm', 'short');
      await Promise.all([page.waitForEvent('load'), page.click('main button[type="submit"]')]);
      assert.match(await page.textContent('#password-errors') ?? '', /at least 8 characters/);
      await page.fill('#password', 'second-password-2');
      await page.fill('#password_confirm', 'second-password-2');
      await Promise.all([page.waitForURL(`${server.baseUrl}/`), page.click('main button[type="submit"]')]);
      assert.match(await page.textContent('.alert-success') ?? '', /Your password was changed and you are logged in/);
      await page.screenshot({ path: screenshotPath(`accounts-reset-done-${label}`), fullPage: true });

      await before.reload();
      assert.match(await before.textContent('nav') ?? '', /Log in/, 'the session from before the reset has ended');
      await page.goto(`${server.baseUrl}${path}`);
      assert.match(await page.textContent('#invalid-link') ?? '', /used already or has expired/);
      await page.screenshot({ path: screenshotPath(`accounts-reset-used-link-${label}`), fullPage: true });

      // Logged out, the login returns to the page that asked for it.
      await page.goto(`${server.baseUrl}/logout`);
      await page.goto(`${server.baseUrl}/profile/edit`);
      await page.fill('#email', email);
      await page.fill('#password', 'second-password-2');
      await Promise.all([page.waitForURL(`${server.baseUrl}/profile/edit`), page.click('main button[type="submit"]')]);
      assert.deepEqual(problems, [], 'no script error or CSP violation');
      await signup.close();
      await context.close();
    });
  }

  it('changes the email through the link sent to the new address', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 740 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    const problems: string[] = [];
    watch(page, problems);
    await page.goto(`${server.baseUrl}/login?next=%2Fprofile%2Femail`);
    await page.fill('#email', 'user2@example.com');
    await page.fill('#password', '1234');
    await Promise.all([page.waitForURL(`${server.baseUrl}/profile/email`), page.click('main button[type="submit"]')]);
    await page.fill('#email', 'jane.new@example.com');
    await page.fill('#current_password', '1234');
    await Promise.all([page.waitForURL(`${server.baseUrl}/profile/summary`), page.click('main button[type="submit"]')]);
    assert.match(await page.textContent('.alert-info') ?? '', /We sent a link to jane\.new@example\.com/);
    await noSidewaysScroll(page);
    const path = smtp.linkPath(await smtp.take('jane.new@example.com'), '/confirm-email/');
    await page.goto(`${server.baseUrl}${path}`);
    assert.equal(page.url(), `${server.baseUrl}/profile/summary`);
    assert.match(await page.textContent('.alert-success') ?? '', /Your email address is now jane\.new@example\.com/);
    assert.match(await page.textContent('#profile-card') ?? '', /jane\.new@example\.com/);
    await noSidewaysScroll(page);
    await page.screenshot({ path: screenshotPath('accounts-email-confirmed-phone'), fullPage: true });
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('tells how long a lockout lasts after 10 wrong passwords', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 740 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/login`);
    for (let i = 0; i < 11; i++) {
      await page.fill('#email', 'user1@example.com');
      await page.fill('#password', `wrong-${i}`);
      await Promise.all([page.waitForEvent('load'), page.click('main button[type="submit"]')]);
    }
    const message = await page.textContent('#password-errors') ?? '';
    assert.match(message, /Too many failed login attempts\. Please try again in 1[45] minutes/);
    await noSidewaysScroll(page);
    await page.screenshot({ path: screenshotPath('accounts-lockout-phone'), fullPage: true });
    await context.close();
    await server.hub.db.deleteFrom('login_attempt').execute();
  });
});
