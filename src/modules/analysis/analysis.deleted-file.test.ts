// A content is read from any file linked to it. The runner chooses one (the first by id) and
// reads it a moment later; a draft deleted in between took that file, and its link, with it,
// and the content was failed with "No stored file has this content any more" though another
// dataset still had it. Now the runner reads the next file with the content; on every dialect.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { storeModelFile, userIdByEmail } from '../../../test/support/fixtures.ts';
import { waitForAnalyses } from './analysis.test-support.ts';

const SHARED_UVL = 'features\n    Shared\n        optional\n            Deleted\n            Kept\n';

for (const dialect of testDialects()) {
  describe(`the analysis of a content whose chosen file is deleted [${dialect.name}]`, () => {
    let server: TestServer;

    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { ANALYSIS_WORKERS: '0' } });
    });
    after(async () => server?.close());

    it('analyses it from another file with the content when the draft of the one chosen is deleted before it is read', async () => {
      const { ctx } = server.hub;
      const userId = await userIdByEmail(server.hub.db, 'user1@example.com');
      // An unpublished draft (its owner may delete it) first, so that its file is the one chosen.
      const draft = await storeModelFile(server, { label: 'Deleted draft', content: SHARED_UVL, doi: null });
      const kept = await storeModelFile(server, { label: 'Kept', content: SHARED_UVL });
      await ctx.services.analysis.enqueueDatasets([draft.datasetId, kept.datasetId]);
      const hubfile = ctx.services.hubfile;
      const getFile = hubfile.getFile;
      let deleted = false;
      // The owner deletes the draft between the runner's choice of its file and the reading of it.
      hubfile.getFile = async (fileId: number) => {
        if (fileId === draft.fileId && !deleted) {
          deleted = true;
          await ctx.services.dataset.apiDelete(draft.datasetId, userId);
        }
        return getFile(fileId);
      };
      try {
        ctx.services.analysis.start(1);
        const result = (await waitForAnalyses(server, [kept.fileId])).get(kept.fileId);
        assert.ok(deleted, 'the draft was deleted under the runner');
        assert.equal(result.status, 'done', JSON.stringify(result));
        assert.equal(result.configurations, '4');
      } finally {
        hubfile.getFile = getFile;
      }
    });
  });
}
