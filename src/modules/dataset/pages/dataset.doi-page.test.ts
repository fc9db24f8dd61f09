// The DOI page kept rendered for visitors who are not logged in (dataset.doi-page.ts): every
// answer carries its own CSRF token and the current counts, and a write shows at once: an edit,
// a new version (the older one's "Version N of M"), on this instance or another on the same database.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { testDialects } from '../../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { TestClient } from '../../../../test/support/client.ts';
import { VALID_UVL, newUser, stage, uploadForm } from '../dataset.test-support.ts';
import { changeStamp } from '../../../core/db/connect.ts';
import { cutAtMarkers } from '../../../core/http/reusable-page.ts';
import { KeptDoiPages } from './dataset.doi-page.ts';

/** The page with what differs between two answers of a kept page taken out. */
function withoutPerAnswerParts(html: string): string {
  return html
    .replace(/(name="csrf-token" content=")[^"]+/g, '$1')
    .replace(/(name="csrf_token" value=")[^"]+/g, '$1')
    .replace(/(id="(?:view|download)-count">)\d+/g, '$1');
}

const viewCount = (html: string) => Number(/id="view-count">(\d+)</.exec(html)![1]);

for (const dialect of testDialects()) {
  describe(`kept DOI pages [${dialect.name}]`, () => {
    let server: TestServer;
    let other: TestServer;
    // Serves the model imported from a URL (extensions section 13).
    let models: Server;
    let modelsOrigin: string;
    before(async () => {
      models = createServer((req, res) => (req.url?.startsWith('/models/phone.uvl') ? res.end(VALID_UVL) : res.writeHead(404).end()));
      await new Promise<void>((resolve) => models.listen(0, '127.0.0.1', resolve));
      modelsOrigin = `http://127.0.0.1:${(models.address() as AddressInfo).port}`;
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl });
      // A second instance on the same database: it must see the first one's writes at once.
      other = await startTestServer({ databaseUrl: server.database.url, workingDir: server.workingDir });
    });
    after(async () => {
      await other?.close();
      await server?.close();
      models?.closeAllConnections();
      await new Promise((resolve) => models?.close(resolve));
    });

    async function published(title: string) {
      const owner = await newUser(server);
      await stage(owner.client, 'phone.uvl', VALID_UVL);
      const res = await owner.client.post('/dataset/upload', { form: uploadForm(['phone.uvl'], { title }) });
      assert.equal(res.json.status, 'ok', JSON.stringify(res.json));
      return { ...owner, id: res.json.dataset_id as number, doi: res.json.doi as string };
    }

    it('answers each visitor with its own CSRF token and the current view count', async () => {
      const { doi } = await published('Kept phones');
      const first = new TestClient(server.baseUrl);
      const a = await first.get(`/doi/${doi}/`);
      const b = await first.get(`/doi/${doi}/`);
      const second = new TestClient(server.baseUrl);
      const c = await second.get(`/doi/${doi}/`);
      for (const res of [a, b, c]) assert.equal(res.status, 200);
      assert.equal(withoutPerAnswerParts(b.text), withoutPerAnswerParts(a.text));
      assert.equal(withoutPerAnswerParts(c.text), withoutPerAnswerParts(a.text));
      assert.notEqual(first.csrfToken, second.csrfToken, 'each session has its own token');
      // The first visitor's view was recorded after its page was built; the second visitor sees it.
      assert.equal(viewCount(a.text), 0);
      assert.equal(viewCount(b.text), 1, 'a returning visitor is not counted again');
      assert.equal(viewCount(c.text), 1);
      assert.equal(viewCount((await new TestClient(server.baseUrl).get(`/doi/${doi}/`)).text), 2);
      assert.match(b.headers.get('link') ?? '', /rel="cite-as"/, 'the signposting header comes with a kept page too');
      // A citation format asked for by Accept is answered instead of the kept page, and not counted.
      const bibtex = await first.get(`/doi/${doi}/`, { accept: 'application/x-bibtex' });
      assert.equal(bibtex.status, 200);
      assert.match(bibtex.headers.get('content-type') ?? '', /bibtex/);
      assert.match(bibtex.text, /^@/);
      // A token of a kept page is good for its own session only.
      const refused = await first.post('/forgot-password', { form: { email: 'nobody@example.com', csrf_token: second.csrfToken! } });
      assert.equal(refused.status, 400);
      const accepted = await first.post('/forgot-password', { form: { email: 'nobody@example.com' } });
      assert.equal(accepted.status, 200);
    });

    it('shows a view counted by one instance on the other\'s page at once', async () => {
      const { doi } = await published('Counted elsewhere');
      const there = new TestClient(other.baseUrl);
      assert.equal(viewCount((await there.get(`/doi/${doi}/`)).text), 0);
      assert.equal(viewCount((await there.get(`/doi/${doi}/`)).text), 1, 'the other instance keeps its page and state');
      await new TestClient(server.baseUrl).get(`/doi/${doi}/`);
      assert.equal(viewCount((await there.get(`/doi/${doi}/`)).text), 2, 'a view written by another connection shows at once');
    });

    it('reads the freshness state once for the requests of one turn, and again for a later one', async () => {
      const { doi } = await published('Shared state');
      const service = server.hub.ctx.services.dataset;
      await service.doiPageState(doi);
      const together = await Promise.all([1, 2, 3, 4, 5].map(() => service.doiPageState(doi)));
      assert.equal(together[0]?.doi, doi);
      assert.ok(together.every((state) => state === together[0]), 'one state for the whole turn');
      const later = await service.doiPageState(doi);
      if (changeStamp(server.hub.db) !== undefined) assert.equal(later, together[0], 'SQLite keeps it while nothing is written');
      else assert.notEqual(later, together[0], 'a request that comes after the query was sent gets a query of its own');
    });

    it('shows an edit at once, on this instance and on another one', async () => {
      const owner = await published('Before the edit');
      const visitor = new TestClient(server.baseUrl);
      const elsewhere = new TestClient(other.baseUrl);
      assert.match((await visitor.get(`/doi/${owner.doi}/`)).text, /id="dataset-title">Before the edit</);
      assert.match((await elsewhere.get(`/doi/${owner.doi}/`)).text, /id="dataset-title">Before the edit</);
      await owner.client.get(`/dataset/${owner.id}/edit`);
      const edit = await owner.client.post(`/dataset/${owner.id}/edit`, {
        form: { title: 'After the edit', desc: 'Some models', publication_type: 'none', publication_doi: '', tags: 'a', license: 'CC-BY-4.0', 'authors-0-name': 'Doe, Jane' },
      });
      assert.equal(edit.status, 302, edit.text);
      for (const client of [visitor, elsewhere]) {
        const page = await client.get(`/doi/${owner.doi}/`);
        assert.match(page.text, /id="dataset-title">After the edit</);
        assert.match(page.text, /id="history-list"/, 'the edit is in the History');
      }
    });

    it('shows a newer version on the older version\'s page at once', async () => {
      const owner = await published('Version one');
      const visitor = new TestClient(other.baseUrl);
      assert.doesNotMatch((await visitor.get(`/doi/${owner.doi}/`)).text, /id="newer-version-banner"/);
      const started = await owner.client.post(`/dataset/${owner.id}/new-version`, { form: {} });
      assert.equal(started.status, 302);
      await owner.client.get(`/dataset/upload?version_of=${owner.id}`);
      const res = await owner.client.post('/dataset/upload', { form: uploadForm(['phone.uvl'], { title: 'Version two', version_of: String(owner.id) }) });
      assert.equal(res.json.status, 'ok', JSON.stringify(res.json));
      const page = await visitor.get(`/doi/${owner.doi}/`);
      assert.match(page.text, /id="version-of">Version 1 of 2</);
      assert.match(page.text, /id="newer-version-banner"/);
    });

    it('shows where imported models came from ("Imported from", escaped), on the kept page too; nothing for uploaded files', async () => {
      const owner = await newUser(server);
      const url = `${modelsOrigin}/models/phone.uvl?ref=v1&x="y"`;
      const imported = await owner.client.post('/dataset/file/import', { json: { url } });
      assert.equal(imported.status, 200, imported.text);
      const res = await owner.client.post('/dataset/upload', { form: uploadForm(['phone.uvl'], { title: 'Imported' }) });
      assert.equal(res.json.status, 'ok', JSON.stringify(res.json));
      const stored = imported.json.source.url as string;
      const escaped = stored.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
      assert.ok(stored.includes('&'), stored);
      for (const client of [new TestClient(server.baseUrl), new TestClient(server.baseUrl), new TestClient(other.baseUrl), owner.client]) {
        const page = await client.get(`/doi/${res.json.doi}/`);
        const row = /<dt class="col-sm-3">Imported from<\/dt>[\s\S]*?<\/dd>/.exec(page.text);
        assert.ok(row, 'the Imported from row');
        assert.ok(row[0].includes(`<a href="${escaped}" rel="nofollow noopener">${escaped}</a>`), row[0]);
      }
      const plain = await published('Uploaded');
      const page = await new TestClient(server.baseUrl).get(`/doi/${plain.doi}/`);
      assert.doesNotMatch(page.text, /Imported from|dataset-import-sources/);
    });

    it('gives a logged-in visitor the page with the user menu, and the owner the owner\'s actions', async () => {
      const owner = await published('Seen by its owner');
      await new TestClient(server.baseUrl).get(`/doi/${owner.doi}/`);
      const anonymous = await new TestClient(server.baseUrl).get(`/doi/${owner.doi}/`);
      assert.doesNotMatch(anonymous.text, /id="user-menu"/);
      const own = await owner.client.get(`/doi/${owner.doi}/`);
      assert.match(own.text, /id="user-menu"/);
      // The owner's breadcrumb; "My datasets" is in every signed-in user's menu too.
      assert.match(own.text, /breadcrumb-item"><a href="\/dataset\/list">My datasets<\/a><\/li>/);
      const stranger = await newUser(server);
      const theirs = await stranger.client.get(`/doi/${owner.doi}/`);
      assert.match(theirs.text, /id="user-menu"/);
      assert.doesNotMatch(theirs.text, /breadcrumb-item"><a href="\/dataset\/list">My datasets<\/a><\/li>/);
    });
  });
}

describe('kept error pages', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer(); });
  after(async () => { await server?.close(); });

  it('answers a 404 with the same page but each visitor\'s own token; a logged-in visitor gets the user menu', async () => {
    const a = new TestClient(server.baseUrl);
    const b = new TestClient(server.baseUrl);
    const first = await a.get('/no/such/page');
    const second = await b.get('/another/missing/page');
    assert.equal(first.status, 404);
    assert.equal(second.status, 404);
    assert.equal(withoutPerAnswerParts(second.text), withoutPerAnswerParts(first.text));
    assert.notEqual(a.csrfToken, b.csrfToken);
    const user = await newUser(server);
    const mine = await user.client.get('/no/such/page');
    assert.equal(mine.status, 404);
    assert.match(mine.text, /id="user-menu"/);
  });
});

describe('kept DOI pages', () => {
  const page = cutAtMarkers('<p>a page</p>');

  it('gives a page back within its minute, and drops pages past it at the next page kept', () => {
    const kept = new KeptDoiPages();
    kept.set(1, 's1', page, null, 0);
    kept.set(2, 's2', page, null, 30_000);
    assert.equal(kept.get(1, 's1', 59_000)?.page, page);
    kept.set(3, 's3', page, null, 60_500);
    assert.equal(kept.size, 2, 'the page of dataset 1 is past its minute and is not asked for again');
    kept.set(4, 's4', page, null, 200_000);
    assert.equal(kept.size, 1);
    assert.equal(kept.get(4, 's4', 200_000)?.page, page);
  });

  it('keeps at most 1 000 pages, the oldest going first', () => {
    const kept = new KeptDoiPages();
    for (let id = 1; id <= 1_005; id++) kept.set(id, 's', page, null, id);
    assert.equal(kept.size, 1_000);
    assert.equal(kept.get(5, 's', 1_005), undefined);
    assert.equal(kept.get(6, 's', 1_005)?.page, page);
  });
});
