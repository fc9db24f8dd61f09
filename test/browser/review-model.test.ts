// Issue 37, item 10, in Chromium: a reviewer with a review link opens a model's page from the
// anonymous dataset page and sees its facts, its diagram (opening a subtree in place), the
// configurator and its source, and nowhere an author, affiliation, ORCID iD or the uploader. The
// dataset is unpublished: only the link's own routes answer the reviewer.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newUser } from '../support/accounts.ts';
import { seriousViolations } from './axe.ts';
import { browserSkipReason, screenshotPath, useBrowserServer, watchPageErrors } from './support.ts';

const skip = browserSkipReason();
const PEOPLE = ['Zyxwvut', 'Qorbin', 'Uniquely Named Institute', '0000-0002-9079-593X', 'Plimsoll', 'Fennimore Lab', 'Reviewedby'];
const MODEL = 'features\n    Kettle\n        mandatory\n            Body\n        optional\n            Whistle\n                alternative\n                    Tin\n                    Brass\n';

describe('a model page through a review link in Chromium', { skip }, () => {
  const env = useBrowserServer({ seed: false });

  it('shows facts, diagram and source of a model without any person or the DOI', async () => {
    const { server, browser } = env;
    const owner = await newUser(server, 'Reviewedby');
    const folder = mkdtempSync(join(tmpdir(), 'hub-review-model-'));
    writeFileSync(join(folder, 'kettle.uvl'), MODEL);
    const datasetId = await server.hub.ctx.services.dataset.createFromFiles(owner.userId, {
      title: 'Kettles under review', description: 'Models of kettles', publicationType: 'none', publicationDoi: null, tags: 'kettle',
      authors: [{ name: 'Zyxwvut, Qorbin', affiliation: 'Uniquely Named Institute', orcid: '0000-0002-9079-593X' }],
    } as never, [{
      path: join(folder, 'kettle.uvl'),
      meta: { name: 'kettle.uvl', title: 'Kettle', description: 'A kettle', publicationType: 'none', publicationDoi: null, tags: '', version: '2.0', authors: [{ name: 'Plimsoll, Ottoline', affiliation: 'Fennimore Lab', orcid: null }] },
    }] as never, { doi: null, createdAt: '2026-01-01T00:00:00.000Z' });
    rmSync(folder, { recursive: true, force: true });
    const expires = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const token = await server.hub.ctx.services.review.create(datasetId, owner.userId, expires);
    const fileRow = await server.hub.db.selectFrom('file').select('id').where('name', '=', 'kettle.uvl').orderBy('id', 'desc').executeTakeFirstOrThrow();
    // The analysis finishes first (a worker computes it), so the facts are there when the page is opened.
    for (;;) {
      const analysis = await server.hub.ctx.services.analysis.getForFile(Number(fileRow.id), owner.userId);
      if (analysis && analysis.status !== 'pending') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    // bypassCSP: axe-core is injected as a script at the end.
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true })).newPage();
    const problems = watchPageErrors(page);
    await page.goto(`${server.baseUrl}/review/${token}/`);
    await Promise.all([page.waitForURL(/\/review\/[^/]+\/model\/\d+\/$/), page.click('a.review-model-link')]);
    assert.equal(await page.locator('#model-title').innerText(), 'Kettle');
    assert.equal(await page.locator('#fact-satisfiable').innerText(), 'yes');
    assert.equal((await page.locator('#fact-configurations').innerText()).trim(), '3');
    assert.equal(await page.locator('#fact-core').innerText(), '2');
    await page.locator('#diagram-frame svg g.feature[data-feature="Whistle"]').waitFor();
    assert.match(await page.locator('#uvl-code').innerText(), /Brass/);
    // The configurator, answered through the link: selecting Tin forces Whistle and leaves one configuration.
    await page.locator('#cfg-remaining', { hasText: '3 configurations remaining' }).waitFor();
    await page.locator('#cfg-tree li[data-feature="Tin"] > .cfg-row button[data-act="select"]').click();
    await page.locator('#cfg-remaining', { hasText: '1 configuration remaining' }).waitFor();
    assert.equal(await page.locator('#cfg-tree li[data-feature="Whistle"] > .cfg-row > .cfg-state').innerText(), 'forced');
    assert.match(page.url(), /\/review\/[^/]+\/model\/\d+\/\?select=Tin$/);
    assert.equal(await page.locator('#samples').count(), 0, 'no samples through a link');
    const violations = await seriousViolations(page);
    assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
    // A subtree opens on the review page itself, not on the public model page.
    await Promise.all([page.waitForURL(/\/review\/[^/]+\/model\/\d+\/\?root=Whistle#diagram$/), page.locator('#diagram-frame g.feature[data-feature="Whistle"] a').first().click()]);
    await page.locator('#cfg-remaining', { hasText: '3 configurations remaining' }).waitFor();
    assert.equal(await page.locator('#diagram-frame svg g.feature[data-feature="Kettle"]').count(), 0);
    await page.screenshot({ path: screenshotPath('review-model'), fullPage: true });

    const text = await page.content();
    assert.doesNotMatch(text, /\/doi\//, 'no DOI address');
    for (const person of [...PEOPLE, owner.email]) assert.ok(!text.toLowerCase().includes(person.toLowerCase()), `the page shows ${person}`);
    assert.deepEqual(problems, []);
    await page.context().close();
  });
});
