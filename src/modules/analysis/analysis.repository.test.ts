// The claim on every dialect: a content is claimed only once a file is linked to it. Queueing
// inserts the content's row a moment before the link; on a server database another connection
// (this instance's runner, or another instance) could claim the row in between, find no file and
// fail a model that is there (it happened in CI: "No stored file has this content any more").
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects, openMigratedDatabase } from '../../../test/support/databases.ts';
import { insertDatasetRow } from '../../../test/support/fixtures.ts';
import { insertAndGetId, type Db } from '../../core/db/connect.ts';
import * as repo from './analysis.repository.ts';

async function insertFileRow(db: Db, datasetId: number, name: string): Promise<number> {
  const metaId = await insertAndGetId(db, 'fm_meta_data', { uvl_filename: name, title: name, description: '', publication_type: 'none' });
  const modelId = await insertAndGetId(db, 'feature_model', { data_set_id: datasetId, fm_meta_data_id: metaId });
  return insertAndGetId(db, 'file', { name, checksum: '0'.repeat(32), size: 1, feature_model_id: modelId });
}

for (const dialect of testDialects()) {
  describe(`analysis claims [${dialect.name}]`, () => {
    let db: Db;
    let close: () => Promise<void>;
    let datasetId: number;
    before(async () => {
      ({ db, close } = await openMigratedDatabase(dialect.baseUrl));
      const userId = await insertAndGetId(db, 'user', { email: 'u@example.com', password: 'x', created_at: '2025-01-01T00:00:00.000Z' });
      datasetId = await insertDatasetRow(db, userId, { title: 'claims', createdAt: '2025-01-01T00:00:00.000Z' });
    });
    after(async () => close());

    it('leaves a content without a linked file unclaimed, and claims it once linked', async () => {
      const sha256 = 'a'.repeat(64);
      await repo.ensureAnalysis(db, sha256);
      assert.equal(await repo.claimNext(db, 'one', '2000-01-01T00:00:00.000Z'), undefined, 'queued, not linked yet');
      assert.equal(await repo.anyClaimablePending(db), false, 'so draining does not wait for it');
      const fileId = await insertFileRow(db, datasetId, 'm.uvl');
      await repo.linkFile(db, { file_id: fileId, dataset_id: datasetId, sha256, name: 'm.uvl' });
      assert.equal(await repo.anyClaimablePending(db), true);
      const claimed = await repo.claimNext(db, 'one', '2000-01-01T00:00:00.000Z');
      assert.equal(claimed?.sha256, sha256);
      assert.equal(claimed?.status, 'running');
      assert.equal(await repo.fileWithContent(db, sha256), fileId, 'the claimer finds the file to read');
    });

    it('leaves a content whose files were all deleted unclaimed, and takes it up when a file with it comes again', async () => {
      const sha256 = 'b'.repeat(64);
      await repo.ensureAnalysis(db, sha256);
      const fileId = await insertFileRow(db, datasetId, 'gone.uvl');
      await repo.linkFile(db, { file_id: fileId, dataset_id: datasetId, sha256, name: 'gone.uvl' });
      await db.deleteFrom('model_analysis_file').where('file_id', '=', fileId).execute();
      assert.equal(await repo.claimNext(db, 'one', '2000-01-01T00:00:00.000Z'), undefined);
      assert.equal(await repo.anyClaimablePending(db), false);
      const again = await insertFileRow(db, datasetId, 'again.uvl');
      await repo.linkFile(db, { file_id: again, dataset_id: datasetId, sha256, name: 'again.uvl' });
      assert.equal((await repo.claimNext(db, 'one', '2000-01-01T00:00:00.000Z'))?.sha256, sha256);
    });
  });
}
