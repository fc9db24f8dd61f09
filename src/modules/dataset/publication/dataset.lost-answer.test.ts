// A publish whose answer from Zenodo was lost after Zenodo published (an error answer, a timeout):
// the hub asks Zenodo at once and stores the record's DOI; when Zenodo cannot tell then either, it
// reports the failure, and the next publish of the dataset finds the record Zenodo made
// (ds_meta_data.pending_deposition_id) and stores its DOI instead of making a second record. For a
// first publish and for a new version, against the test Zenodo server. A delete of the dataset
// asks Zenodo first too, so that no record outlives its dataset.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../../test/support/databases.ts';
import type { TestServer } from '../../../../test/support/server.ts';
import { useHubWithFakeZenodo, type FakeZenodo } from '../../../../test/support/fake-zenodo.ts';
import { newUser } from '../../../../test/support/accounts.ts';
import { apiDatasetWithModel, bearer, createToken } from '../../../../test/support/api.ts';

for (const dialect of testDialects()) {
  describe(`a publish whose answer was lost [${dialect.name}]`, () => {
    const hubs = useHubWithFakeZenodo({ databaseBaseUrl: dialect.baseUrl });
    let server: TestServer;
    let zenodo: FakeZenodo;
    before(() => ({ server, zenodo } = hubs));

    /** A new person's write token and an unsynchronized dataset of theirs with one model. */
    async function dataset(name: string): Promise<{ token: string; id: number }> {
      const { client } = await newUser(server, 'Lost');
      const token = await createToken(client, ['read', 'write']);
      const { id } = await apiDatasetWithModel(server.baseUrl, token, { name, description: `${name}, published once` });
      return { token, id };
    }

    const publish = (token: string, id: number) => bearer(server.baseUrl, token, 'POST', `/api/v1/datasets/${id}/publish`);
    const rowOf = (id: number) => server.hub.db.selectFrom('data_set').innerJoin('ds_meta_data as md', 'md.id', 'data_set.ds_meta_data_id')
      .select(['md.dataset_doi', 'md.concept_doi', 'md.deposition_id', 'md.pending_deposition_id']).where('data_set.id', '=', id).executeTakeFirstOrThrow();
    /** The depositions Zenodo holds with this title (each test's title is its own), drafts deleted left out. */
    const recordsTitled = (title: string) => [...zenodo.depositions.values()].filter((d) => d.metadata?.title === title && !d.deleted);

    /** The publish answers `partial` although Zenodo published (nor could it be asked then); the next answers that record's DOI. */
    async function loseThenPublishAgain(token: string, id: number) {
      zenodo.reset();
      zenodo.loseAnswer('publish', 500, ['get']);
      const lost = await publish(token, id);
      assert.equal(lost.status, 200, JSON.stringify(lost.json));
      assert.equal(lost.json.status, 'partial', 'the hub did not learn that Zenodo published');
      const pending = await rowOf(id);
      assert.equal(pending.dataset_doi, null);
      assert.notEqual(pending.pending_deposition_id, null, 'the deposition sent to publish is recorded');
      const record = zenodo.depositions.get(Number(pending.pending_deposition_id))!;
      assert.equal(record.published, true, 'Zenodo published it');
      zenodo.reset();
      const again = await publish(token, id);
      assert.equal(again.status, 200, JSON.stringify(again.json));
      assert.equal(again.json.status, 'ok', JSON.stringify(again.json));
      assert.equal(again.json.doi, record.doi, 'the DOI of the record Zenodo made the first time');
      assert.ok(!zenodo.requests.some((r) => r.path.endsWith('/actions/publish')), 'nothing was published again');
      const row = await rowOf(id);
      assert.equal(row.dataset_doi, record.doi);
      assert.equal(Number(row.deposition_id), record.id);
      assert.equal(row.concept_doi, record.conceptDoi);
      assert.equal(row.pending_deposition_id, null, 'settled with the DOI');
      return record;
    }

    it('a first publish whose answer is lost is asked for at once: ok with the record\'s DOI; one record in all', async () => {
      const { token, id } = await dataset('Lost answer asked');
      zenodo.reset();
      zenodo.loseAnswer('publish', 500);
      const published = await publish(token, id);
      assert.equal(published.status, 200, JSON.stringify(published.json));
      assert.equal(published.json.status, 'ok', JSON.stringify(published.json));
      const records = recordsTitled('Lost answer asked');
      assert.equal(records.length, 1, 'one record on Zenodo');
      assert.equal(published.json.doi, records[0]!.doi);
      const row = await rowOf(id);
      assert.deepEqual([row.dataset_doi, row.pending_deposition_id], [records[0]!.doi, null]);
      zenodo.reset();
    });

    it('a first publish: reported failed, then published with the first record\'s DOI; one record in all', async () => {
      const { token, id } = await dataset('Lost first answer');
      await loseThenPublishAgain(token, id);
      const records = recordsTitled('Lost first answer');
      assert.equal(records.length, 1, 'one record on Zenodo');
      assert.equal(records[0]!.published, true);
    });

    it('a new version: reported failed, then published with that version\'s DOI; two versions in the concept', async () => {
      const { token, id } = await dataset('Lost version answer');
      const first = await publish(token, id);
      assert.equal(first.json.status, 'ok', JSON.stringify(first.json));
      const version = await bearer(server.baseUrl, token, 'POST', `/api/v1/datasets/${id}/versions`, {});
      assert.equal(version.status, 201, JSON.stringify(version.json));
      const record = await loseThenPublishAgain(token, version.json.dataset_id as number);
      const concept = [...zenodo.depositions.values()].filter((d) => d.conceptRecid === record.conceptRecid && !d.deleted);
      assert.deepEqual(concept.map((d) => d.published), [true, true], 'the first version and one new version, both published');
    });
    const remove = (token: string, id: number) => bearer(server.baseUrl, token, 'DELETE', `/api/v1/datasets/${id}`);
    const exists = async (id: number) => (await server.hub.db.selectFrom('data_set').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

    it('a delete after a lost answer asks Zenodo first: 503 while it cannot tell, then 409 with the DOI of the record it published', async () => {
      const { token, id } = await dataset('Lost then deleted');
      zenodo.reset();
      zenodo.loseAnswer('publish', 500, ['get']);
      assert.equal((await publish(token, id)).json.status, 'partial');
      const record = recordsTitled('Lost then deleted')[0]!;
      assert.equal(record.published, true);
      const unknown = await remove(token, id);
      assert.equal(unknown.status, 503, JSON.stringify(unknown.json));
      assert.match(unknown.json.message, /nothing was deleted/);
      assert.ok(await exists(id), 'kept while Zenodo cannot tell');
      assert.notEqual((await rowOf(id)).pending_deposition_id, null);
      zenodo.reset();
      const refused = await remove(token, id);
      assert.equal(refused.status, 409, JSON.stringify(refused.json));
      assert.equal(refused.json.doi, record.doi);
      assert.ok(await exists(id), 'a published dataset stays');
      const row = await rowOf(id);
      assert.deepEqual([row.dataset_doi, row.pending_deposition_id], [record.doi, null], 'synchronized now, with the record\'s DOI');
      assert.equal((await fetch(`${server.baseUrl}/doi/${record.doi}/`)).status, 200, 'its DOI page is there');
    });

    it('a delete after a publish that failed before Zenodo published: the draft is gone, the dataset goes', async () => {
      const { token, id } = await dataset('Failed then deleted');
      zenodo.reset();
      zenodo.failOn('publish', 500);
      assert.equal((await publish(token, id)).json.status, 'partial');
      zenodo.reset();
      const removed = await remove(token, id);
      assert.equal(removed.status, 204, JSON.stringify(removed.json));
      assert.equal(await exists(id), false);
      assert.deepEqual(recordsTitled('Failed then deleted'), [], 'no record left on Zenodo');
    });

    it('a delete while a publish of the dataset is under way: 409, nothing deleted', async () => {
      const { token, id } = await dataset('Deleted while publishing');
      const meta = await server.hub.db.selectFrom('data_set').select('ds_meta_data_id').where('id', '=', id).executeTakeFirstOrThrow();
      await server.hub.db.updateTable('ds_meta_data').set({ deposit_claimed_at: new Date().toISOString() }).where('id', '=', meta.ds_meta_data_id).execute();
      const busy = await remove(token, id);
      assert.equal(busy.status, 409, JSON.stringify(busy.json));
      assert.match(busy.json.message, /Another publish of this dataset is under way/);
      assert.ok(await exists(id));
      await server.hub.db.updateTable('ds_meta_data').set({ deposit_claimed_at: null }).where('id', '=', meta.ds_meta_data_id).execute();
      assert.equal((await remove(token, id)).status, 204);
    });
  });
}
