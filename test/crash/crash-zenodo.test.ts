// Crash tests against the test Zenodo server (test/support/fake-zenodo.ts), which, unlike the
// built-in fake, keeps its records: a publish killed (SIGKILL) after Zenodo published, before the
// hub stored the DOI, must not make a second record when it is published again. The hub recorded
// the deposition before its publish step (ds_meta_data.pending_deposition_id); the next publish
// asks Zenodo for it and stores the DOI Zenodo gave. A first publish and a new version.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeZenodo, type FakeZenodo } from '../support/fake-zenodo.ts';
import { crashTargets, doiOf, killedPublish, publishAgain, useCrashHub, type CrashHub } from './crash-hub.ts';

for (const target of crashTargets()) {
  describe(`a publish to Zenodo killed after Zenodo published [${target.name}]`, () => {
    let zenodo: FakeZenodo;
    before(async () => { zenodo = await startFakeZenodo(); });
    const hub = useCrashHub(target, { env: () => ({ ZENODO_API_URL: zenodo.url, ZENODO_ACCESS_TOKEN: zenodo.token }) });
    after(async () => { await zenodo?.close(); });

    /** After the restart: no DOI shown, the deposition Zenodo published is the one recorded. */
    async function pendingRecord(datasetId: number) {
      const row = await doiOf(hub, datasetId);
      assert.equal(row.dataset_doi, null, 'the old state: unsynchronized, no DOI shown');
      assert.notEqual(row.pending_deposition_id, null, 'the deposition sent to publish was recorded');
      const record = zenodo.depositions.get(Number(row.pending_deposition_id));
      assert.ok(record, 'a deposition Zenodo knows');
      assert.equal(record.published, true, 'Zenodo published it before the kill');
      return record;
    }

    /** Published again once the claims are stale: the DOI Zenodo gave before the kill, settled. */
    async function publishedAgainWith(hub: CrashHub, datasetId: number, doi: string | null) {
      const stored = await publishAgain(hub, datasetId);
      assert.equal(stored.dataset_doi, doi, 'the DOI of the record Zenodo made before the kill');
      assert.equal(stored.pending_deposition_id, null);
      await hub.assertConsistent();
    }

    it('a first publish: published again with the same DOI, one record on Zenodo', async () => {
      const name = `Killed after Zenodo published [${target.name}]`;
      const datasetId = await killedPublish(hub, 'deposit:after-publish', name);
      const record = await pendingRecord(datasetId);
      await hub.assertConsistent();
      await publishedAgainWith(hub, datasetId, record.doi);
      const records = [...zenodo.depositions.values()].filter((d) => d.metadata?.title === name && !d.deleted);
      assert.deepEqual(records.map((d) => [d.id, d.published]), [[record.id, true]], 'exactly one published record for the dataset');
      await hub.stop();
    });

    it('a new version: published again with the same DOI, two versions in the concept on Zenodo', async () => {
      const versionId = await killedPublish(hub, 'deposit:after-publish', `Version killed after Zenodo published [${target.name}]`, { newVersion: true });
      const record = await pendingRecord(versionId);
      await hub.assertConsistent();
      await publishedAgainWith(hub, versionId, record.doi);
      const concept = [...zenodo.depositions.values()].filter((d) => d.conceptRecid === record.conceptRecid && !d.deleted);
      assert.deepEqual(concept.map((d) => d.published), [true, true], 'the first version and one new version');
      assert.equal((await doiOf(hub, versionId)).concept_doi, record.conceptDoi);
      await hub.stop();
    });
  });
}
