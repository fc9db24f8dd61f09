// Review links on every dialect (extensions section 8): made by the owner only, valid until their
// day, revocable; every response reachable from the link (page, files, zip) is searched for every
// author, affiliation, ORCID iD and the owner's name and email; views are counted apart.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { newUser } from '../../../test/support/accounts.ts';
import { download, unzip } from '../../../test/support/zip.ts';
import { latestExpiry } from './review.service.ts';

const PEOPLE = ['Zyxwvut', 'Qorbin', 'Uniquely Named Institute', '0000-0002-9079-593X', 'Plimsoll', 'Ottoline', 'Fennimore Lab', 'Ownerly'];
const MODEL = 'features\n    Kettle\n        optional\n            Whistle\n';
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

for (const dialect of testDialects()) {
  describe(`review links [${dialect.name}]`, () => {
    let server: TestServer;
    let folder: string;
    let owner: TestClient;
    let ownerEmail: string;
    let datasetId: number;

    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, env: { ANALYSIS_WORKERS: '0' } });
      folder = mkdtempSync(join(tmpdir(), 'hub-review-'));
      const made = await newUser(server, 'Ownerly');
      owner = made.client;
      ownerEmail = made.email;
      writeFileSync(join(folder, 'kettle.uvl'), MODEL);
      datasetId = await server.hub.ctx.services.dataset.createFromFiles(made.userId, {
        title: 'Kettles for review', description: 'Models of kettles', publicationType: 'none', publicationDoi: null, tags: 'kettle',
        authors: [{ name: 'Zyxwvut, Qorbin', affiliation: 'Uniquely Named Institute', orcid: '0000-0002-9079-593X' }],
      } as never, [{
        path: join(folder, 'kettle.uvl'),
        meta: { name: 'kettle.uvl', title: 'Kettle', description: 'A kettle', publicationType: 'none', publicationDoi: null, tags: '', version: '2.0', authors: [{ name: 'Plimsoll, Ottoline', affiliation: 'Fennimore Lab', orcid: null }] },
      }] as never, { doi: '10.9999/review.1', createdAt: '2026-01-01T00:00:00.000Z' });
    });
    after(async () => {
      await server?.close();
      if (folder) rmSync(folder, { recursive: true, force: true });
    });

    async function makeLink(expires: string): Promise<string> {
      const doiPage = await owner.get('/doi/10.9999/review.1/');
      assert.match(doiPage.text, new RegExp(`href="/dataset/${datasetId}/review-links"`), 'the owner finds the review links');
      await owner.get(`/dataset/${datasetId}/review-links`);
      // Only the documented field (the dataset is published: the answer warns, tested below).
      const res = await owner.post(`/dataset/${datasetId}/review-links`, { form: { expires } });
      assert.equal(res.status, 201, res.text.slice(0, 300));
      const link = /<code id="review-link"[^>]*>[^<]*?(\/review\/[A-Za-z0-9_-]+\/)<\/code>/.exec(res.text);
      assert.ok(link, 'the answer shows the link');
      return link[1]!;
    }

    const assertAnonymous = (what: string, text: string) => {
      for (const person of [...PEOPLE, ownerEmail]) assert.ok(!text.toLowerCase().includes(person.toLowerCase()), `${what} shows ${person}`);
    };

    it('shows the page, files and zip through the link without any author, affiliation, ORCID iD or owner', async () => {
      // The ordinary DOI page does show them (the strings are the right ones to look for).
      const doiPage = await new TestClient(server.baseUrl).get('/doi/10.9999/review.1/');
      for (const person of ['Zyxwvut', 'Uniquely Named Institute', '0000-0002-9079-593X']) assert.ok(doiPage.text.includes(person), person);

      const path = await makeLink(inDays(7));
      const viewsBefore = (await server.hub.ctx.services.dataset.counts(datasetId)).views;
      const reviewer = new TestClient(server.baseUrl);
      const page = await reviewer.get(path);
      assert.equal(page.status, 200);
      // The link without its final slash (cut when pasted) reaches the same page.
      const bare = await reviewer.get(path.slice(0, -1));
      assert.deepEqual([bare.status, bare.location], [301, path]);
      assert.match(page.text, /Kettles for review/);
      assert.equal(page.headers.get('x-robots-tag'), 'noindex');
      assertAnonymous('the page', page.text);
      const reachable = [...new Set([...page.text.matchAll(/href="(\/review\/[^"]+)"/g)].map((m) => m[1]!))];
      assert.ok(reachable.some((p) => p.endsWith('/zip')) && reachable.some((p) => p.includes('/file/')), reachable.join(' '));
      for (const target of reachable) {
        const res = await download(reviewer, target);
        assert.equal(res.status, 200, target);
        if (target.includes('/model/')) {
          // The model's page (issue 37, item 10): its diagram and source, no DOI and no address outside the link.
          const text = res.bytes.toString('utf8');
          assertAnonymous(target, text);
          assert.match(text, /id="diagram-frame"[^>]*><svg[\s\S]*Whistle/);
          assert.match(text, /id="fact-label"/);
          assert.ok(!text.includes('10.9999/review.1'), `${target} shows the DOI`);
          const article = /<article id="review-model">[\s\S]*<\/article>/.exec(text)![0];
          assert.doesNotMatch(article, /<a [^>]*href="\/(?!review\/)/, `${target} links outside the link`);
        } else if (target.includes('/export/')) {
          // The model tools' exports, as the DOI page offers them (extensions section 8).
          const text = res.bytes.toString('utf8');
          assertAnonymous(target, `${res.headers.get('content-disposition')}\n${text}`);
          assert.match(res.headers.get('content-disposition') ?? '', /kettle\.uvl_(glencoe|splot|cnf|featureide)\.txt/);
          if (target.includes('/glencoe/')) assert.ok(JSON.parse(text).features, target);
          else if (target.includes('/cnf/')) assert.match(text, /^p cnf \d+ \d+$/m, target);
          else assert.match(text, /Whistle/, target);
        } else if (target.endsWith('/zip')) {
          const entries = await unzip(res.bytes);
          assert.deepEqual([...entries.keys()], ['dataset/kettle.uvl']);
          for (const [name, text] of entries) assertAnonymous(`${name} in the zip`, `${name}\n${text}`);
        } else {
          assert.equal(res.bytes.toString('utf8'), MODEL);
          assertAnonymous(target, `${res.headers.get('content-disposition')}\n${res.bytes.toString('utf8')}`);
        }
      }
      assert.ok(reachable.some((p) => p.includes('/model/')), 'the page links each model\'s page');
      assert.deepEqual(reachable.filter((p) => p.includes('/export/')).map((p) => p.split('/')[4]), ['glencoe', 'splot', 'cnf', 'featureide']);
      const anExport = reachable.find((p) => p.includes('/export/cnf/'))!;
      assert.equal((await reviewer.get(anExport.replace(/\d+$/, '999999'))).status, 404, 'another file');
      assert.equal((await reviewer.get(anExport.replace('/cnf/', '/pdf/'))).status, 404, 'an unknown format');
      // Another dataset's file is not reachable through the link, nor its model page.
      assert.equal((await reviewer.get(`${path}file/999999`)).status, 404);
      const otherFile = await server.hub.db.selectFrom('file').select('id').orderBy('id').executeTakeFirst();
      const ownFileId = Number(/\/model\/(\d+)\//.exec(reachable.find((p) => p.includes('/model/'))!)![1]);
      assert.equal((await reviewer.get(`${path}model/999999/`)).status, 404);
      const bareModel = await reviewer.get(`${path}model/${ownFileId}`);
      assert.deepEqual([bareModel.status, bareModel.location], [301, `${path}model/${ownFileId}/`]);
      if (otherFile && Number(otherFile.id) !== ownFileId) assert.equal((await reviewer.get(`${path}model/${otherFile.id}/`)).status, 404);
      assert.equal((await reviewer.get(`${path}model/${ownFileId}/?depth=x`)).status, 400);
      // The configurator under the link, for the owner's view; another dataset's file is 404 there too.
      const configured = await reviewer.post(`${path}model/${ownFileId}/configure`, { json: { selected: ['Whistle'] } });
      assert.equal(configured.status, 200, configured.text.slice(0, 200));
      assert.deepEqual([configured.json.remaining, configured.json.features.Whistle], ['1', 'selected']);
      assert.equal((await reviewer.get(`${path}model/${ownFileId}/tree.json`)).status, 200);
      assert.equal((await reviewer.post(`${path}model/999999/configure`, { json: {} })).status, 404);
      assert.equal((await reviewer.post('/review/not-a-token/model/1/configure', { json: {} })).status, 404);
      // Views through the link are counted apart from the dataset's.
      const links = await owner.get(`/dataset/${datasetId}/review-links`);
      assert.match(links.text, /· 1 view</);
      assert.equal((await server.hub.ctx.services.dataset.counts(datasetId)).views, viewsBefore, 'the dataset\'s own count does not move');
    });

    it('is made by the owner only, with a date from today on', async () => {
      const other = (await newUser(server, 'Other')).client;
      await other.get('/explore');
      assert.equal((await other.post(`/dataset/${datasetId}/review-links`, { form: { expires: inDays(3) } })).status, 404);
      const anonymous = new TestClient(server.baseUrl);
      await anonymous.get('/explore');
      assert.equal((await anonymous.post(`/dataset/${datasetId}/review-links`, { form: { expires: inDays(3) } })).status, 302);
      await owner.get('/explore');
      for (const expires of ['', 'tomorrow', '2026-02-30', inDays(-1)]) {
        assert.equal((await owner.post(`/dataset/${datasetId}/review-links`, { form: { expires } })).status, 400, expires);
      }
      assert.equal((await owner.post(`/dataset/${datasetId}/review-links`, { form: { expires: inDays(1) }, csrf: false })).status, 400);
    });

    const linkCount = async () => Number((await server.hub.db.selectFrom('review_link').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

    it('refuses an expiry more than one year ahead (9999-12-31) with a form error under the field, making nothing', async () => {
      await owner.get(`/dataset/${datasetId}/review-links`);
      const before = await linkCount();
      const latest = latestExpiry();
      for (const expires of ['9999-12-31', inDays(400)]) {
        const res = await owner.post(`/dataset/${datasetId}/review-links`, { form: { expires } });
        assert.equal(res.status, 400, expires);
        assert.match(res.text, /<form method="post" action="\/dataset\/\d+\/review-links"/, 'the form comes back, not an error page');
        assert.match(res.text, new RegExp(`id="expires" name="expires" min="[\\d-]+" max="${latest}" value="${expires}"`));
        assert.match(res.text, new RegExp(`id="expires-errors"><div>A review link lasts at most one year: choose a day up to ${latest}\\.</div>`));
        assert.doesNotMatch(res.text, /id="review-link"/);
      }
      assert.equal(await linkCount(), before, 'no link was made');
      assert.equal((await owner.post(`/dataset/${datasetId}/review-links`, { form: { expires: latest } })).status, 201, 'one year ahead is allowed');
    });

    it('makes a link for a published dataset from the documented request alone (expires and the CSRF token), warning on the answer', async () => {
      // Extensions section 8: `POST /dataset/<id>/review-links` takes `expires` (and the CSRF token), nothing else.
      await owner.get(`/dataset/${datasetId}/review-links`);
      const before = await linkCount();
      const made = await owner.post(`/dataset/${datasetId}/review-links`, { form: { expires: inDays(5) } });
      assert.equal(made.status, 201, made.text.slice(0, 300));
      assert.match(made.text, /<code id="review-link"[^>]*>[^<]*?\/review\/[A-Za-z0-9_-]{43}\/<\/code>/, 'the answer shows the link');
      assert.equal(await linkCount(), before + 1);
      // The answer that gives the link says, beside it, that the DOI page names the authors.
      assert.match(made.text, /id="review-link-published-warning"[^>]*>[\s\S]*?This dataset is published: its DOI page \(10\.9999\/review\.1\) names its authors/);
    });

    it('warns on a published dataset (its DOI page names the authors) before the link is made, with no box to tick', async () => {
      const page = await owner.get(`/dataset/${datasetId}/review-links`);
      assert.equal(page.status, 200);
      assert.match(page.text, /id="review-published-warning"[\s\S]*Its DOI page names its authors/);
      assert.doesNotMatch(page.text, /type="checkbox"|confirm_published/, 'nothing to confirm');
      assert.doesNotMatch(page.text, /id="review-link-published-warning"/, 'no link made yet');
      // A form of the former page, still sending the confirmation, is answered the same way.
      const made = await owner.post(`/dataset/${datasetId}/review-links`, { form: { expires: inDays(5), confirm_published: 'yes' } });
      assert.equal(made.status, 201);
      assert.match(made.text, /id="review-link-published-warning"/);

      // An unpublished dataset: no warning, before or after.
      const draft = await owner.post(`/api/v1/datasets/${datasetId}/versions`, { json: {} });
      assert.equal(draft.status, 201, draft.text);
      const draftPage = await owner.get(`/dataset/${draft.json.dataset_id}/review-links`);
      assert.doesNotMatch(draftPage.text, /review-published-warning|confirm_published/);
      const draftMade = await owner.post(`/dataset/${draft.json.dataset_id}/review-links`, { form: { expires: inDays(5) } });
      assert.equal(draftMade.status, 201);
      assert.match(draftMade.text, /id="review-link"/);
      assert.doesNotMatch(draftMade.text, /review-published-warning|review-link-published-warning/);
    });

    it('shows the new link with a Copy button (its script included only then)', async () => {
      const made = await owner.post(`/dataset/${datasetId}/review-links`, { form: { expires: inDays(3) } });
      assert.equal(made.status, 201);
      assert.match(made.text, /<code id="review-link"[^>]*>[^<]+<\/code>\s*(?:\{#[\s\S]*?#\}\s*)?<button type="button"[^>]*id="review-link-copy"[^>]*>[\s\S]*?Copy<\/button>/);
      assert.match(made.text, /<script src="\/review\/js\/links\.js" defer><\/script>/);
      const script = await owner.get('/review/js/links.js');
      assert.equal(script.status, 200);
      assert.match(script.text, /navigator\.clipboard/);
      assert.doesNotMatch((await owner.get(`/dataset/${datasetId}/review-links`)).text, /review-link-copy|links\.js/);
    });

    it('answers 404 once revoked or past its day, and for a made-up token', async () => {
      const path = await makeLink(inDays(2));
      const reviewer = new TestClient(server.baseUrl);
      assert.equal((await reviewer.get(path)).status, 200);
      const links = await owner.get(`/dataset/${datasetId}/review-links`);
      const revoke = [...links.text.matchAll(/action="(\/dataset\/\d+\/review-links\/\d+\/revoke)"/g)].map((m) => m[1]!);
      const fileId = /\/file\/(\d+)/.exec((await reviewer.get(path)).text)?.[1];
      for (const action of revoke) assert.equal((await owner.post(action, { form: {} })).status, 303);
      for (const target of [path, `${path}zip`, `${path}export/cnf/${fileId}`]) assert.equal((await reviewer.get(target)).status, 404, target);

      const expiring = await makeLink(inDays(0));
      assert.equal((await reviewer.get(expiring)).status, 200, 'valid through its last day');
      await server.hub.db.updateTable('review_link').set({ expires_on: inDays(-1) }).where('revoked_at', 'is', null).execute();
      assert.equal((await reviewer.get(expiring)).status, 404);
      assert.equal((await reviewer.get('/review/not-a-token/')).status, 404);
      // Without its final slash the link redirects to itself (then 404 too, once past its day).
      const bare = await reviewer.get(expiring.slice(0, -1));
      assert.deepEqual([bare.status, bare.location], [301, expiring]);
      assert.equal(bare.headers.get('referrer-policy'), 'no-referrer');
      assert.equal((await reviewer.get(`/review/${'a'.repeat(43)}/`)).status, 404);
    });
  });
}
