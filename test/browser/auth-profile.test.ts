// Browser journey of issue 2: sign up, log out, log in, edit the profile, open the summary.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { browserSkipReason, useBrowserServer, screenshotPath } from './support.ts';

const skip = browserSkipReason();

describe('auth and profile in Chromium', { skip }, () => {
  const journey = useBrowserServer({ seed: true });

  it('signs up, logs out, logs in, edits the profile and opens the summary', async () => {
    const page = await journey.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('response', (r) => { if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`); });

    await page.goto(`${journey.server.baseUrl}/signup/`);
    await page.fill('#name', 'Grace');
    await page.fill('#surname', 'Hopper');
    await page.fill('#email', 'grace@example.com');
    await page.fill('#password', 'cobol-1959');
    await page.fill('#password_confirm', 'cobol-1959');
    await Promise.all([page.waitForURL(`${journey.server.baseUrl}/`), page.click('button[type="submit"]')]);
    assert.match(await page.textContent('nav') ?? '', /Grace/);

    await page.click('#user-menu');
    // The log-out returns to the address already shown: the wait is for the new page's load.
    await Promise.all([page.waitForEvent('load'), page.click('text=Log out')]);
    await page.waitForURL(`${journey.server.baseUrl}/`);
    assert.match(await page.textContent('nav') ?? '', /Log in/);

    await page.goto(`${journey.server.baseUrl}/login`);
    await page.fill('#email', 'grace@example.com');
    await page.fill('#password', 'cobol-1959');
    await Promise.all([page.waitForURL(`${journey.server.baseUrl}/`), page.click('button[type="submit"]')]);

    await page.goto(`${journey.server.baseUrl}/profile/edit`);
    await page.fill('#orcid', '1234-56');
    await page.fill('#affiliation', 'Yale University');
    await Promise.all([page.waitForEvent('load'), page.click('button[type="submit"]')]);
    assert.match(await page.textContent('#orcid-errors') ?? '', /ORCID must have the format 0000-0000-0000-0000/);
    await page.screenshot({ path: screenshotPath('profile-edit-invalid-orcid'), fullPage: true });

    await page.fill('#orcid', '0000-0002-1825-0097');
    await Promise.all([page.waitForEvent('load'), page.click('button[type="submit"]')]);
    await page.waitForURL(`${journey.server.baseUrl}/profile/edit`);
    assert.match(await page.textContent('.alert-success') ?? '', /Profile updated successfully/);

    await page.goto(`${journey.server.baseUrl}/profile/summary`);
    const card = await page.textContent('#profile-card') ?? '';
    assert.match(card, /Grace Hopper/);
    assert.match(card, /Yale University/);
    assert.match(card, /0000-0002-1825-0097/);
    assert.match(card, /grace@example\.com/);
    await page.screenshot({ path: screenshotPath('profile-summary'), fullPage: true });

    await page.setViewportSize({ width: 375, height: 740 });
    await page.reload();
    await page.screenshot({ path: screenshotPath('profile-summary-phone'), fullPage: true });
    assert.deepEqual(errors, [], 'no script errors or CSP violations in the console');
  });

  it('is usable at phone width: no sideways scrolling, the navigation collapses behind its toggler', async () => {
    const context = await journey.browser.newContext({ viewport: { width: 375, height: 740 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    for (const path of ['/', '/login', '/signup/']) {
      await page.goto(`${journey.server.baseUrl}${path}`);
      assert.ok(await overflow() <= 0, `no horizontal scrolling on ${path}`);
    }
    await page.goto(`${journey.server.baseUrl}/login`);
    await page.fill('#email', 'user1@example.com');
    await page.fill('#password', '1234');
    await Promise.all([page.waitForURL(`${journey.server.baseUrl}/`), page.click('main button[type="submit"]')]);
    for (const path of ['/profile/summary', '/profile/edit']) {
      await page.goto(`${journey.server.baseUrl}${path}`);
      assert.ok(await overflow() <= 0, `no horizontal scrolling on ${path}`);
      assert.ok(await page.isVisible('.navbar-toggler'), 'the toggler shows on a phone');
      assert.equal(await page.isVisible('#user-menu'), false, 'the menu is collapsed');
      await page.click('.navbar-toggler');
      // Bootstrap sets `.show` once the collapse transition has ended; a tap on the menu during
      // the transition can be lost on a loaded machine, and a person waits for the menu to open.
      await page.waitForSelector('.navbar-collapse.show:not(.collapsing)', { state: 'visible' });
      await page.click('#user-menu');
      await page.waitForSelector('#user-menu[aria-expanded="true"]');
      await page.waitForSelector('text=Log out', { state: 'visible' });
    }
    assert.deepEqual(errors, [], 'no script errors or CSP violations in the console');
    await context.close();
  });
});
