// The publishing flow over the API with a personal access token (extensions section 3): create,
// add models, remove one, publish against a deposit repository (the fake Zenodo server), read
// files and search; the same rules as the pages (model check, limits, ownership, deposit outcome).
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import type { TestServer } from '../../../test/support/server.ts';
import { useHubWithFakeZenodo, type FakeZenodo } from '../../../test/support/fake-zenodo.ts';
import { newUser } from '../../../test/support/accounts.ts';
import { isStored, storedEntries } from '../../../test/support/stored.ts';
import { BROKEN_UVL as INVALID_UVL, CAR_UVL as SECOND_UVL, PHONE_UVL as VALID_UVL, bearer, createToken, uvlForm } from '../../../test/support/api.ts';

const DOMAIN = 'hub.example.org';

for (const dialect of testDialects()) {
  describe(`API publishing flow [${dialect.name}]`, () => {
    const hubs = useHubWithFakeZenodo({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { DOMAIN, MAX_UPLOAD_BYTES: '4096' } });
    let server: TestServer;
    let zenodo: FakeZenodo;
    before(() => ({ server, zenodo } = hubs));

    const api = (token: string, method: string, path: string, body?: unknown) => bearer(server.baseUrl, token, method, path, body);

    it('a write token creates a dataset, adds two models, removes one, adds it again and publishes: DOI', async () => {
      zenodo.reset();
      const { client, userId } = await newUser(server, 'Scripted');
      const token = await createToken(client, ['write']);
      const created = await api(token, 'POST', '/api/v1/datasets/', {
        name: 'From CI', description: 'Published by a script zqxjkv', tags: 'ci, api',
        authors: [{ name: 'Doe, Jane', affiliation: 'Uni', orcid: '0000-0002-1825-0097' }, { name: 'Roe, Rick' }],
      });
      assert.equal(created.status, 201);
      const id = created.json.id;
      const first = await api(token, 'POST', `/api/v1/datasets/${id}/files`, uvlForm('phone.uvl', VALID_UVL));
      assert.equal(first.status, 201, JSON.stringify(first.json));
      assert.deepEqual(Object.keys(first.json).sort(), ['checksum', 'dataset_id', 'download', 'file_id', 'file_name', 'size', 'size_in_bytes', 'view']);
      assert.equal(first.json.file_name, 'phone.uvl');
      assert.equal(first.json.dataset_id, id);
      assert.equal(first.json.size_in_bytes, Buffer.byteLength(VALID_UVL));
      // Read once in between: what the hub keeps of the dataset must follow the next file.
      const early = await api(token, 'GET', `/api/v1/datasets/${id}`);
      assert.deepEqual(early.json.files.map((f: { file_name: string }) => f.file_name), ['phone.uvl']);
      const second = await api(token, 'POST', `/api/v1/datasets/${id}/files`, uvlForm('car.uvl', SECOND_UVL));
      assert.equal(second.status, 201);
      const prefix = server.hub.ctx.services.hubfile.datasetPrefix(userId, id);
      assert.ok(await isStored(server, `${prefix}phone.uvl`) && await isStored(server, `${prefix}car.uvl`));

      const duplicate = await api(token, 'POST', `/api/v1/datasets/${id}/files`, uvlForm('car.uvl', SECOND_UVL));
      assert.equal(duplicate.status, 409);
      const removed = await api(token, 'DELETE', `/api/v1/datasets/${id}/files/${second.json.file_id}`);
      assert.equal(removed.status, 204);
      assert.equal(await isStored(server, `${prefix}car.uvl`), false);
      assert.equal((await api(token, 'GET', `/api/v1/files/${second.json.file_id}`)).status, 404);
      const again = await api(token, 'POST', `/api/v1/datasets/${id}/files`, uvlForm('car.uvl', SECOND_UVL));
      assert.equal(again.status, 201);

      const metrics = await server.hub.db.selectFrom('data_set').innerJoin('ds_meta_data as md', 'md.id', 'data_set.ds_meta_data_id')
        .innerJoin('ds_metrics as mt', 'mt.id', 'md.ds_metrics_id').select(['mt.number_of_models', 'mt.number_of_features']).where('data_set.id', '=', id).executeTakeFirstOrThrow();
      assert.equal(Number(metrics.number_of_models), 2);
      assert.ok(Number(metrics.number_of_features) > 0);

      const published = await api(token, 'POST', `/api/v1/datasets/${id}/publish`);
      assert.equal(published.status, 200, JSON.stringify(published.json));
      assert.equal(published.json.status, 'ok');
      assert.equal(published.json.dataset_id, id);
      assert.match(published.json.doi, /^10\./);
      assert.equal(published.json.url, `http://${DOMAIN}/doi/${published.json.doi}`);
      const deposition = [...zenodo.depositions.values()].find((d) => d.published)!;
      assert.deepEqual([...deposition.files.keys()].sort(), ['car.uvl', 'phone.uvl']);
      assert.deepEqual(deposition.metadata!.creators.map((c: { name: string }) => c.name), ['Doe, Jane', 'Roe, Rick']);

      const read = await api(token, 'GET', `/api/v1/datasets/${id}`);
      assert.equal(read.json.doi, published.json.url);
      assert.deepEqual(read.json.files.map((f: { file_name: string }) => f.file_name).sort(), ['car.uvl', 'phone.uvl']);
      const file = await api(token, 'GET', `/api/v1/files/${first.json.file_id}`);
      assert.deepEqual(file.json, first.json);
      // Published: public, and frozen.
      assert.equal((await fetch(`${server.baseUrl}/api/v1/files/${first.json.file_id}`)).status, 200);
      assert.equal((await api(token, 'POST', `/api/v1/datasets/${id}/files`, uvlForm('late.uvl', VALID_UVL))).status, 409);
      assert.equal((await api(token, 'DELETE', `/api/v1/datasets/${id}/files/${first.json.file_id}`)).status, 409);
      const twice = await api(token, 'POST', `/api/v1/datasets/${id}/publish`);
      assert.equal(twice.status, 409);
      assert.equal(twice.json.doi, published.json.doi);
      const found = await api(token, 'POST', '/api/v1/search', { query: 'zqxjkv' });
      assert.equal(found.status, 200);
      assert.deepEqual(found.json.map((d: { id: number }) => d.id), [id]);
    });

    it('refuses an invalid model with its errors, a non-UVL file, a too large file; nothing is kept', async () => {
      const { client, userId } = await newUser(server);
      const token = await createToken(client, ['read', 'write']);
      const id = (await api(token, 'POST', '/api/v1/datasets/', { name: 'Checks' })).json.id;
      const invalid = await api(token, 'POST', `/api/v1/datasets/${id}/files`, uvlForm('broken.uvl', INVALID_UVL));
      assert.equal(invalid.status, 400);
      assert.match(invalid.json.message, /broken\.uvl is not a valid UVL model/);
      assert.ok(invalid.json.errors.length > 0 && invalid.json.errors.every((e: string) => /^Line \d+:\d+ - /.test(e)), JSON.stringify(invalid.json.errors));
      const notUvl = await api(token, 'POST', `/api/v1/datasets/${id}/files`, uvlForm('notes.txt', 'hello'));
      assert.equal(notUvl.status, 400);
      assert.equal(typeof notUvl.json.message, 'string');
      const large = await api(token, 'POST', `/api/v1/datasets/${id}/files`, uvlForm('large.uvl', `features\n    A\n${' '.repeat(5000)}\n`));
      assert.equal(large.status, 413);
      const noFile = await api(token, 'POST', `/api/v1/datasets/${id}/files`, { name: 'x' });
      assert.equal(noFile.status, 400);
      const empty = await api(token, 'POST', `/api/v1/datasets/${id}/publish`);
      assert.equal(empty.status, 400, 'a dataset without models is not published');
      assert.equal((await api(token, 'GET', `/api/v1/datasets/${id}`)).json.files.length, 0);
      assert.deepEqual(await storedEntries(server, server.hub.ctx.services.hubfile.datasetPrefix(userId, id)), []);
      assert.deepEqual(await storedEntries(server, `temp/${userId}/`), [], 'the browser staging area is untouched');
    });

    it('a failed deposit answers partial and leaves the dataset unsynchronized; a later publish succeeds', async () => {
      zenodo.reset();
      const { client } = await newUser(server);
      const token = await createToken(client, ['write']);
      const id = (await api(token, 'POST', '/api/v1/datasets/', { name: 'Deposit fails' })).json.id;
      await api(token, 'POST', `/api/v1/datasets/${id}/files`, uvlForm('phone.uvl', VALID_UVL));
      const undescribed = await api(token, 'POST', `/api/v1/datasets/${id}/publish`);
      assert.equal(undescribed.status, 400);
      assert.equal(undescribed.json.field, 'description');
      assert.equal((await api(token, 'PUT', `/api/v1/datasets/${id}`, { description: 'Now described' })).status, 200);
      zenodo.failOn('publish', 500);
      const partial = await api(token, 'POST', `/api/v1/datasets/${id}/publish`);
      assert.equal(partial.status, 200);
      assert.equal(partial.json.status, 'partial', JSON.stringify(partial.json));
      assert.equal(partial.json.dataset_id, id);
      assert.equal(typeof partial.json.message, 'string');
      assert.equal((await api(token, 'GET', `/api/v1/datasets/${id}`)).json.doi, null);
      zenodo.reset();
      const ok = await api(token, 'POST', `/api/v1/datasets/${id}/publish`);
      assert.equal(ok.json.status, 'ok', JSON.stringify(ok.json));
    });

    it('a read token gets 403 on every write and nothing changes; it may read and search', async () => {
      const owner = await newUser(server);
      const write = await createToken(owner.client, ['write']);
      const read = await createToken(owner.client, ['read']);
      const id = (await api(write, 'POST', '/api/v1/datasets/', { name: 'Read-only target' })).json.id;
      const file = (await api(write, 'POST', `/api/v1/datasets/${id}/files`, uvlForm('phone.uvl', VALID_UVL))).json;
      const writes: [string, string, unknown?][] = [
        ['POST', '/api/v1/datasets/', { name: 'no' }],
        ['PUT', `/api/v1/datasets/${id}`, { name: 'no' }],
        ['DELETE', `/api/v1/datasets/${id}`],
        ['POST', `/api/v1/datasets/${id}/files`, uvlForm('other.uvl', VALID_UVL)],
        ['DELETE', `/api/v1/datasets/${id}/files/${file.file_id}`],
        ['POST', `/api/v1/datasets/${id}/publish`],
      ];
      for (const [method, path, body] of writes) {
        const res = await api(read, method, path, body);
        assert.equal(res.status, 403, `${method} ${path}`);
        assert.match(res.json.message, /write scope/);
      }
      const dataset = await api(read, 'GET', `/api/v1/datasets/${id}`);
      assert.equal(dataset.status, 200, 'the owner\'s unsynchronized dataset is readable with a read token');
      assert.equal(dataset.json.name, 'Read-only target');
      assert.deepEqual(dataset.json.files.map((f: { file_id: number }) => f.file_id), [file.file_id]);
      assert.equal((await api(read, 'GET', `/api/v1/files/${file.file_id}`)).status, 200);
      assert.equal((await api(read, 'POST', '/api/v1/search', {})).status, 200);
    });

    it('ownership: another user\'s token gets 404 for a hidden dataset and 403 for a published one', async () => {
      const owner = await newUser(server);
      const stranger = await newUser(server);
      const mine = await createToken(owner.client, ['write']);
      const theirs = await createToken(stranger.client, ['write']);
      const id = (await api(mine, 'POST', '/api/v1/datasets/', { name: 'Private draft' })).json.id;
      const file = (await api(mine, 'POST', `/api/v1/datasets/${id}/files`, uvlForm('phone.uvl', VALID_UVL))).json;
      assert.equal((await api(theirs, 'POST', `/api/v1/datasets/${id}/files`, uvlForm('x.uvl', VALID_UVL))).status, 404);
      assert.equal((await api(theirs, 'DELETE', `/api/v1/datasets/${id}/files/${file.file_id}`)).status, 404);
      assert.equal((await api(theirs, 'POST', `/api/v1/datasets/${id}/publish`)).status, 404);
      assert.equal((await api(theirs, 'GET', `/api/v1/files/${file.file_id}`)).status, 404);
      const seeded = (await fetch(`${server.baseUrl}/api/v1/datasets/`).then((r) => r.json())).items[0];
      assert.equal((await api(theirs, 'POST', `/api/v1/datasets/${seeded.dataset_id}/publish`)).status, 403);
      assert.equal((await api(theirs, 'DELETE', `/api/v1/datasets/${seeded.dataset_id}/files/${seeded.files[0].file_id}`)).status, 403);
    });

    it('answers bad input with 400 {"message", "field"} naming the field, never a stack trace', async () => {
      const { client } = await newUser(server);
      const token = await createToken(client, ['write']);
      const cases: [string, string, unknown, string][] = [
        ['POST', '/api/v1/datasets/', { name: 5 }, 'name'],
        ['POST', '/api/v1/datasets/', { name: 'x', publication_type: 'novel' }, 'publication_type'],
        ['POST', '/api/v1/datasets/', { name: 'x', authors: [{ affiliation: 'no name' }] }, 'authors.0.name'],
        ['POST', '/api/v1/datasets/', [1, 2], 'body'],
        ['POST', '/api/v1/search', { query: 5 }, 'query'],
        ['POST', '/api/v1/search', { tags: 'not a list' }, 'tags'],
        ['POST', '/api/v1/search', { limit: -1 }, 'limit'],
        ['GET', '/api/v1/datasets/?page=abc', undefined, 'page'],
      ];
      for (const [method, path, body, field] of cases) {
        const res = await api(token, method, path, body);
        assert.equal(res.status, 400, `${method} ${path} ${JSON.stringify(body)}`);
        assert.equal(res.json.field, field, JSON.stringify(res.json));
        assert.match(res.json.message, new RegExp(field.split('.').pop()!));
        assert.ok(!JSON.stringify(res.json).includes('    at '), 'no stack trace');
      }
      const bad = await api(token, 'POST', '/api/v1/datasets/', { name: 'x', authors: [{ name: 'A', orcid: 'nope' }] });
      assert.equal(bad.status, 400);
      assert.deepEqual(Object.keys(bad.json.errors), ['authors.0.orcid']);
      const malformed = await fetch(`${server.baseUrl}/api/v1/search`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: '{"query":' });
      assert.equal(malformed.status, 400);
      assert.equal(typeof (await malformed.json()).message, 'string');
      for (const path of ['/api/v1/files/abc', '/api/v1/files/99999999999', '/api/v1/nothing']) {
        const res = await api(token, 'GET', path);
        assert.equal(res.status, 404, path);
        assert.equal(typeof res.json.message, 'string');
      }
    });

    it('search answers exactly what POST /explore answers', async () => {
      for (const body of [{}, { query: 'sample' }, { query: '', sorting: 'oldest', publication_type: 'report' }, { tags: ['tag1'] }]) {
        const viaApi = await fetch(`${server.baseUrl}/api/v1/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        const viaPage = await fetch(`${server.baseUrl}/explore`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        assert.equal(viaApi.status, 200);
        assert.deepEqual(await viaApi.json(), await viaPage.json(), JSON.stringify(body));
      }
    });
  });
}
