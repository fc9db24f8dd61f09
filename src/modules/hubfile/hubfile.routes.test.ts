// GET /file/download/<id> and GET /file/view/<id> at HTTP level, on every dialect
// (specification, hubfile rules 1 to 4). Rows are made through the featuremodel and hubfile
// services, the dataset row is a fixture, and the file is stored under the key the service reads.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient, type TestResponse } from '../../../test/support/client.ts';
import { storeModelFile, userIdByEmail } from '../../../test/support/fixtures.ts';
import { deleteStored, putStored } from '../../../test/support/stored.ts';

const MODEL = 'features\n    Root\n        optional\n            Alpha\n            Beta\n';
const TWO_YEARS = 63072000;

interface Stored {
  datasetId: number;
  fileId: number;
  prefix: string;
  key: string;
}

/** A dataset (synchronized unless doi is null) with one feature model and one stored file. */
function storeFile(server: TestServer, options: { owner?: string; doi?: string | null; name?: string; content?: string } = {}): Promise<Stored> {
  return storeModelFile(server, { ...options, label: 'Hubfile', content: options.content ?? MODEL });
}

function records(server: TestServer, table: 'file_download_record' | 'file_view_record', fileId: number) {
  return server.hub.db.selectFrom(table).select(['user_id', 'user_key', 'cookie', 'date']).where('file_id', '=', fileId).orderBy('id').execute();
}

function cookieAttributes(res: TestResponse, name: string): { value: string; attributes: Map<string, string> } | undefined {
  const raw = res.setCookies.get(name);
  if (!raw) return undefined;
  const [pair, ...rest] = raw.split(';');
  const attributes = new Map(rest.map((part) => {
    const [k, ...v] = part.trim().split('=');
    return [k!.toLowerCase(), v.join('=')] as [string, string];
  }));
  return { value: pair!.slice(pair!.indexOf('=') + 1), attributes };
}

for (const dialect of testDialects()) {
  describe(`hubfile routes [${dialect.name}]`, () => {
    let server: TestServer;
    const client = () => new TestClient(server.baseUrl);

    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true });
    });
    after(async () => server?.close());

    describe('HTTP validators', () => {
      it('download and view carry ETag and Last-Modified; a matching If-None-Match or If-Modified-Since is 304, sends nothing and counts nothing', async () => {
        const stored = await storeFile(server);
        const visitor = client();
        for (const [path, table] of [[`/file/download/${stored.fileId}`, 'file_download_record'], [`/file/view/${stored.fileId}`, 'file_view_record']] as const) {
          const first = await visitor.get(path);
          assert.equal(first.status, 200, path);
          const etag = first.headers.get('etag')!;
          assert.match(etag, /^"[^"]+"$/, path);
          const lastModified = first.headers.get('last-modified')!;
          assert.ok(!Number.isNaN(Date.parse(lastModified)), path);
          assert.equal(first.headers.get('cache-control'), 'private, no-cache');
          assert.equal((await records(server, table, stored.fileId)).length, 1);

          const other = client(); // a visitor without the counting cookie, whose cache holds the file
          const cached = await other.get(path, { 'if-none-match': etag });
          assert.equal(cached.status, 304, path);
          assert.equal(cached.text, '');
          assert.equal((await other.get(path, { 'if-modified-since': lastModified })).status, 304, path);
          assert.equal((await records(server, table, stored.fileId)).length, 1, `${path}: a 304 is not counted`);
          const changed = await other.get(path, { 'if-none-match': '"something-else"' });
          assert.equal(changed.status, 200, path);
          assert.equal((await records(server, table, stored.fileId)).length, 2);
        }
        // The view's tag differs from the download's: the bodies differ.
        const download = await visitor.get(`/file/download/${stored.fileId}`);
        const view = await visitor.get(`/file/view/${stored.fileId}`);
        assert.notEqual(download.headers.get('etag'), view.headers.get('etag'));
      });
    });

    describe('GET /file/download/<id>', () => {
      it('sends the file as an attachment with its name, anonymously, and counts it once per cookie', async () => {
        const stored = await storeFile(server);
        const visitor = client();
        const first = await visitor.get(`/file/download/${stored.fileId}`);
        assert.equal(first.status, 200);
        assert.equal(first.text, MODEL);
        assert.match(first.headers.get('content-disposition') ?? '', /^attachment; filename="model\.uvl"/);
        assert.equal(first.headers.get('content-length'), String(Buffer.byteLength(MODEL)));
        const cookie = cookieAttributes(first, 'file_download_cookie');
        assert.ok(cookie, 'the cookie is set when absent');
        assert.equal(cookie.attributes.get('max-age'), String(TWO_YEARS));
        assert.equal(cookie.attributes.get('path'), '/');
        let rows = await records(server, 'file_download_record', stored.fileId);
        assert.equal(rows.length, 1, 'recorded by the time the answer arrived');
        assert.deepEqual([rows[0]!.user_id, rows[0]!.user_key, rows[0]!.cookie], [null, 0, cookie.value]);
        assert.ok(!Number.isNaN(Date.parse(rows[0]!.date)));

        for (let i = 0; i < 3; i++) {
          const again = await visitor.get(`/file/download/${stored.fileId}`);
          assert.equal(again.status, 200);
          assert.equal(again.setCookies.has('file_download_cookie'), false, 'an existing cookie is reused, not set again');
        }
        rows = await records(server, 'file_download_record', stored.fileId);
        assert.equal(rows.length, 1, 'one record per (anonymous, file, cookie)');

        const other = await client().get(`/file/download/${stored.fileId}`);
        assert.equal(other.status, 200);
        assert.notEqual(cookieAttributes(other, 'file_download_cookie')?.value, cookie.value);
        assert.equal((await records(server, 'file_download_record', stored.fileId)).length, 2, 'another visitor, another record');
      });

      it('counts a logged-in user apart from the anonymous visitor with the same cookie, once', async () => {
        const stored = await storeFile(server);
        const visitor = client();
        await visitor.get(`/file/download/${stored.fileId}`);
        const cookie = visitor.cookies.get('file_download_cookie');
        assert.ok(cookie);
        await visitor.login('user2@example.com', '1234');
        const userId = await userIdByEmail(server.hub.db, 'user2@example.com');
        for (let i = 0; i < 2; i++) {
          const res = await visitor.get(`/file/download/${stored.fileId}`);
          assert.equal(res.status, 200);
          assert.equal(res.setCookies.has('file_download_cookie'), false);
        }
        const rows = await records(server, 'file_download_record', stored.fileId);
        assert.deepEqual(rows.map((r) => [r.user_id, r.user_key, r.cookie]), [[null, 0, cookie], [userId, userId, cookie]]);
      });

      it('leaves a single record when the same visitor downloads many times at once', async () => {
        const stored = await storeFile(server);
        const visitor = client();
        await visitor.get(`/file/download/${stored.fileId}`);
        const results = await Promise.all(Array.from({ length: 12 }, () => visitor.get(`/file/download/${stored.fileId}`)));
        assert.ok(results.every((r) => r.status === 200));
        assert.equal((await records(server, 'file_download_record', stored.fileId)).length, 1);
      });

      it('replaces a cookie value it could not have issued', async () => {
        const stored = await storeFile(server);
        const res = await client().get(`/file/download/${stored.fileId}`, { cookie: 'file_download_cookie=x' });
        assert.equal(res.status, 200);
        const cookie = cookieAttributes(res, 'file_download_cookie');
        assert.ok(cookie && cookie.value !== 'x');
        assert.deepEqual((await records(server, 'file_download_record', stored.fileId)).map((r) => r.cookie), [cookie.value]);
      });

      it('answers 404 JSON for an unknown id and counts nothing, sets no cookie', async () => {
        const before = await server.hub.ctx.services.hubfile.totals();
        const res = await client().get('/file/download/987654');
        assert.equal(res.status, 404);
        assert.match(res.headers.get('content-type') ?? '', /application\/json/);
        assert.match(res.json.error, /987654/);
        assert.equal(res.setCookies.has('file_download_cookie'), false);
        assert.deepEqual(await server.hub.ctx.services.hubfile.totals(), before);
      });

      it('answers 404 JSON when the row exists but the disk file is missing, and counts nothing', async () => {
        const stored = await storeFile(server);
        await deleteStored(server, stored.key);
        const res = await client().get(`/file/download/${stored.fileId}`);
        assert.equal(res.status, 404);
        assert.match(res.json.error, /missing from disk/);
        assert.equal(res.setCookies.has('file_download_cookie'), false);
        assert.equal((await records(server, 'file_download_record', stored.fileId)).length, 0);
      });

      it('answers 404 for ids that are not integers of the id range', async () => {
        for (const id of ['abc', '-1', '1.5', '0x10', '99999999999', '0', '1e3', '%2e%2e']) {
          const res = await client().get(`/file/download/${id}`);
          assert.equal(res.status, 404, id);
          assert.equal(typeof res.json, 'object', `${id} answers JSON`);
        }
      });

      it('names the attachment exactly, whatever characters the stored name has', async () => {
        const stored = await storeFile(server, { name: 'modèle "v2" 100%.uvl' });
        const res = await client().get(`/file/download/${stored.fileId}`);
        assert.equal(res.status, 200);
        const header = res.headers.get('content-disposition') ?? '';
        assert.match(header, /^attachment; filename="mod_le _v2_ 100_\.uvl"; filename\*=UTF-8''/);
        assert.equal(decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(header)![1]!), 'modèle "v2" 100%.uvl');
      });

      it('does not count a HEAD request', async () => {
        const stored = await storeFile(server);
        const res = await fetch(`${server.baseUrl}/file/download/${stored.fileId}`, { method: 'HEAD' });
        assert.equal(res.status, 200);
        assert.equal((await records(server, 'file_download_record', stored.fileId)).length, 0);
      });

      it('keeps the files of an unsynchronized dataset to its owner', async () => {
        const stored = await storeFile(server, { doi: null, owner: 'user1@example.com' });
        assert.equal((await client().get(`/file/download/${stored.fileId}`)).status, 404, 'anonymous');
        const stranger = client();
        await stranger.login('user2@example.com', '1234');
        assert.equal((await stranger.get(`/file/download/${stored.fileId}`)).status, 404, 'another user');
        const owner = client();
        await owner.login('user1@example.com', '1234');
        const res = await owner.get(`/file/download/${stored.fileId}`);
        assert.equal(res.status, 200);
        assert.equal(res.text, MODEL);
        assert.equal((await records(server, 'file_download_record', stored.fileId)).length, 1);
      });
    });

    describe('GET /file/view/<id>', () => {
      it('answers the UVL source as JSON and counts one view per cookie', async () => {
        const content = 'features\n    Café\n        optional\n            "Crème brûlée"\n';
        const stored = await storeFile(server, { content });
        const visitor = client();
        const first = await visitor.get(`/file/view/${stored.fileId}`);
        assert.equal(first.status, 200);
        assert.deepEqual(first.json, { success: true, content });
        const cookie = cookieAttributes(first, 'view_cookie');
        assert.ok(cookie, 'view_cookie is set when absent');
        assert.equal(cookie.attributes.get('max-age'), String(TWO_YEARS));
        assert.equal(cookie.attributes.get('path'), '/');
        for (let i = 0; i < 3; i++) {
          const again = await visitor.get(`/file/view/${stored.fileId}`);
          assert.equal(again.status, 200);
          assert.equal(again.setCookies.has('view_cookie'), false);
        }
        const rows = await records(server, 'file_view_record', stored.fileId);
        assert.deepEqual(rows.map((r) => [r.user_id, r.user_key, r.cookie]), [[null, 0, cookie.value]]);
        assert.equal((await records(server, 'file_download_record', stored.fileId)).length, 0, 'a view is not a download');

        const user = client();
        user.cookies.set('view_cookie', cookie.value);
        await user.login('user1@example.com', '1234');
        const userId = await userIdByEmail(server.hub.db, 'user1@example.com');
        await user.get(`/file/view/${stored.fileId}`);
        await user.get(`/file/view/${stored.fileId}`);
        assert.deepEqual((await records(server, 'file_view_record', stored.fileId)).map((r) => r.user_key), [0, userId]);
      });

      it('answers JSON 404 when the row exists but the disk file is missing, and counts nothing', async () => {
        const stored = await storeFile(server);
        await deleteStored(server, stored.key);
        const res = await client().get(`/file/view/${stored.fileId}`);
        assert.equal(res.status, 404);
        assert.equal(res.json.success, false);
        assert.match(res.json.error, /missing from disk/);
        assert.equal(res.setCookies.has('view_cookie'), false);
        assert.equal((await records(server, 'file_view_record', stored.fileId)).length, 0);
      });

      it('answers JSON 404 for an unknown or non-integer id', async () => {
        const unknown = await client().get('/file/view/987654');
        assert.equal(unknown.status, 404);
        assert.equal(unknown.json.success, false);
        assert.match(unknown.json.error, /987654/);
        assert.equal(unknown.setCookies.has('view_cookie'), false);
        for (const id of ['abc', '-3', '2.0', '4294967296']) {
          const res = await client().get(`/file/view/${id}`);
          assert.equal(res.status, 404, id);
          assert.equal(typeof res.json, 'object');
        }
      });

      it('keeps the files of an unsynchronized dataset to its owner', async () => {
        const stored = await storeFile(server, { doi: null, owner: 'user2@example.com' });
        assert.equal((await client().get(`/file/view/${stored.fileId}`)).status, 404);
        const owner = client();
        await owner.login('user2@example.com', '1234');
        assert.equal((await owner.get(`/file/view/${stored.fileId}`)).json.content, MODEL);
      });
    });

    describe('totals and the landing page', () => {
      it('counts views and downloads in the database, and the feature model module reports the same', async () => {
        const before = await server.hub.ctx.services.hubfile.totals();
        const stored = await storeFile(server);
        await client().get(`/file/view/${stored.fileId}`);
        await client().get(`/file/view/${stored.fileId}`);
        await client().get(`/file/download/${stored.fileId}`);
        const totals = await server.hub.ctx.services.hubfile.totals();
        assert.deepEqual(totals, { views: before.views + 2, downloads: before.downloads + 1 });
        assert.deepEqual(await server.hub.ctx.services.featuremodel.totals(), totals);
        assert.deepEqual(await server.hub.ctx.services.hubfile.countsForFile(stored.fileId), { views: 2, downloads: 1 });
      });
    });

    describe('hubfile service', () => {
      it('refuses stored names that are not a single path component', async () => {
        const stored = await storeFile(server);
        const fm = await server.hub.db.selectFrom('file').select('feature_model_id').where('id', '=', stored.fileId).executeTakeFirstOrThrow();
        for (const name of ['../escape.uvl', 'a/b.uvl', 'a\\b.uvl', '..', '.', '', 'nul\0.uvl']) {
          await assert.rejects(
            server.hub.ctx.services.hubfile.createFile(server.hub.db, fm.feature_model_id, { name, checksum: 'x', size: 1 }),
            /not a plain file name/, JSON.stringify(name),
          );
        }
      });

      it('places a dataset folder under the uploads folder of the working directory', () => {
        assert.equal(server.hub.ctx.services.hubfile.datasetFolder(7, 42), join(server.workingDir, 'uploads', 'user_7', 'dataset_42'));
        assert.throws(() => server.hub.ctx.services.hubfile.datasetFolder(0, 1), RangeError);
      });

      it('getFile resolves owner, dataset and path through the feature model and dataset', async () => {
        const stored = await storeFile(server, { owner: 'user2@example.com' });
        const file = await server.hub.ctx.services.hubfile.getFile(stored.fileId);
        const userId = await userIdByEmail(server.hub.db, 'user2@example.com');
        assert.ok(file);
        assert.equal(file.datasetId, stored.datasetId);
        assert.equal(file.userId, userId);
        assert.equal(file.key, stored.key);
        assert.equal(file.path, join(server.hub.ctx.services.hubfile.datasetFolder(userId, stored.datasetId), 'model.uvl'));
        assert.equal(file.sizeHuman, `${Buffer.byteLength(MODEL)} bytes`);
        assert.equal(await server.hub.ctx.services.hubfile.getFile(987654), undefined);
      });

      it('reads sibling files of the same dataset only', async () => {
        const stored = await storeFile(server);
        const hubfile = server.hub.ctx.services.hubfile;
        const file = (await hubfile.getFile(stored.fileId))!;
        await putStored(server, `${stored.prefix}sub.uvl`, 'features\n    Sub\n');
        await putStored(server, `${stored.prefix}.hidden.uvl`, 'features\n    Hidden\n');
        // Outside the dataset's prefix, at the root of the store, where "../../" would lead.
        await putStored(server, 'secret.uvl', 'features\n    Secret\n');
        if (server.hub.ctx.store.kind === 'local') {
          // Only a folder holds symbolic links: one out of the dataset folder must not be followed.
          const secret = join(server.workingDir, 'secret.uvl');
          await writeFile(secret, 'features\n    Secret\n');
          await symlink(secret, join(hubfile.datasetFolder(file.userId, file.datasetId), 'link.uvl'));
        }
        assert.equal(await hubfile.readSibling(file, 'sub.uvl'), 'features\n    Sub\n');
        for (const path of ['../../secret.uvl', '../../../secret.uvl', '.hidden.uvl', 'nested/../sub.uvl', 'missing.uvl', '/etc/passwd', 'link.uvl']) {
          assert.equal(await hubfile.readSibling(file, path), undefined, path);
        }
      });
    });
  });
}
