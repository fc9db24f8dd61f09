// Staging over HTTP (decisions section 4): POST /dataset/file/upload and POST /dataset/file/delete.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testDialects } from '../../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { TestClient } from '../../../../test/support/client.ts';
import { isStored, putStored, storedEntries, storedText } from '../../../../test/support/stored.ts';
import { INVALID_UVL, VALID_UVL, newUser, stage } from '../dataset.test-support.ts';
import { createDatasetDeps } from '../dataset.deps.ts';
import { listStagedFiles } from './staged-files.ts';
import type { StagingArea } from './staging.ts';
import type { WorkerKind } from '../../../core/scheduler/index.ts';
import type { GateJob, GateReply } from '../../../core/scheduler/scheduler.test-support.ts';

/** A job that waits until the test opens its gate: four of them hold a requester's share of heavy work. */
const gateKind: WorkerKind<GateJob, GateReply> = {
  name: 'test-gate',
  options: {
    script: new URL('../../../core/scheduler/scheduler.test-support.ts', import.meta.url),
    crash: { error: (e) => e.message, exit: (c) => `exit ${c}`, overrun: () => 'overran' },
  },
};

const LIMIT = 4096;

for (const dialect of testDialects()) {
  describe(`dataset staging over HTTP [${dialect.name}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { MAX_UPLOAD_BYTES: String(LIMIT) } });
    });
    after(async () => { await server?.close(); });

    // Through the store, so that the same checks hold on the uploads folder and on S3.
    const folder = (userId: number) => `temp/${userId}/`;
    const listing = (userId: number) => storedEntries(server, folder(userId));

    it('redirects anonymous staging and deletion to /login, before any CSRF check', async () => {
      const anonymous = new TestClient(server.baseUrl);
      const staged = await stage(anonymous, 'a.uvl', VALID_UVL, { csrf: false });
      assert.equal(staged.status, 302);
      assert.equal(staged.location, '/login');
      const deleted = await anonymous.post('/dataset/file/delete', { json: { file: 'a.uvl' }, csrf: false });
      assert.equal(deleted.status, 302);
      assert.equal(deleted.location, '/login');
    });

    it('stages a .uvl file in <WORKING_DIR>/uploads/temp/<user_id>/ and answers its check', async () => {
      const { client, userId } = await newUser(server);
      const res = await stage(client, 'phone.uvl', VALID_UVL);
      assert.equal(res.status, 200);
      assert.equal(res.json.filename, 'phone.uvl');
      assert.equal(res.json.valid, true);
      assert.deepEqual(res.json.errors, []);
      assert.equal(typeof res.json.message, 'string');
      assert.deepEqual(await listing(userId), ['phone.uvl'], 'no temporary file is left behind');
      assert.equal(await storedText(server, `${folder(userId)}phone.uvl`), VALID_UVL);
      // Decisions section 7 names the folder on disk: on the uploads folder the key is that path.
      if (server.hub.ctx.store.kind === 'local') {
        assert.equal(readFileSync(join(server.workingDir, 'uploads', 'temp', String(userId), 'phone.uvl'), 'utf8'), VALID_UVL);
      }
    });

    it('stages an invalid model too, answering valid false with errors carrying line and column', async () => {
      const { client, userId } = await newUser(server);
      const res = await stage(client, 'broken.uvl', INVALID_UVL);
      assert.equal(res.status, 200);
      assert.equal(res.json.valid, false);
      assert.ok(res.json.errors.length > 0);
      for (const error of res.json.errors) assert.match(error, /Line \d+:\d+ - /);
      assert.deepEqual(await listing(userId), ['broken.uvl']);
    });

    it('accepts the extension in any case and refuses anything but .uvl with 400 {message}, storing nothing', async () => {
      const { client, userId } = await newUser(server);
      assert.equal((await stage(client, 'UPPER.UVL', VALID_UVL)).status, 200);
      for (const name of ['model.txt', 'model.uvl.exe', 'model', 'model.xml']) {
        const res = await stage(client, name, VALID_UVL);
        assert.equal(res.status, 400, name);
        assert.equal(typeof res.json.message, 'string');
      }
      assert.deepEqual(await listing(userId), ['UPPER.UVL']);
    });

    it('refuses a file over MAX_UPLOAD_BYTES with 413 {message} and stores nothing', async () => {
      const { client, userId } = await newUser(server);
      const big = `features\n    Big\n${'// padding line for the size limit\n'.repeat(Math.ceil((LIMIT * 2) / 35))}`;
      const res = await stage(client, 'big.uvl', big);
      assert.equal(res.status, 413);
      assert.equal(typeof res.json.message, 'string');
      assert.deepEqual(await listing(userId), []);
      const fits = await stage(client, 'fits.uvl', VALID_UVL);
      assert.equal(fits.status, 200, 'the next upload works');
    });

    it('answers 429 with Retry-After when the uploader holds its share of heavy jobs and as many uploads wait, keeping nothing; tried again, the file gets its own name', async () => {
      const { client, userId } = await newUser(server);
      const requester = `account:${userId}`;
      const scheduler = server.hub.ctx.scheduler;
      const shared = new Int32Array(new SharedArrayBuffer(4 * 8));
      // Four large jobs of the uploader held on a gate (the small lane stays free for everyone else)...
      const held = [1, 2, 3, 4].map((id) => scheduler.submit(gateKind, { requester, lane: 'large', job: { id, shared, gate: 0 }, hardLimitMs: 120_000 }));
      // ...and four uploads whose checks wait for room: a fifth upload is beyond what may wait.
      const waiting = [1, 2, 3, 4].map((i) => stage(client, `waits${i}.uvl`, VALID_UVL.replace('features', `// waits ${i}\nfeatures`)));
      const waiters = () => (scheduler as unknown as { waiters: Map<string, unknown[]> }).waiters.get(requester)?.length ?? 0;
      while (waiters() < 4) await new Promise((resolve) => setTimeout(resolve, 10));
      const model = VALID_UVL.replace('features', '// refused\nfeatures');
      const refused = await stage(client, 'held.uvl', model);
      assert.equal(refused.status, 429, refused.text);
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
      assert.match(refused.json.message, /at most 4/);
      Atomics.store(shared, 1, 1);
      Atomics.notify(shared, 1);
      await Promise.all(held);
      for (const res of await Promise.all(waiting)) assert.equal(res.status, 200, res.text);
      assert.deepEqual(await listing(userId), ['waits1.uvl', 'waits2.uvl', 'waits3.uvl', 'waits4.uvl'], 'the refused upload is not staged');
      const again = await stage(client, 'held.uvl', model);
      assert.equal(again.status, 200, again.text);
      assert.equal(again.json.filename, 'held.uvl', 'not "held (1).uvl"');
    });

    it('reduces a client path to its base name and never writes outside the staging folder', async () => {
      const { client, userId } = await newUser(server);
      const traversal = await stage(client, './../../escape.uvl', VALID_UVL);
      assert.equal(traversal.status, 200);
      assert.equal(traversal.json.filename, 'escape.uvl');
      const windows = await stage(client, 'C:\\Users\\me\\win.uvl', VALID_UVL);
      assert.equal(windows.json.filename, 'win.uvl');
      for (const name of ['.hidden.uvl', '..', '.uvl', '   .uvl', 'a\u0001b.uvl', `${'a'.repeat(300)}.uvl`, '', 'report\u202eldu.uvl', 'a\u2067b.uvl', 'a\u200fb.uvl']) {
        const res = await stage(client, name, VALID_UVL);
        assert.equal(res.status, 400, `${name} is refused`);
        assert.equal(typeof res.json.message, 'string', `${name}: {"message"}`);
      }
      assert.match((await stage(client, 'report\u202eldu.uvl', VALID_UVL)).json.message, /text-direction control/);
      // A joiner is part of writing in some scripts (Persian's zero-width non-joiner): kept.
      assert.equal((await stage(client, 'می\u200cخواهم.uvl', VALID_UVL)).status, 200);
      assert.deepEqual(await listing(userId), ['escape.uvl', 'win.uvl', 'می\u200cخواهم.uvl'].sort());
      assert.equal(existsSync(join(server.workingDir, 'escape.uvl')), false);
      assert.equal(await isStored(server, 'escape.uvl'), false);
      assert.equal(await isStored(server, 'temp/escape.uvl'), false);
    });

    it('gives a colliding name a " (n)" suffix before the extension', async () => {
      const { client, userId } = await newUser(server);
      const names = [];
      for (let i = 0; i < 3; i++) names.push((await stage(client, 'model.uvl', `${VALID_UVL}// copy ${i}\n`)).json.filename);
      assert.deepEqual(names, ['model.uvl', 'model (1).uvl', 'model (2).uvl']);
      assert.match((await storedText(server, `${folder(userId)}model (2).uvl`))!, /copy 2/);
    });

    it('refuses a request without the CSRF header, a wrong field name and a non-multipart body', async () => {
      const { client, userId } = await newUser(server);
      assert.equal((await stage(client, 'a.uvl', VALID_UVL, { csrf: false })).status, 400);
      const wrongField = await stage(client, 'a.uvl', VALID_UVL, { field: 'upload' });
      assert.equal(wrongField.status, 400);
      assert.equal(typeof wrongField.json.message, 'string');
      const json = await client.post('/dataset/file/upload', { json: { file: 'a.uvl' } });
      assert.equal(json.status, 400);
      assert.deepEqual(await listing(userId), []);
    });

    it('takes the CSRF token as the multipart field csrf_token before the file; a wrong or late field is refused', async () => {
      const { client, userId } = await newUser(server);
      const withField = (token: string, tokenFirst = true) => {
        const form = new FormData();
        if (tokenFirst) form.append('csrf_token', token);
        form.append('file', new Blob([VALID_UVL]), 'field.uvl');
        if (!tokenFirst) form.append('csrf_token', token);
        return client.post('/dataset/file/upload', { body: form, csrf: false });
      };
      const wrong = await withField('not-the-token');
      assert.equal(wrong.status, 400);
      assert.equal(typeof wrong.json.message, 'string');
      const late = await withField(client.csrfToken!, false);
      assert.equal(late.status, 400);
      assert.deepEqual(await listing(userId), []);
      const ok = await withField(client.csrfToken!);
      assert.equal(ok.status, 200, ok.text);
      assert.equal(ok.json.filename, 'field.uvl');
      assert.deepEqual(await listing(userId), ['field.uvl']);
    });

    it('deletes a staged file: 200 {message}; unknown 404 {error}; missing name 400; no CSRF 400', async () => {
      const { client, userId } = await newUser(server);
      await stage(client, 'keep.uvl', VALID_UVL);
      await stage(client, 'drop.uvl', VALID_UVL);
      const noCsrf = await client.post('/dataset/file/delete', { json: { file: 'drop.uvl' }, csrf: false });
      assert.equal(noCsrf.status, 400);
      assert.deepEqual(await listing(userId), ['drop.uvl', 'keep.uvl']);
      const ok = await client.post('/dataset/file/delete', { json: { file: 'drop.uvl' } });
      assert.equal(ok.status, 200);
      assert.equal(typeof ok.json.message, 'string');
      assert.deepEqual(await listing(userId), ['keep.uvl']);
      const names = ['drop.uvl', 'nothing.uvl', './keep.uvl', `../${userId}/keep.uvl`, '..', 'dir\\keep.uvl', `${'a'.repeat(5000)}.uvl`, '.claim-x'];
      for (const name of names) {
        const res = await client.post('/dataset/file/delete', { json: { file: name } });
        assert.equal(res.status, 404, name);
        assert.equal(typeof res.json.error, 'string');
      }
      // A NUL inside any JSON body is refused by the core before the route (400, in the route's {error} shape).
      const nul = await client.post('/dataset/file/delete', { json: { file: 'a\u0000b.uvl' } });
      assert.equal(nul.status, 400);
      assert.match(nul.json.error, /NUL/);
      const missing = await client.post('/dataset/file/delete', { json: {} });
      assert.equal(missing.status, 400);
      assert.deepEqual(await listing(userId), ['keep.uvl']);
    });

    it('answers every error of /dataset/file/delete as {"error"}, the shape decisions section 4 gives its 404: malformed JSON, a NUL, no CSRF token, no name, an unknown name', async () => {
      const { client, userId } = await newUser(server);
      await stage(client, 'keep.uvl', VALID_UVL);
      const answers = [
        await client.post('/dataset/file/delete', { body: '{"file": "keep.uvl"', headers: { 'content-type': 'application/json' } }),
        await client.post('/dataset/file/delete', { json: { file: 'keep\u0000.uvl' } }),
        await client.post('/dataset/file/delete', { json: { file: 'keep.uvl' }, csrf: false }),
        await client.post('/dataset/file/delete', { json: { file: 42 } }),
        await client.post('/dataset/file/delete', { json: { file: 'nothing.uvl' } }),
      ];
      assert.deepEqual(answers.map((a) => a.status), [400, 400, 400, 400, 404]);
      for (const answer of answers) {
        assert.deepEqual(Object.keys(answer.json), ['error'], answer.text);
        assert.ok(answer.json.error.length > 10, answer.text);
      }
      assert.deepEqual(await listing(userId), ['keep.uvl']);
    });

    it("cannot delete another user's staged file", async () => {
      const owner = await newUser(server, 'Owner');
      const other = await newUser(server, 'Other');
      await stage(owner.client, 'mine.uvl', VALID_UVL);
      const res = await other.client.post('/dataset/file/delete', { json: { file: 'mine.uvl' } });
      assert.equal(res.status, 404);
      const sneaky = await other.client.post('/dataset/file/delete', { json: { file: `../${owner.userId}/mine.uvl` } });
      assert.equal(sneaky.status, 404);
      assert.deepEqual(await listing(owner.userId), ['mine.uvl']);
    });

    it('refuses a 201st staged file (a dataset holds at most 200)', async () => {
      const { client, userId } = await newUser(server);
      assert.equal((await stage(client, 'first.uvl', VALID_UVL)).status, 200);
      for (let i = 0; i < 199; i++) await putStored(server, `${folder(userId)}filler-${i}.uvl`, VALID_UVL);
      const res = await stage(client, 'one-more.uvl', VALID_UVL);
      assert.equal(res.status, 400);
      assert.match(res.json.message, /200 staged files/);
      assert.equal((await listing(userId)).length, 200);
      await client.post('/dataset/file/delete', { json: { file: 'first.uvl' } });
      assert.equal((await stage(client, 'one-more.uvl', VALID_UVL)).status, 200);
    });

    it('lists files staged on an earlier visit on the upload page, with their check', async () => {
      const { client } = await newUser(server);
      await stage(client, 'earlier.uvl', INVALID_UVL);
      const page = await client.get('/dataset/upload');
      assert.equal(page.status, 200);
      const staged = JSON.parse(/data-staged="([^"]*)"/.exec(page.text)![1]!.replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/&#39;/g, "'"));
      assert.equal(staged.length, 1);
      assert.equal(staged[0].filename, 'earlier.uvl');
      assert.equal(staged[0].valid, false);
    });

    it('lists what is staged now when a listed file is removed before its check is read (a Remove racing the page)', async () => {
      const { client, userId } = await newUser(server);
      await stage(client, 'gone.uvl', INVALID_UVL);
      await stage(client, 'stays.uvl', VALID_UVL);
      const d = createDatasetDeps(server.hub.ctx);
      try {
        // The Remove lands between the page's listing of the folder and its reading of each file.
        const area = d.staging;
        d.staging = Object.assign(Object.create(area) as StagingArea, {
          list: async (user: number) => {
            const files = await area.list(user);
            await area.remove(user, 'gone.uvl');
            return files;
          },
        });
        const staged = await listStagedFiles(d, userId);
        assert.deepEqual(staged.map((s) => [s.filename, s.valid]), [['stays.uvl', true]]);
      } finally {
        await d.instances.stop();
      }
    });

    it('puts back the files of a claim left by a crashed upload (older than an hour) when the upload page lists them', async () => {
      const { client, userId } = await newUser(server);
      await stage(client, 'fresh.uvl', VALID_UVL);
      await stage(client, 'kept.uvl', VALID_UVL);
      // A claim is a folder of the claimed files and `.claimed-at`, the date it was made.
      const stale = `${folder(userId)}.claim-stale/`;
      const recent = `${folder(userId)}.claim-recent/`;
      const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
      await putStored(server, `${stale}.claimed-at`, twoHoursAgo.toISOString());
      await putStored(server, `${stale}lost.uvl`, VALID_UVL);
      await putStored(server, `${stale}kept.uvl`, SECOND);
      await putStored(server, `${recent}.claimed-at`, new Date().toISOString());
      await putStored(server, `${recent}busy.uvl`, VALID_UVL);
      const page = await client.get('/dataset/upload');
      assert.equal(page.status, 200);
      // The name staged again meanwhile keeps its file; the returning one gets a " (1)" suffix.
      assert.deepEqual(await listing(userId), ['.claim-recent', 'fresh.uvl', 'kept (1).uvl', 'kept.uvl', 'lost.uvl']);
      assert.equal(await storedText(server, `${folder(userId)}kept (1).uvl`), SECOND);
      assert.deepEqual(await storedEntries(server, recent), ['.claimed-at', 'busy.uvl'], 'a claim of a running upload is left alone');
      assert.match(page.text, /lost\.uvl/);
      assert.doesNotMatch(page.text, /busy\.uvl|\.claim-/);
    });
  });
}

const SECOND = 'features\n    Second\n';
