// The editor's routes at HTTP level, on every dialect: the pages anonymous and logged in, bad ids,
// the bundle, Save as draft (normally, without an account, with bad input: nothing kept) and Save
// as new version (owner only). The journeys in the browser are test/browser/editor.test.ts.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { storeModelFile, userIdByEmail } from '../../../test/support/fixtures.ts';
import { storedText } from '../../../test/support/stored.ts';
import type { WorkerKind } from '../../core/scheduler/index.ts';
import type { GateJob, GateReply } from '../../core/scheduler/scheduler.test-support.ts';

const MODEL = 'features\n    Bike\n        optional\n            Bell\n';
/** A name and a constraint with markup: the page must show them escaped. */
const MARKUP = 'features\n    Car\n        optional\n            Turbo\n            "Diesel <V6>"\n\nconstraints\n    "Diesel <V6>" => !Turbo\n';

const MAX_FEATURES = 8;
/** A model of MAX_FEATURES + 1 features: over the hub's limits. */
const OVER_LIMIT = `features\n    Big\n        optional\n${Array.from({ length: MAX_FEATURES }, (_, i) => `            F${i}\n`).join('')}`;

/** A job that waits until the test opens its gate: four of them hold a requester's share of heavy work. */
const gateKind: WorkerKind<GateJob, GateReply> = {
  name: 'test-gate',
  options: {
    script: new URL('../../core/scheduler/scheduler.test-support.ts', import.meta.url),
    crash: { error: (e) => e.message, exit: (c) => `exit ${c}`, overrun: () => 'overran' },
  },
};

const storeModel = (server: TestServer, options: { content?: string; name?: string; doi?: string | null; owner?: string } = {}) =>
  storeModelFile(server, { label: 'Editor', content: options.content ?? MARKUP, name: options.name ?? 'cars.uvl', doi: options.doi, owner: options.owner });

async function login(server: TestServer, email: string): Promise<TestClient> {
  const client = new TestClient(server.baseUrl);
  assert.equal((await client.login(email, '1234')).status, 302);
  await client.get('/editor'); // the CSRF token of the page that holds the forms
  return client;
}

for (const dialect of testDialects()) {
  describe(`editor routes [${dialect.name}]`, () => {
    let server: TestServer;
    const anonymous = () => new TestClient(server.baseUrl);
    const datasetsOf = async (email: string) => {
      const own = await server.hub.ctx.services.dataset.listOwnDatasets(await userIdByEmail(server.hub.ctx.db, email));
      return [...own.synchronized, ...own.unsynchronized];
    };
    const stagedOf = async (email: string) => server.hub.ctx.services.dataset.listStagedFiles(await userIdByEmail(server.hub.ctx.db, email));

    before(async () => {
      // A small MAX_FEATURES, so that a save over the hub's limits is cheap to make.
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { MAX_FEATURES: String(MAX_FEATURES) } });
    });
    after(async () => {
      await server?.close();
    });

    it('shows anyone the empty editor and a stored model they may see, escaped; 404 for an unknown or hidden file', async () => {
      const empty = await anonymous().get('/editor');
      assert.equal(empty.status, 200);
      assert.match(empty.text, /<textarea id="editor-initial"[^>]*>\n<\/textarea>/);
      assert.match(empty.text, /<script type="module" src="\/editor\/bundle\/editor-[A-Z0-9]+\.js"><\/script>/);
      assert.ok(!empty.text.includes('id="save-draft-form"'), 'no save form without an account');
      const { fileId } = await storeModel(server);
      const opened = await anonymous().get(`/editor/file/${fileId}`);
      assert.equal(opened.status, 200);
      assert.ok(opened.text.includes('&quot;Diesel &lt;V6&gt;&quot; =&gt; !Turbo'), 'the model text, escaped');
      assert.ok(!opened.text.includes('"Diesel <V6>"'));
      // Its log-in link comes back to the editor, as a page that needs a login does (decisions: return address).
      assert.match(opened.text, new RegExp(`id="editor-login"`));
      assert.ok(opened.text.includes(`href="/login?next=%2Feditor%2Ffile%2F${fileId}" id="editor-login"`), 'log in, then back to this model');
      assert.ok(empty.text.includes('href="/login?next=%2Feditor" id="editor-login"'));
      for (const bad of ['999999', 'abc', '1e3', '-1']) assert.equal((await anonymous().get(`/editor/file/${bad}`)).status, 404, bad);
      const hidden = await storeModel(server, { doi: null });
      assert.equal((await anonymous().get(`/editor/file/${hidden.fileId}`)).status, 404, 'an unsynchronized file is its owner\'s');
      assert.equal((await (await login(server, 'user1@example.com')).get(`/editor/file/${hidden.fileId}`)).status, 200);
    });

    it('serves the bundle from the hub, gzip and cached for good, and nothing else under its path', async () => {
      const page = await anonymous().get('/editor');
      const src = /src="(\/editor\/bundle\/editor-[A-Z0-9]+\.js)"/.exec(page.text)![1]!;
      const res = await fetch(server.baseUrl + src, { headers: { 'accept-encoding': 'gzip' } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-encoding'), 'gzip');
      assert.match(res.headers.get('cache-control') ?? '', /immutable/);
      assert.match(res.headers.get('content-type') ?? '', /text\/javascript/);
      const body = await res.text(); // fetch undoes the gzip
      assert.ok(body.includes('hubEditor'));
      for (const bad of ['/editor/bundle/nope.js', '/editor/bundle/../editor.routes.ts', '/editor/bundle/%2e%2e%2fmodule.ts']) {
        assert.equal((await fetch(server.baseUrl + bad)).status, 404, bad);
      }
    });

    it('saves a draft dataset holding exactly the text; without an account it asks to log in', async () => {
      const refused = await anonymous().post('/editor/draft', { form: { title: 'X', text: MODEL }, csrf: false });
      assert.ok([302, 403].includes(refused.status), `anonymous: ${refused.status}`);
      const client = await login(server, 'user2@example.com');
      const before = (await datasetsOf('user2@example.com')).length;
      const saved = await client.post('/editor/draft', { form: { title: 'Bikes drafted', text: MODEL.replaceAll('\n', '\r\n') } });
      assert.equal(saved.status, 303, saved.text);
      const after = await datasetsOf('user2@example.com');
      assert.equal(after.length, before + 1);
      const draft = after.find((d) => d.title === 'Bikes drafted')!;
      assert.equal(draft.synchronized, false, 'a draft is not deposited');
      const fileId = draft.files[0]!.id;
      const download = await client.get(`/file/download/${fileId}`);
      assert.equal(download.text, MODEL, 'the exact text, its line breaks as the editor has them');
      assert.deepEqual(await stagedOf('user2@example.com'), [], 'nothing left staged');
    });

    it('refuses a draft with syntax errors, without a title or without text, keeping nothing and giving the text back', async () => {
      const client = await login(server, 'user2@example.com');
      const before = (await datasetsOf('user2@example.com')).length;
      const broken = await client.post('/editor/draft', { form: { title: 'Broken', text: 'features\n    A = B\n' } });
      assert.equal(broken.status, 422);
      assert.match(broken.text, /Line 2:\d+ - unexpected character/);
      assert.ok(broken.text.includes('    A = B'), 'the text comes back in the editor');
      const untitled = await client.post('/editor/draft', { form: { title: '  ', text: MODEL } });
      assert.equal(untitled.status, 422);
      assert.match(untitled.text, /Give the draft a title/);
      const noText = await client.post('/editor/draft', { form: { title: 'No text' } });
      assert.equal(noText.status, 400);
      assert.match(noText.text, /field text/);
      assert.equal((await datasetsOf('user2@example.com')).length, before, 'no dataset made');
      assert.deepEqual(await stagedOf('user2@example.com'), [], 'nothing left staged');
    });

    it('refuses a save over MAX_FEATURES with the staging error and the text given back, keeping nothing (no 500)', async () => {
      const client = await login(server, 'user2@example.com');
      const before = (await datasetsOf('user2@example.com')).length;
      const draft = await client.post('/editor/draft', { form: { title: 'Too big', text: OVER_LIMIT } });
      assert.equal(draft.status, 422, draft.text);
      assert.ok(draft.text.includes(`Too_big.uvl has ${MAX_FEATURES + 1} features, more than the ${MAX_FEATURES} this hub accepts (MAX_FEATURES).`));
      assert.ok(draft.text.includes('            F7'), 'the text comes back in the editor');
      assert.equal((await datasetsOf('user2@example.com')).length, before, 'no dataset made');
      assert.deepEqual(await stagedOf('user2@example.com'), [], 'nothing left staged');
      const { fileId } = await storeModel(server, { content: MODEL, name: 'small.uvl' });
      const owner = await login(server, 'user1@example.com');
      const version = await owner.post(`/editor/file/${fileId}/new-version`, { form: { text: OVER_LIMIT } });
      assert.equal(version.status, 422, version.text);
      assert.ok(version.text.includes(`small.uvl has ${MAX_FEATURES + 1} features`));
      assert.ok(version.text.includes('            F7'), 'the text comes back in the editor');
    });

    it('stages a new version for the owner and opens the version form; 404 for anyone else', async () => {
      const { fileId } = await storeModel(server, { content: MODEL, name: 'bike.uvl' });
      const other = await login(server, 'user2@example.com');
      assert.equal((await other.post(`/editor/file/${fileId}/new-version`, { form: { text: MODEL } })).status, 404);
      const owner = await login(server, 'user1@example.com');
      const edited = MODEL.replace('Bell', 'Horn');
      const res = await owner.post(`/editor/file/${fileId}/new-version`, { form: { text: edited } });
      assert.equal(res.status, 303, res.text);
      assert.match(res.location ?? '', /^\/dataset\/upload\?version_of=\d+$/);
      const staged = await stagedOf('user1@example.com');
      assert.deepEqual(staged.map((f) => [f.filename, f.valid]), [['bike.uvl', true]]);
      assert.equal((await owner.post('/editor/file/abc/new-version', { form: { text: edited } })).status, 404);
    });

    it('stages only the last edit when Save as new version is used twice, no copy of the stored model beside it', async () => {
      const { fileId } = await storeModel(server, { content: MODEL, name: 'twice.uvl', owner: 'user2@example.com' });
      const owner = await login(server, 'user2@example.com');
      for (const edit of ['Horn', 'Lamp']) {
        const res = await owner.post(`/editor/file/${fileId}/new-version`, { form: { text: MODEL.replace('Bell', edit) } });
        assert.equal(res.status, 303, res.text);
      }
      const staged = await stagedOf('user2@example.com');
      assert.deepEqual(staged.map((f) => f.filename), ['twice.uvl'], 'not "twice (1).uvl" beside it');
      const userId = await userIdByEmail(server.hub.ctx.db, 'user2@example.com');
      assert.equal(await storedText(server, `temp/${userId}/twice.uvl`), MODEL.replace('Bell', 'Lamp'));
    });

    it('offers no new version of an unpublished dataset, and refuses one with the text given back', async () => {
      const { fileId } = await storeModel(server, { content: MODEL, name: 'draft.uvl', doi: null });
      const owner = await login(server, 'user1@example.com');
      const page = await owner.get(`/editor/file/${fileId}`);
      assert.equal(page.status, 200);
      assert.ok(!page.text.includes('id="btn-save-version"'), 'no Save as new version for a draft');
      const stagedBefore = await stagedOf('user1@example.com');
      const edited = MODEL.replace('Bell', 'Klaxon');
      const res = await owner.post(`/editor/file/${fileId}/new-version`, { form: { text: edited } });
      assert.ok(res.status >= 400 && res.status < 500, `refused: ${res.status}`);
      assert.ok(res.text.includes('Klaxon'), 'the edited text comes back');
      assert.deepEqual(await stagedOf('user1@example.com'), stagedBefore, 'nothing staged');
    });

    it('answers a save beyond the saver\'s share of heavy jobs with 429 and Retry-After, the text given back in the editor', async () => {
      const client = await login(server, 'user1@example.com');
      const userId = await userIdByEmail(server.hub.ctx.db, 'user1@example.com');
      const requester = `account:${userId}`;
      const scheduler = server.hub.ctx.scheduler;
      const shared = new Int32Array(new SharedArrayBuffer(4 * 8));
      // Four large jobs held on a gate, and four staging checks waiting for room: a fifth is refused.
      const held = [1, 2, 3, 4].map((id) => scheduler.submit(gateKind, { requester, lane: 'large', job: { id, shared, gate: 0 }, hardLimitMs: 120_000 }));
      const waiting = [1, 2, 3, 4].map((i) => {
        const form = new FormData();
        form.append('file', new Blob([MODEL.replace('Bell', `Wait${i}`)]), `wait${i}.uvl`);
        return client.post('/dataset/file/upload', { body: form });
      });
      const waiters = () => (scheduler as unknown as { waiters: Map<string, unknown[]> }).waiters.get(requester)?.length ?? 0;
      while (waiters() < 4) await new Promise((resolve) => setTimeout(resolve, 10));
      const before = (await datasetsOf('user1@example.com')).length;
      const edited = MODEL.replace('Bell', 'Siren');
      const draft = await client.post('/editor/draft', { form: { title: 'Busy', text: edited } });
      assert.equal(draft.status, 429, draft.text.slice(0, 300));
      assert.ok(Number(draft.headers.get('retry-after')) > 0);
      assert.match(draft.text, /at most 4 per requester/);
      assert.ok(draft.text.includes('Siren'), 'the text comes back in the editor');
      Atomics.store(shared, 1, 1);
      Atomics.notify(shared, 1);
      await Promise.all(held);
      for (const res of await Promise.all(waiting)) assert.equal(res.status, 200, res.text);
      for (const i of [1, 2, 3, 4]) await server.hub.ctx.services.dataset.deleteStagedFile(userId, `wait${i}.uvl`);
      assert.equal((await datasetsOf('user1@example.com')).length, before, 'no dataset made');
    });
  });
}
