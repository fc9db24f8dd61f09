// Two instances on separate hosts (separate working folders) sharing one database and one S3
// bucket (extensions section 4): a file staged through one instance is uploaded through the
// other, and every instance serves, zips and analyses the files the other wrote.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { testDialects } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startS3, type TestS3 } from '../support/s3.ts';
import { TestClient, browserOn } from '../support/client.ts';
import { storedEntries } from '../support/stored.ts';
import { waitForAnalyses } from '../../src/modules/analysis/analysis.test-support.ts';
import { VALID_UVL, download, newUser, stage, unzip, uploadForm } from '../../src/modules/dataset/dataset.test-support.ts';

const dialect = testDialects().find((d) => d.name !== 'sqlite') ?? testDialects()[0]!;

describe(`two instances sharing one ${dialect.name} database and one S3 store`, () => {
  let s3: TestS3;
  let a: TestServer;
  let b: TestServer;
  before(async () => {
    s3 = await startS3('shared-hub', 'instances');
    a = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true, env: s3.env });
    b = await startTestServer({ databaseUrl: a.database.url, env: s3.env });
  });
  after(async () => {
    await b?.close();
    await a?.close();
    await s3?.close();
  });

  it('stages on one instance, uploads on the other, and both serve, zip and analyse the files', async () => {
    assert.equal(a.hub.ctx.store.kind, 's3');
    const { client: onA, userId } = await newUser(a);
    assert.equal((await stage(onA, 'shared.uvl', VALID_UVL)).status, 200);
    const onB = browserOn(b, onA);
    await onB.get('/dataset/upload');
    const upload = await onB.post('/dataset/upload', { form: uploadForm(['shared.uvl'], { title: 'Shared across instances' }) });
    assert.equal(upload.status, 200, upload.text.slice(0, 300));
    const datasetId = (await a.hub.db.selectFrom('data_set').select('id').where('user_id', '=', userId).executeTakeFirstOrThrow()).id;
    assert.deepEqual(await storedEntries(a, `user_${userId}/dataset_${datasetId}/`), ['shared.uvl']);
    assert.deepEqual(await storedEntries(a, `temp/${userId}/`), [], 'the claim left nothing staged');
    for (const folder of [a.workingDir, b.workingDir]) {
      const uploads = join(folder, 'uploads');
      assert.ok(!existsSync(uploads) || readdirSync(uploads).length === 0, `nothing was written to ${uploads}`);
    }

    const file = await a.hub.db.selectFrom('file').innerJoin('feature_model', 'feature_model.id', 'file.feature_model_id')
      .select('file.id').where('feature_model.data_set_id', '=', datasetId).executeTakeFirstOrThrow();
    for (const server of [a, b]) {
      const viewer = new TestClient(server.baseUrl);
      const view = await viewer.get(`/file/view/${file.id}`);
      assert.equal(view.status, 200);
      assert.equal(view.json.content, VALID_UVL, JSON.stringify(view.json).slice(0, 300));
      const zip = await download(viewer, `/dataset/download/${datasetId}`);
      assert.equal(zip.status, 200);
      assert.equal((await unzip(zip.bytes)).get(`dataset_${datasetId}/shared.uvl`), VALID_UVL);
    }
    // The analysis worker of either instance reads the model from the bucket.
    const [analysis] = [...(await waitForAnalyses(b, [file.id], onB)).values()];
    assert.equal(analysis.status, 'done', JSON.stringify(analysis));
    assert.equal(analysis.satisfiable, true);
    assert.equal(analysis.configurations, '3');
  });
});
