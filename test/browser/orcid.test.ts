// ORCID sign-in in Chromium against a real OpenID provider run by the test (oidc-provider on
// loopback, extensions sections 8 and 11): the first sign-in creates an account (names from the ID
// token, the email asked once and confirmed by its link, opened in the same browser), an account with a password links and unlinks its iD from the profile,
// and a tampered state is refused. axe-core checks the new pages.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startTestOidcProvider, type TestOidcProvider } from '../support/oidc-provider.ts';
import { startTestSmtp, type TestSmtp } from '../support/smtp.ts';
import { browserSkipReason, launchBrowser } from './support.ts';
import { seriousViolations } from './axe.ts';

const skip = browserSkipReason();
const FIRST_ORCID = '0000-0002-1825-0097';
const LINKED_ORCID = '0000-0001-5109-3700';

describe('ORCID sign-in in Chromium', { skip }, () => {
  let provider: TestOidcProvider;
  let smtp: TestSmtp;
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    provider = await startTestOidcProvider();
    smtp = await startTestSmtp();
    server = await startTestServer({ env: { ...provider.env, SMTP_URL: smtp.url } });
    provider.serve(`${server.baseUrl}/login/orcid/callback`);
    provider.names.set(FIRST_ORCID, { given_name: 'Josiah', family_name: 'Carberry' });
    provider.names.set(LINKED_ORCID, { given_name: 'Ada', family_name: 'Lovelace' });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await smtp?.close();
    await provider?.close();
  });

  /** The provider's development login and consent pages, as a person fills them. */
  async function signInAtProvider(page: Page, orcid: string): Promise<void> {
    await page.waitForURL(`${provider.issuer}/**`);
    await page.fill('input[name="login"]', orcid);
    await page.fill('input[name="password"]', 'any password');
    await Promise.all([page.waitForEvent('load'), page.click('button[type="submit"]')]);
    if (page.url().startsWith(provider.issuer)) await page.click('button:has-text("Continue")');
  }

  const noSerious = async (page: Page) => assert.deepEqual(await seriousViolations(page), [], `axe on ${page.url()}`);

  it('creates an account at the first sign-in, asking the email once', async () => {
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/login`);
    await page.click('#orcid-button');
    await signInAtProvider(page, FIRST_ORCID);
    await page.waitForURL(`${server.baseUrl}/login/orcid/email`);
    assert.equal(await page.textContent('#orcid-id'), FIRST_ORCID);
    assert.equal(await page.inputValue('#name'), 'Josiah');
    assert.equal(await page.inputValue('#surname'), 'Carberry');
    await noSerious(page);
    await page.fill('#email', 'josiah@example.com');
    await Promise.all([page.waitForEvent('load'), page.click('#orcid-email-form button[type="submit"]')]);
    assert.match(await page.textContent('#orcid-claim-sent') ?? '', /We sent a link to josiah@example\.com/);
    await noSerious(page);
    const link = smtp.linkPath(await smtp.take('josiah@example.com'), '/login/orcid/confirm/');
    await Promise.all([page.waitForURL(`${server.baseUrl}/`), page.goto(`${server.baseUrl}${link}`)]);
    assert.match(await page.textContent('body') ?? '', /Your account signs in with the ORCID iD 0000-0002-1825-0097/);

    await page.goto(`${server.baseUrl}/profile/orcid`);
    assert.match(await page.textContent('#orcid-linked') ?? '', /0000-0002-1825-0097/);
    assert.ok(await page.isVisible('#orcid-unlink-blocked'), 'no password yet: no unlinking');
    await noSerious(page);
    await page.goto(`${server.baseUrl}/profile/edit`);
    assert.equal(await page.inputValue('#orcid'), FIRST_ORCID);

    // Signed out, the same iD signs in to the same account without any question.
    const again = await browser.newContext();
    const second = await again.newPage();
    await second.goto(`${server.baseUrl}/login`);
    await second.click('#orcid-button');
    await signInAtProvider(second, FIRST_ORCID);
    await second.waitForURL(`${server.baseUrl}/`);
    await second.goto(`${server.baseUrl}/profile/orcid`);
    assert.match(await second.textContent('#orcid-linked') ?? '', /0000-0002-1825-0097/);
    const users = await server.hub.db.selectFrom('user').select('email').where('email', '=', 'josiah@example.com').execute();
    assert.equal(users.length, 1);
    await again.close();
    await context.close();
  });

  it('links an ORCID iD to an account with a password, and unlinks it', async () => {
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/signup/`);
    await page.fill('#name', 'Ada');
    await page.fill('#surname', 'Lovelace');
    await page.fill('#email', 'ada@example.com');
    await page.fill('#password', 'ada-password-1');
    await page.fill('#password_confirm', 'ada-password-1');
    await Promise.all([page.waitForURL(`${server.baseUrl}/`), page.click('main button[type="submit"]')]);
    await page.goto(`${server.baseUrl}/profile/edit`);
    await Promise.all([page.waitForURL(`${server.baseUrl}/profile/orcid`), page.click('#orcid-manage')]);
    assert.ok(await page.isVisible('#orcid-not-linked'));
    await page.click('#orcid-link');
    await signInAtProvider(page, LINKED_ORCID);
    await page.waitForURL(`${server.baseUrl}/profile/orcid`);
    assert.match(await page.textContent('#orcid-linked') ?? '', /0000-0001-5109-3700/);
    await noSerious(page);
    await Promise.all([page.waitForEvent('load'), page.click('#orcid-unlink')]);
    assert.ok(await page.isVisible('#orcid-not-linked'), 'unlinked');
    await context.close();
  });

  it('refuses a callback whose state is not the one this session was given, back on the login page with a message', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/login`);
    await page.click('#orcid-button');
    await page.waitForURL(`${provider.issuer}/**`);
    // Another sign-in started in this session (as a forged link would) gives it another state: the
    // provider's answer to the first one then carries a state the session no longer expects.
    const restarted = await context.request.get(`${server.baseUrl}/login/orcid`, { maxRedirects: 0 });
    assert.equal(restarted.status(), 303);
    await signInAtProvider(page, '0000-0003-1415-9269');
    await page.waitForURL(`${server.baseUrl}/login`);
    assert.match(await page.textContent('body') ?? '', /The ORCID sign-in could not be verified/);
    // A hand-made callback with any state is refused too.
    await context.request.get(`${server.baseUrl}/login/orcid`, { maxRedirects: 0 });
    await page.goto(`${server.baseUrl}/login/orcid/callback?code=made-up&state=made-up`);
    assert.equal(page.url(), `${server.baseUrl}/login`);
    assert.match(await page.textContent('body') ?? '', /The ORCID sign-in could not be verified/);
    const links = await server.hub.db.selectFrom('orcid_account').select('orcid').where('orcid', '=', '0000-0003-1415-9269').execute();
    assert.equal(links.length, 0);
    await context.close();
  });
});
