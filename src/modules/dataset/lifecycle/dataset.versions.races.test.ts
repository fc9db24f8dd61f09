// A new version uploaded with the form whose deposit failed is removed again (extensions section 2)
// under the failed publish's own deposit claim, so that a publish of that version started from
// another tab meanwhile (the page's "publish" of an unsynchronized dataset) either answers 409 as
// during a publish and deposits nothing, or, having taken a stale claim over before the removal,
// keeps the version and publishes it. Each test runs the upload through a dataset service of its
// own whose step between the failed deposit and the removal starts that other publish: no timing.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../../test/support/databases.ts';
import type { TestServer } from '../../../../test/support/server.ts';
import type { TestClient } from '../../../../test/support/client.ts';
import { useHubWithFakeZenodo, type FakeZenodo } from '../../../../test/support/fake-zenodo.ts';
import { VALID_UVL, newUser, stage, uploadForm } from '../dataset.test-support.ts';
import { createDatasetService } from '../dataset.service.ts';
import type { DatasetStep } from '../dataset.deps.ts';
import { STALE_DEPOSIT_CLAIM_MS } from '../publication/deposit-claim.ts';

type Answer = { status: number; json: any };

for (const dialect of testDialects()) {
  describe(`a failed new version and a publish of it from another tab [${dialect.name}]`, () => {
    const hubs = useHubWithFakeZenodo({ databaseBaseUrl: dialect.baseUrl });
    let server: TestServer;
    let zenodo: FakeZenodo;
    before(() => ({ server, zenodo } = hubs));

    /** An owner with a published first version and the new version's files staged. */
    async function ownerWithVersionStarted(title: string): Promise<{ client: TestClient; userId: number; id: number }> {
      const { client, userId } = await newUser(server, 'Versioner');
      await stage(client, 'phone.uvl', VALID_UVL);
      const first = await client.post('/dataset/upload', { form: uploadForm(['phone.uvl'], { title, desc: `${title}, first version` }) });
      assert.equal(first.json.status, 'ok', JSON.stringify(first.json));
      const id = first.json.dataset_id as number;
      assert.equal((await client.post(`/dataset/${id}/new-version`, { form: {} })).status, 302);
      return { client, userId, id };
    }

    const publishPage = async (client: TestClient, id: number): Promise<Answer> => {
      const res = await client.post(`/dataset/${id}/publish`, { form: {} });
      return { status: res.status, json: res.json };
    };
    const rowOf = (id: number) => server.hub.db.selectFrom('data_set').innerJoin('ds_meta_data as md', 'md.id', 'data_set.ds_meta_data_id')
      .select(['md.id as meta_id', 'md.dataset_doi', 'md.deposit_claimed_at']).where('data_set.id', '=', id).executeTakeFirst();
    const publishedTitled = (title: string) => [...zenodo.depositions.values()].filter((d) => d.metadata?.title === title && d.published);

    /**
     * Uploads the new version with Zenodo refusing its publish step, through a dataset service whose
     * step after the failed deposit, before the version's removal, runs `between` (Zenodo answers
     * normally again by then). Answers the upload's outcome and the version's id.
     */
    async function failedVersion(userId: number, form: Record<string, string>, between: (versionId: number) => Promise<void>) {
      zenodo.reset();
      zenodo.failOn('publish', 502);
      let versionId: number | undefined;
      const step = async (name: DatasetStep, datasetId: number) => {
        if (name !== 'version:failed-before-removal' || versionId !== undefined) return;
        versionId = datasetId;
        zenodo.reset();
        await between(datasetId);
      };
      const service = createDatasetService(server.hub.ctx, { step });
      try {
        const outcome = await service.upload(userId, form);
        assert.ok(versionId !== undefined, `the step ran (the upload answered ${JSON.stringify(outcome)})`);
        return { outcome, versionId };
      } finally {
        await service.stopStaging();
      }
    }

    it('a publish started between the failed deposit and the removal answers 409 (under way) and deposits nothing; the version is removed, its files staged', async () => {
      const { client, userId, id } = await ownerWithVersionStarted('Raced removal');
      const form = uploadForm(['phone.uvl'], { title: 'Raced removal v2', version_of: String(id) });
      let during: Answer | undefined;
      const { outcome, versionId } = await failedVersion(userId, form, async (versionId) => {
        during = await publishPage(client, versionId);
      });
      assert.equal(during?.status, 409, `the other tab's publish: ${JSON.stringify(during)}`);
      assert.match(during!.json.message, /Another publish of this dataset is under way/);
      assert.equal(outcome.status, 'failed', JSON.stringify(outcome));
      assert.ok(outcome.status === 'failed' && /^The new version could not be published \(Zenodo refused the publish step with status 502/.test(outcome.message), JSON.stringify(outcome));
      assert.equal(await rowOf(versionId), undefined, 'the failed version is removed');
      assert.deepEqual(publishedTitled('Raced removal v2'), [], 'no record of the version');
      assert.equal((await publishPage(client, versionId)).status, 404, 'nothing left to publish');
      // Its files went back to the staging area: the retry makes version 2.
      const retry = await client.post('/dataset/upload', { form });
      assert.equal(retry.json.status, 'ok', JSON.stringify(retry.json));
      assert.equal((await client.get(`/api/v1/datasets/${retry.json.dataset_id}`)).json.version, 2);
    });

    it('a publish that took the stale claim over before the removal keeps the version: the upload answers partial, that publish publishes it', async () => {
      const { client, userId, id } = await ownerWithVersionStarted('Taken before removal');
      const form = uploadForm(['phone.uvl'], { title: 'Taken before removal v2', version_of: String(id) });
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let newer: Promise<Answer> | undefined;
      try {
        const { outcome, versionId } = await failedVersion(userId, form, async (versionId) => {
          // As if the failed deposit had run past the stale time: the other tab's publish takes
          // the claim over and waits before Zenodo opens its draft.
          const row = (await rowOf(versionId))!;
          await server.hub.db.updateTable('ds_meta_data').set({ deposit_claimed_at: new Date(Date.now() - STALE_DEPOSIT_CLAIM_MS - 60_000).toISOString() })
            .where('id', '=', row.meta_id).execute();
          let reached!: () => void;
          const arrived = new Promise<void>((resolve) => (reached = resolve));
          zenodo.stepAt('newversion', () => (reached(), gate));
          newer = publishPage(client, versionId);
          const early = newer.then((a) => assert.fail(`the other publish answered before its draft: ${JSON.stringify(a)}`));
          early.catch(() => undefined); // once it waits at its step, its answer comes later, awaited below
          await Promise.race([arrived, early]);
        });
        assert.equal(outcome.status, 'partial', JSON.stringify(outcome));
        assert.ok(outcome.status === 'partial' && /^The new version was saved, but this upload did not publish it: This publish took more than 30 minutes/.test(outcome.message), JSON.stringify(outcome));
        assert.ok(await rowOf(versionId), 'the version is kept');
        release();
        const published = await newer!;
        assert.equal(published.json.status, 'ok', JSON.stringify(published));
        const row = (await rowOf(versionId))!;
        assert.deepEqual([row.dataset_doi, row.deposit_claimed_at], [published.json.doi, null]);
        assert.deepEqual(publishedTitled('Taken before removal v2').map((r) => r.doi), [published.json.doi], 'one record of the version');
      } finally {
        release();
        // Not left running past a failed check: the hub would close with its request open.
        await newer?.catch(() => undefined);
      }
    });
  });
}
