// Dataset versions over HTTP (extensions section 2, "New version"; section 3, the API's versions):
// the new-version action and the upload's version_of with the built-in fake deposit and with the
// fake Zenodo server (a fault at each step), the concept DOI redirect, the version navigation and
// banner, the REST fields and POST /api/v1/datasets/<id>/versions.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../../test/support/databases.ts';
import { putStored, storedEntries } from '../../../../test/support/stored.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { useHubWithFakeZenodo, type FakeZenodo, type FakeZenodoStep } from '../../../../test/support/fake-zenodo.ts';
import { VALID_UVL, newUser, stage, uploadForm } from '../dataset.test-support.ts';
import { TestClient } from '../../../../test/support/client.ts';

const SECOND_UVL = 'features\n    Car\n        optional\n            Radio\n';

/** The staged names of the upload page's data-staged attribute. */
function stagedOnPage(html: string): string[] {
  const raw = /data-staged="([^"]*)"/.exec(html)![1]!.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
  return (JSON.parse(raw) as { filename: string }[]).map((f) => f.filename);
}

async function publishedDataset(server: TestServer, title = 'Phones') {
  const user = await newUser(server);
  await stage(user.client, 'phone.uvl', VALID_UVL);
  await stage(user.client, 'car.uvl', SECOND_UVL);
  const res = await user.client.post('/dataset/upload', { form: uploadForm(['phone.uvl', 'car.uvl'], { title, tags: 'a, b', license: 'MIT' }) });
  assert.equal(res.json.status, 'ok', JSON.stringify(res.json));
  return { ...user, id: res.json.dataset_id as number, doi: res.json.doi as string };
}

/** POST /dataset/<id>/new-version, then the upload page it leads to. */
async function startVersion(client: TestClient, id: number) {
  const res = await client.post(`/dataset/${id}/new-version`, { form: {} });
  assert.equal(res.status, 302, res.text);
  assert.equal(res.headers.get('location'), `/dataset/upload?version_of=${id}`);
  const page = await client.get(`/dataset/upload?version_of=${id}`);
  assert.equal(page.status, 200);
  return page;
}

for (const dialect of testDialects()) {
  describe(`dataset versions with the built-in fake deposit [${dialect.name}]`, () => {
    let server: TestServer;
    before(async () => { server = await startTestServer({ databaseBaseUrl: dialect.baseUrl }); });
    after(async () => { await server?.close(); });

    it('new version: staged copies, the form filled with version_of, then a new DOI in the same concept', async () => {
      const owner = await publishedDataset(server, 'Phones and cars');
      const page = await startVersion(owner.client, owner.id);
      assert.deepEqual(stagedOnPage(page.text).sort(), ['car.uvl', 'phone.uvl'], 'copies of the version\'s files are staged');
      assert.match(page.text, new RegExp(`<input type="hidden" name="version_of" value="${owner.id}">`));
      assert.match(page.text, /name="title" required maxlength="255" value="Phones and cars"/);
      assert.match(page.text, /name="desc" rows="4" required>Some models<\/textarea>/);
      assert.match(page.text, /name="tags" placeholder="separated by commas" value="a, b"/);
      assert.match(page.text, /<option value="MIT" selected>/, 'the licence of the current version');

      const res = await owner.client.post('/dataset/upload', {
        form: uploadForm(['phone.uvl'], { title: 'Phones only', version_of: String(owner.id) }),
      });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.status, 'ok');
      const v2 = res.json.dataset_id as number;
      assert.notEqual(v2, owner.id);
      assert.equal(res.json.doi, `10.1234/fakenodo.${v2}`);
      assert.equal(res.json.url, `http://${server.hub.ctx.config.domain}/doi/10.1234/fakenodo.${v2}`);
      assert.deepEqual(stagedOnPage((await owner.client.get('/dataset/upload')).text), ['car.uvl'], 'the unused copy stays staged');

      // The concept DOI leads to the newest version.
      const concept = `10.1234/fakenodo.concept.${owner.id}`;
      const redirect = await new TestClient(server.baseUrl).get(`/doi/${concept}/`);
      assert.equal(redirect.status, 302);
      assert.equal(redirect.headers.get('location'), `/doi/10.1234/fakenodo.${v2}/`);

      // Navigation: version N of M, the links, the banner on the older one, compare with previous.
      const newest = await new TestClient(server.baseUrl).get(`/doi/10.1234/fakenodo.${v2}/`);
      assert.match(newest.text, /id="version-of">Version 2 of 2</);
      assert.match(newest.text, new RegExp(`<a href="/doi/${owner.doi}/">Version 1</a>`));
      assert.match(newest.text, new RegExp(`href="/dataset/${v2}/compare/${owner.id}/" id="compare-previous"`));
      assert.doesNotMatch(newest.text, /id="newer-version-banner"/);
      const older = await new TestClient(server.baseUrl).get(`/doi/${owner.doi}/`);
      assert.match(older.text, /id="version-of">Version 1 of 2</);
      assert.match(older.text, new RegExp(`id="newer-version-banner"[\\s\\S]*?<a href="/doi/10.1234/fakenodo.${v2}/" class="alert-link">version 2</a>`));
      assert.doesNotMatch(older.text, /id="compare-previous"/);
      assert.match(older.text, new RegExp(`href="/doi/${concept}/" id="concept-doi"`));

      // The REST object.
      const rest = await new TestClient(server.baseUrl).get(`/api/v1/datasets/${v2}`);
      assert.equal(rest.json.version, 2);
      assert.equal(rest.json.concept_doi, concept);
      assert.deepEqual(rest.json.versions, [
        { id: owner.id, version: 1, doi: owner.doi, url: `http://${server.hub.ctx.config.domain}/doi/${owner.doi}` },
        { id: v2, version: 2, doi: res.json.doi, url: res.json.url },
      ]);
      assert.equal((await new TestClient(server.baseUrl).get(`/api/v1/datasets/${owner.id}`)).json.version, 1);

      // The citation of version 2 names its version and the concept DOI.
      const cff = await new TestClient(server.baseUrl).get(`/doi/10.1234/fakenodo.${v2}/export/cff`);
      assert.equal(cff.status, 200);
      assert.match(cff.text, /^version: ["']?2["']?$/m);
      assert.ok(cff.text.includes(concept), 'the concept DOI is among the identifiers');

      // Only the newest version gets a new version; the owner sees the button only there.
      assert.doesNotMatch((await owner.client.get(`/doi/${owner.doi}/`)).text, /id="new-version"/);
      assert.match((await owner.client.get(`/doi/10.1234/fakenodo.${v2}/`)).text, /id="new-version"/);
      const old = await owner.client.post(`/dataset/${owner.id}/new-version`, { form: {} });
      assert.equal(old.status, 409);
      assert.match(old.text, /Only the newest version \(version 2\)/);
      const viaForm = await owner.client.post('/dataset/upload', { form: uploadForm(['car.uvl'], { version_of: String(owner.id) }) });
      assert.equal(viaForm.status, 400);
      assert.match(viaForm.json.errors.version_of[0], /Only the newest version/);
    });

    it('anyone else gets 404, an unsynchronized dataset a clear 409, and no CSRF token a refusal', async () => {
      const owner = await publishedDataset(server);
      const other = await newUser(server);
      assert.equal((await other.client.post(`/dataset/${owner.id}/new-version`, { form: {} })).status, 404);
      assert.equal((await other.client.post('/dataset/upload', { form: uploadForm([], { version_of: String(owner.id) }) })).status, 400);
      assert.equal((await owner.client.post('/dataset/999999/new-version', { form: {} })).status, 404);
      assert.equal((await owner.client.post(`/dataset/${owner.id}/new-version`, { form: {}, csrf: false })).status, 400);
      const created = await owner.client.post('/api/v1/datasets', { json: { name: 'Draft' } });
      assert.equal(created.status, 201);
      const draft = await owner.client.post(`/dataset/${created.json.id}/new-version`, { form: {} });
      assert.equal(draft.status, 409);
      assert.match(draft.text, /not published yet/);
      assert.equal((await new TestClient(server.baseUrl).post(`/dataset/${owner.id}/new-version`, { form: {} })).status, 302, 'anonymous: to the login');
    });

    it('a staging area too full for the copies: 409 with the reason, nothing copied', async () => {
      const owner = await publishedDataset(server);
      const folder = server.hub.ctx.services.dataset.stagingFolder(owner.userId);
      for (let i = 0; i < 199; i++) await putStored(server, `${folder}m${i}.uvl`, VALID_UVL);
      const res = await owner.client.post(`/dataset/${owner.id}/new-version`, { form: {} });
      assert.equal(res.status, 409);
      assert.match(res.text, /staging area can hold 200 files/);
      assert.equal((await storedEntries(server, folder)).filter((n) => !n.startsWith('.')).length, 199);
    });

    it('starting a new version twice stages each file once; a different file of the same name is kept and the copy goes beside it', async () => {
      const owner = await publishedDataset(server, 'Started twice');
      await startVersion(owner.client, owner.id);
      const again = await startVersion(owner.client, owner.id);
      assert.deepEqual(stagedOnPage(again.text).sort(), ['car.uvl', 'phone.uvl'], 'the same bytes under the same name are not staged again');
      const folder = server.hub.ctx.services.dataset.stagingFolder(owner.userId);
      await putStored(server, `${folder}phone.uvl`, `${VALID_UVL}\n`);
      const third = await startVersion(owner.client, owner.id);
      assert.deepEqual(stagedOnPage(third.text).sort(), ['car.uvl', 'phone (1).uvl', 'phone.uvl'], 'a changed phone.uvl stays; the copy takes the next free name');
    });

    it('POST /api/v1/datasets/<id>/versions: an unsynchronized version with copies of the files, published as a new version', async () => {
      const owner = await publishedDataset(server, 'API versions');
      const other = await newUser(server);
      assert.equal((await other.client.post(`/api/v1/datasets/${owner.id}/versions`, { json: {} })).status, 404);
      const res = await owner.client.post(`/api/v1/datasets/${owner.id}/versions`, { json: {} });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.json.doi, null);
      assert.equal(res.json.version, 2);
      assert.equal(res.json.name, 'API versions');
      assert.deepEqual(res.json.files.map((f: { file_name: string }) => f.file_name).sort(), ['car.uvl', 'phone.uvl']);
      const id = res.json.dataset_id as number;
      assert.deepEqual(await storedEntries(server, server.hub.ctx.services.hubfile.datasetPrefix(owner.userId, id)), ['car.uvl', 'phone.uvl']);
      // A second one while this one waits: refused.
      assert.equal((await owner.client.post(`/api/v1/datasets/${owner.id}/versions`, { json: {} })).status, 409);
      const published = await owner.client.post(`/api/v1/datasets/${id}/publish`, { json: {} });
      assert.equal(published.json.status, 'ok', published.text);
      const rest = await new TestClient(server.baseUrl).get(`/api/v1/datasets/${id}`);
      assert.equal(rest.json.version, 2);
      assert.equal(rest.json.concept_doi, `10.1234/fakenodo.concept.${owner.id}`);
      assert.deepEqual(rest.json.versions.map((v: { id: number }) => v.id), [owner.id, id]);
    });
  });

  describe(`comparing versions [${dialect.name}]`, () => {
    let server: TestServer;
    before(async () => { server = await startTestServer({ databaseBaseUrl: dialect.baseUrl }); });
    after(async () => { await server?.close(); });

    const PHONE = 'features\n    Phone\n        mandatory\n            Screen\n        optional\n            Camera\n            GPS\n\nconstraints\n    GPS => Screen\n';
    // Adds one optional feature: every old configuration stays (Radio deselected).
    const PHONE_RADIO = 'features\n    Phone\n        mandatory\n            Screen\n        optional\n            Camera\n            GPS\n            Radio\n\nconstraints\n    GPS => Screen\n';
    // The same model with the optional children reordered and the constraint moved: a refactoring.
    const PHONE_RADIO_REORDERED = 'features\n    Phone\n        optional\n            Radio\n            GPS\n            Camera\n        mandatory\n            Screen\n\nconstraints\n    GPS => Screen\n';
    const PHONE_NEW_CONSTRAINT = 'features\n    Phone\n        mandatory\n            Screen\n        optional\n            Camera\n            GPS\n            Radio\n\nconstraints\n    GPS => Screen\n    Radio => !Camera\n';

    /** A new version through the pages with the given files (name -> text), all others removed. */
    async function nextVersion(client: TestClient, id: number, files: Record<string, string>) {
      await startVersion(client, id);
      for (const name of stagedOnPage((await client.get('/dataset/upload')).text)) {
        await client.post('/dataset/file/delete', { json: { file: name } });
      }
      for (const [name, text] of Object.entries(files)) await stage(client, name, text);
      const res = await client.post('/dataset/upload', { form: uploadForm(Object.keys(files), { version_of: String(id) }) });
      assert.equal(res.json.status, 'ok', res.text);
      return res.json.dataset_id as number;
    }

    function modelSection(html: string, name: string): string {
      const start = html.indexOf(`data-model="${name}"`);
      assert.ok(start >= 0, `the page lists ${name}`);
      return html.slice(start, html.indexOf('</section>', start));
    }

    /** The comparison page once every edit class is decided (the page shows "being decided" while the engine works). */
    async function decidedPage(path: string) {
      const client = new TestClient(server.baseUrl);
      for (let i = 0; i < 60; i++) {
        const page = await client.get(path);
        if (page.status !== 200 || !page.text.includes('data-edit-class="pending"')) return page;
        await client.get(`${path}edit-classes.json`);
      }
      assert.fail(`${path} kept edit classes pending`);
    }

    it('lists per model the features and constraints added and removed, the edit class, and added/removed models', async () => {
      const owner = await newUser(server);
      await stage(owner.client, 'phone.uvl', PHONE);
      await stage(owner.client, 'old.uvl', SECOND_UVL);
      const first = await owner.client.post('/dataset/upload', { form: uploadForm(['phone.uvl', 'old.uvl']) });
      const v1 = first.json.dataset_id as number;
      const v2 = await nextVersion(owner.client, v1, { 'phone.uvl': PHONE_RADIO, 'new.uvl': SECOND_UVL });
      const v3 = await nextVersion(owner.client, v2, { 'phone.uvl': PHONE_RADIO_REORDERED, 'new.uvl': SECOND_UVL });
      const v4 = await nextVersion(owner.client, v3, { 'phone.uvl': PHONE_NEW_CONSTRAINT, 'new.uvl': SECOND_UVL });

      const page = await decidedPage(`/dataset/${v2}/compare/${v1}/`);
      assert.equal(page.status, 200, page.text);
      assert.match(page.text, /Changes from version 1 to version 2/);
      const phone = modelSection(page.text, 'phone.uvl');
      assert.match(phone, /data-edit-class="generalization"/);
      assert.match(phone, /id="added-features-\d+"><li><code class="text-break-all">Radio<\/code><\/li><\/ul>/);
      assert.doesNotMatch(phone, /id="removed-features-/);
      assert.doesNotMatch(phone, /id="added-constraints-/);
      assert.match(modelSection(page.text, 'new.uvl'), /data-status="added"[\s\S]*added in version 2/);
      assert.match(modelSection(page.text, 'old.uvl'), /data-status="removed"[\s\S]*removed in version 2/);
      assert.match(modelSection(page.text, 'old.uvl'), /id="removed-features-\d+"><li><code class="text-break-all">Car<\/code><\/li><li><code class="text-break-all">Radio<\/code>/);

      // Either order of the URL compares the older to the newer.
      const reordered = await decidedPage(`/dataset/${v2}/compare/${v3}/`);
      assert.match(reordered.text, /Changes from version 2 to version 3/);
      const phone3 = modelSection(reordered.text, 'phone.uvl');
      assert.match(phone3, /data-edit-class="refactoring"/);
      assert.doesNotMatch(phone3, /id="(added|removed)-(features|constraints)-/, 'nothing added or removed');
      // A file with the same text in both versions is unchanged: no edit class, never "being decided".
      const same = modelSection(reordered.text, 'new.uvl');
      assert.match(same, /data-status="unchanged"[\s\S]*>unchanged<\/span>/);
      assert.doesNotMatch(same, /edit-class|being decided/);

      const constrained = await decidedPage(`/dataset/${v4}/compare/${v3}/`);
      const phone4 = modelSection(constrained.text, 'phone.uvl');
      assert.match(phone4, /data-edit-class="specialization"/);
      assert.match(phone4, /id="added-constraints-\d+"><li><code class="text-break-all">Radio =&gt; !Camera<\/code>/);

      // Four versions, each made from the newest.
      assert.match((await new TestClient(server.baseUrl).get(`/api/v1/datasets/${v4}`)).json.versions.map((v: { version: number }) => v.version).join(','), /^1,2,3,4$/);
    });

    it('never waits for the engine: a class not decided yet shows as being decided, and the page asks again until it is', async () => {
      const owner = await newUser(server);
      // Texts no other test compares (decided classes are kept by the texts' hashes).
      const unique = `\n// ${Date.now()}-${Math.random()}\n`;
      await stage(owner.client, 'phone.uvl', PHONE + unique);
      const v1 = (await owner.client.post('/dataset/upload', { form: uploadForm(['phone.uvl']) })).json.dataset_id as number;
      const v2 = await nextVersion(owner.client, v1, { 'phone.uvl': PHONE_RADIO + unique });
      // Asked without waiting, the first time: pending (the worker has just been given the pair).
      const first = await server.hub.ctx.services.dataset.compareVersions(v2, v1, null, 0);
      assert.deepEqual(first.models.map((m) => m.editClass), ['pending']);
      const page = await new TestClient(server.baseUrl).get(`/dataset/${v2}/compare/${v1}/`);
      if (page.text.includes('data-edit-class="pending"')) {
        assert.match(page.text, /being decided/);
        assert.match(page.text, /<script src="\/dataset\/js\/compare\.js" defer><\/script>/);
      }
      let answer: { pending: boolean; models: { name: string; edit_class: string; label: string }[] } | undefined;
      for (let i = 0; i < 30 && (answer === undefined || answer.pending); i++) {
        const res = await new TestClient(server.baseUrl).get(`/dataset/${v2}/compare/${v1}/edit-classes.json`);
        assert.equal(res.status, 200);
        answer = res.json;
      }
      assert.deepEqual(answer, { pending: false, models: [{ name: 'phone.uvl', edit_class: 'generalization', label: 'generalization (the new configurations include the old ones)' }] });
      const decided = await new TestClient(server.baseUrl).get(`/dataset/${v2}/compare/${v1}/`);
      assert.match(modelSection(decided.text, 'phone.uvl'), /data-edit-class="generalization"/);
      assert.doesNotMatch(decided.text, /compare\.js/, 'no polling once everything is decided');
      assert.equal((await new TestClient(server.baseUrl).get(`/dataset/${v2}/compare/999999/edit-classes.json`)).status, 404);
    });

    it('404 unless both are versions of one concept the viewer can see', async () => {
      const a = await publishedDataset(server, 'A');
      const b = await publishedDataset(server, 'B');
      const anon = new TestClient(server.baseUrl);
      assert.equal((await anon.get(`/dataset/${a.id}/compare/${b.id}/`)).status, 404);
      assert.equal((await anon.get(`/dataset/${a.id}/compare/${a.id}/`)).status, 404);
      assert.equal((await anon.get(`/dataset/${a.id}/compare/999999/`)).status, 404);
      assert.equal((await anon.get(`/dataset/${a.id}/compare/x/`)).status, 404);
      const draft = await a.client.post(`/api/v1/datasets/${a.id}/versions`, { json: {} });
      assert.equal(draft.status, 201);
      assert.equal((await anon.get(`/dataset/${draft.json.dataset_id}/compare/${a.id}/`)).status, 404, 'an unsynchronized version is the owner\'s');
      const own = await a.client.get(`/dataset/${draft.json.dataset_id}/compare/${a.id}/`);
      assert.equal(own.status, 200);
      // The draft's copy is the same file: unchanged, with no edit class.
      assert.match(modelSection(own.text, 'phone.uvl'), /data-status="unchanged"/);
    });
  });

  describe(`dataset versions with a Zenodo server [${dialect.name}]`, () => {
    const hubs = useHubWithFakeZenodo({ databaseBaseUrl: dialect.baseUrl });
    let server: TestServer;
    let zenodo: FakeZenodo;
    before(() => ({ server, zenodo } = hubs));
    beforeEach(() => zenodo.reset());

    const datasetCount = async () => Number((await server.hub.db.selectFrom('data_set').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

    for (const [step, status] of [['newversion', 500], ['delete-file', 409], ['upload', 403], ['metadata', 400], ['publish', 502]] as [FakeZenodoStep, number][]) {
      it(`a fault at the ${step} step keeps the old state: no new row, the files staged, a clear message; the retry succeeds`, async () => {
        const owner = await publishedDataset(server);
        await startVersion(owner.client, owner.id);
        const rows = await datasetCount();
        const published = [...zenodo.depositions.values()].filter((d) => d.published).length;
        zenodo.failOn(step, status);
        const form = uploadForm(['phone.uvl', 'car.uvl'], { title: 'Second', version_of: String(owner.id) });
        const res = await owner.client.post('/dataset/upload', { form });
        assert.equal(res.status, 502, res.text);
        assert.match(res.json.errors.version_of[0], new RegExp(`The new version could not be published \\(Zenodo refused the ${step} step with status ${status}`));
        assert.match(res.json.errors.version_of[0], /your files are still staged/);
        assert.equal(await datasetCount(), rows, 'no new dataset row');
        assert.equal([...zenodo.depositions.values()].filter((d) => d.published).length, published, 'nothing new published');
        assert.ok([...zenodo.depositions.values()].every((d) => d.published || d.deleted), 'no draft left open');
        assert.deepEqual(stagedOnPage((await owner.client.get('/dataset/upload')).text).sort(), ['car.uvl', 'phone.uvl']);
        assert.match((await new TestClient(server.baseUrl).get(`/doi/${owner.doi}/`)).text, /id="version-of">Version 1 of 1</);

        zenodo.reset();
        const retry = await owner.client.post('/dataset/upload', { form });
        assert.equal(retry.json.status, 'ok', retry.text);
        const deposition = zenodo.depositions.get(Number(/zenodo\.(\d+)$/.exec(retry.json.doi)![1]))!;
        assert.deepEqual([...deposition.files.keys()].sort(), ['car.uvl', 'phone.uvl']);
        const rest = await new TestClient(server.baseUrl).get(`/api/v1/datasets/${retry.json.dataset_id}`);
        assert.equal(rest.json.version, 2);
        assert.equal(rest.json.concept_doi, `10.5072/zenodo.${deposition.conceptRecid}`);
        const first = await new TestClient(server.baseUrl).get(`/api/v1/datasets/${owner.id}`);
        assert.equal(first.json.concept_doi, rest.json.concept_doi, 'the concept DOI was stored at the first publish');
        const redirect = await new TestClient(server.baseUrl).get(`/doi/${rest.json.concept_doi}/`);
        assert.equal(redirect.headers.get('location'), `/doi/${retry.json.doi}/`);
      });
    }

    it('a version whose publish Zenodo did but could not confirm stays unsynchronized (partial); its publish then stores that record\'s DOI', async () => {
      const owner = await publishedDataset(server, 'Unconfirmed');
      await startVersion(owner.client, owner.id);
      const rows = await datasetCount();
      zenodo.loseAnswer('publish', 500, ['get']);
      const form = uploadForm(['phone.uvl'], { title: 'Unconfirmed v2', version_of: String(owner.id) });
      const res = await owner.client.post('/dataset/upload', { form });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.status, 'partial', res.text);
      assert.match(res.json.message, /could not confirm whether it was published/);
      assert.equal(await datasetCount(), rows + 1, 'the version is kept');
      const record = [...zenodo.depositions.values()].find((d) => d.metadata?.title === 'Unconfirmed v2' && d.published)!;
      assert.ok(record, 'Zenodo published it');
      zenodo.reset();
      const again = await owner.client.post(`/dataset/${res.json.dataset_id}/publish`, { form: {} });
      assert.equal(again.json.status, 'ok', again.text);
      assert.equal(again.json.doi, record.doi, 'the record Zenodo made, no second one');
      assert.equal([...zenodo.depositions.values()].filter((d) => d.metadata?.title === 'Unconfirmed v2' && !d.deleted).length, 1);
      const rest = await new TestClient(server.baseUrl).get(`/api/v1/datasets/${res.json.dataset_id}`);
      assert.equal(rest.json.version, 2);
      assert.ok(rest.json.doi.endsWith(`/doi/${record.doi}`), rest.json.doi);
    });
  });
}
