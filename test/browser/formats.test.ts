// Browser journey of a model in another format (issue 27): a FeatureIDE file dropped on the
// upload page is converted to UVL and its loss report shown while staging; a file that does not
// convert shows its line-numbered error; the DOI page lists the loss report and the original.
// Screenshots go to test-output/screenshots/.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { storedEntries } from '../support/stored.ts';
import { browserSkipReason, dropFiles, screenshotPath, useBrowserServer, watchPageErrors } from './support.ts';

const skip = browserSkipReason();
const FEATUREIDE = readFileSync(join(import.meta.dirname, '../../packages/uvl/src/formats/fixtures/car.featureide.xml'), 'utf8');
const BROKEN_FEATUREIDE = '<?xml version="1.0"?>\n<featureModel>\n<struct>\n<and name="A">\n</struct>\n</featureModel>\n';

describe('a FeatureIDE model through the upload page in a browser', { skip }, () => {
  const hub = useBrowserServer({ seed: true });

  it('shows the loss report while staging and on the DOI page', async () => {
    const { server, browser } = hub;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.goto(`${server.baseUrl}/login`);
    await page.fill('input[name="email"]', 'user2@example.com');
    await page.fill('input[name="password"]', '1234');
    await Promise.all([page.waitForURL(`${server.baseUrl}/`), page.click('form button[type="submit"]')]);

    await page.goto(`${server.baseUrl}/dataset/upload`);
    await dropFiles(page, [{ name: 'journey-car.xml', content: FEATUREIDE }, { name: 'journey-broken.xml', content: BROKEN_FEATUREIDE }]);
    const car = page.locator('.model-entry', { hasText: 'journey-car.uvl' });
    await car.locator('.model-status', { hasText: 'Valid' }).waitFor();
    const report = car.locator('.model-conversion');
    await report.waitFor({ state: 'visible' });
    const text = await report.innerText();
    assert.match(text, /Converted from FeatureIDE \(journey-car\.xml, kept beside the model\): 4 things could not be carried over/);
    assert.match(text, /feature `Maps\.v2` renamed to `Maps_v2`/);
    const broken = page.locator('.model-entry', { hasText: 'journey-broken.xml' });
    await broken.locator('.model-status', { hasText: 'Not staged' }).waitFor();
    assert.match(await broken.locator('.model-errors').innerText(), /Line 5:\d+ - not well-formed XML/);
    await page.screenshot({ path: screenshotPath('formats-upload-featureide-losses'), fullPage: true });
    const userId = (await server.hub.db.selectFrom('user').select('id').where('email', '=', 'user2@example.com').executeTakeFirstOrThrow()).id;
    assert.deepEqual(await storedEntries(server, `temp/${userId}/`), ['.originals', 'journey-car.uvl'], 'the broken file was not kept');

    await broken.locator('.js-remove-model').click();
    await broken.waitFor({ state: 'detached' });
    await page.fill('#title', 'Converted journey');
    await page.fill('#desc', 'A FeatureIDE model converted on upload.');
    await Promise.all([page.waitForURL(/\/doi\/10\.1234\/fakenodo\.\d+\/$/), page.click('#upload-button')]);
    const row = page.locator('.conversion-report');
    assert.match(await row.innerText(), /Converted to UVL from FeatureIDE XML: journey-car\.xml/);
    assert.match(await row.innerText(), /4 things could not be carried over/);
    await page.screenshot({ path: screenshotPath('formats-doi-page-losses'), fullPage: true });
    // The broken file's 400 is the one expected failed request.
    assert.deepEqual(errors.filter((e) => !e.includes('/dataset/file/upload') && !e.includes('400')), []);
    await context.close();
  });
});
