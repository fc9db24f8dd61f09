// A new version of a dataset with a model converted from another format (extensions sections 2
// and 7): the version's files are the model and the original kept beside it, so the new version
// (through the upload page's new-version action or POST /api/v1/datasets/<id>/versions) keeps the
// original in its folder, its zip and its file metadata, with the same loss report.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testDialects } from '../../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { bearer, createToken } from '../../../../test/support/api.ts';
import type { TestClient } from '../../../../test/support/client.ts';
import { download, newUser, stage, unzip, uploadForm } from '../dataset.test-support.ts';

const CAR_XML = readFileSync(join(import.meta.dirname, '../../../../packages/uvl/src/formats/fixtures/car.featureide.xml'));

/** The zip's entry names and the one file's metadata of dataset `id`. */
async function filesOf(server: TestServer, client: TestClient, id: number) {
  const zip = await download(client, `/dataset/download/${id}`);
  assert.equal(zip.status, 200);
  const entries = [...(await unzip(zip.bytes)).keys()].sort();
  const dataset = (await client.get(`/api/v1/datasets/${id}`)).json;
  const file = (await client.get(`/api/v1/files/${dataset.files[0].file_id}`)).json;
  return { entries, original: file.original && { name: file.original.name, sha256: file.original.sha256, format: file.original.format }, losses: file.losses };
}

for (const dialect of testDialects()) {
  describe(`a new version keeps the originals of converted models [${dialect.name}]`, () => {
    let server: TestServer;
    before(async () => { server = await startTestServer({ databaseBaseUrl: dialect.baseUrl }); });
    after(async () => { await server?.close(); });

    it('through the new-version action and the upload form: the original is staged with the copy and stored beside the model', async () => {
      const { client } = await newUser(server);
      assert.equal((await stage(client, 'car.xml', CAR_XML)).json.filename, 'car.uvl');
      const first = await client.post('/dataset/upload', { form: uploadForm(['car.uvl']) });
      assert.equal(first.json.status, 'ok', JSON.stringify(first.json));
      const before = await filesOf(server, client, first.json.dataset_id);
      assert.deepEqual(before.entries, [`dataset_${first.json.dataset_id}/car.uvl`, `dataset_${first.json.dataset_id}/car.xml`]);
      assert.equal(before.original.name, 'car.xml');

      assert.equal((await client.post(`/dataset/${first.json.dataset_id}/new-version`, { form: {} })).status, 302);
      const second = await client.post('/dataset/upload', { form: uploadForm(['car.uvl'], { version_of: String(first.json.dataset_id) }) });
      assert.equal(second.json.status, 'ok', JSON.stringify(second.json));
      const after = await filesOf(server, client, second.json.dataset_id);
      assert.deepEqual(after.entries, [`dataset_${second.json.dataset_id}/car.uvl`, `dataset_${second.json.dataset_id}/car.xml`]);
      assert.deepEqual(after.original, before.original);
      assert.deepEqual(after.losses, before.losses);
    });

    it('through POST /api/v1/datasets/<id>/versions', async () => {
      const { client } = await newUser(server);
      const token = await createToken(client, ['read', 'write']);
      await stage(client, 'car.xml', CAR_XML);
      const first = await client.post('/dataset/upload', { form: uploadForm(['car.uvl']) });
      assert.equal(first.json.status, 'ok', JSON.stringify(first.json));
      const before = await filesOf(server, client, first.json.dataset_id);
      const version = await bearer(server.baseUrl, token, 'POST', `/api/v1/datasets/${first.json.dataset_id}/versions`);
      assert.equal(version.status, 201, JSON.stringify(version.json));
      const after = await filesOf(server, client, version.json.dataset_id);
      assert.deepEqual(after.entries, [`dataset_${version.json.dataset_id}/car.uvl`, `dataset_${version.json.dataset_id}/car.xml`]);
      assert.deepEqual(after.original, before.original);
      assert.deepEqual(after.losses, before.losses);
    });
  });
}
