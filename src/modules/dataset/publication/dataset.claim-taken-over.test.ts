// A publish that ran past the deposit claim's stale time (30 minutes) and had its claim taken over
// by a newer publish of the dataset: it stores no DOI over the newer one's, neither replaces nor
// clears the pending deposition that one recorded, nor gives its claim back; it answers 409 saying
// so (a new version uploaded with the form: `partial`, the version kept), and the newer publish
// makes or settles the one record. Each test holds the first publish at a step of the fake Zenodo
// (before the step, or after Zenodo carried it out), dates its claim back through the database and
// starts the newer publish, held in turn at one of its own steps until the first has answered.
// A delete of the dataset runs under the same claim: taken over while it asked Zenodo about a
// pending deposition, it deletes nothing and answers as a delete during a publish.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../../test/support/databases.ts';
import type { TestServer } from '../../../../test/support/server.ts';
import type { TestClient } from '../../../../test/support/client.ts';
import { useHubWithFakeZenodo, type FakeZenodo, type FakeZenodoStep } from '../../../../test/support/fake-zenodo.ts';
import { apiDatasetWithModel, bearer, createToken } from '../../../../test/support/api.ts';
import { VALID_UVL, newUser, stage, uploadForm } from '../dataset.test-support.ts';
import { STALE_DEPOSIT_CLAIM_MS } from './deposit-claim.ts';

type Answer = { status: number; json: any };
type Held = { answer: Promise<Answer>; claimedAt: string; pending: number | null; release: () => void };

for (const dialect of testDialects()) {
  describe(`a publish whose deposit claim was taken over [${dialect.name}]`, () => {
    const hubs = useHubWithFakeZenodo({ databaseBaseUrl: dialect.baseUrl });
    let server: TestServer;
    let zenodo: FakeZenodo;
    before(() => ({ server, zenodo } = hubs));

    /** A new person's write token and an unsynchronized dataset of theirs with one model. */
    async function dataset(name: string): Promise<{ token: string; id: number }> {
      const { client } = await newUser(server, 'Outrun');
      const token = await createToken(client, ['read', 'write']);
      const { id } = await apiDatasetWithModel(server.baseUrl, token, { name, description: `${name}, published twice at once` });
      return { token, id };
    }

    const publish = (token: string, id: number): Promise<Answer> => bearer(server.baseUrl, token, 'POST', `/api/v1/datasets/${id}/publish`);
    const rowOf = async (id: number) => {
      const row = await server.hub.db.selectFrom('data_set').innerJoin('ds_meta_data as md', 'md.id', 'data_set.ds_meta_data_id')
        .select(['md.id as meta_id', 'md.dataset_doi', 'md.deposit_claimed_at', 'md.pending_deposition_id']).where('data_set.id', '=', id).executeTakeFirst();
      assert.ok(row, `the dataset ${id} is still there`);
      // PostgreSQL answers BIGINT as a string.
      return { ...row, pending_deposition_id: row.pending_deposition_id === null ? null : Number(row.pending_deposition_id) };
    };
    /** The records Zenodo published with this title (each test's title is its own). */
    const publishedTitled = (title: string) => [...zenodo.depositions.values()].filter((d) => d.metadata?.title === title && d.published);

    /** Dates the dataset's claim back past the stale time, as if its publish had run for more than 30 minutes. */
    async function ageClaim(id: number): Promise<void> {
      const { meta_id } = await rowOf(id);
      await server.hub.db.updateTable('ds_meta_data').set({ deposit_claimed_at: new Date(Date.now() - STALE_DEPOSIT_CLAIM_MS - 60_000).toISOString() })
        .where('id', '=', meta_id).execute();
    }

    /** A newer publish of the dataset (`start`), which takes the stale claim over and waits at its next `step` request until `release()`. */
    async function newerPublishHeld(id: number, start: () => Promise<Answer>, step: FakeZenodoStep): Promise<Held> {
      let release!: () => void;
      let reached!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const arrived = new Promise<void>((resolve) => (reached = resolve));
      zenodo.stepAt(step, () => (reached(), gate));
      const answer = start();
      const early = answer.then((a) => { throw new Error(`the newer publish answered before its ${step} step: ${a.status} ${JSON.stringify(a.json)}`); });
      early.catch(() => undefined); // once it waits at its step, its answer comes later, awaited by the test
      await Promise.race([arrived, early]);
      const row = await rowOf(id);
      assert.ok(row.deposit_claimed_at, 'the newer publish holds the claim');
      return { answer, claimedAt: row.deposit_claimed_at, pending: row.pending_deposition_id, release };
    }

    /**
     * Runs `first` (a publish of the dataset `datasetId` names once the publish runs) with, at its
     * request of `at[0]` to Zenodo (before it, or after Zenodo carried it out), its claim dated back
     * and a newer publish (`newer`) taking it over, held at that one's `newerStep`. Once the first
     * answered: the newer publish keeps its claim and pending deposition, and no DOI is stored.
     * Then lets the newer one go on. Answers both answers, the dataset and what the newer publish
     * had recorded when held.
     */
    async function outrun(
      datasetId: () => Promise<number>, first: () => Promise<Answer>, at: [FakeZenodoStep, 'before' | 'after'],
      newer: (id: number) => Promise<Answer>, newerStep: FakeZenodoStep,
    ) {
      zenodo.reset();
      let held: Held | undefined;
      let id = 0;
      zenodo.stepAt(at[0], async () => {
        id = await datasetId();
        await ageClaim(id);
        held = await newerPublishHeld(id, () => newer(id), newerStep);
      }, at[1]);
      try {
        const firstAnswer = await first();
        assert.ok(held, `the newer publish took the claim over (the first answered ${firstAnswer.status} ${JSON.stringify(firstAnswer.json)})`);
        const row = await rowOf(id);
        assert.deepEqual(
          { doi: row.dataset_doi, claim: row.deposit_claimed_at, pending: row.pending_deposition_id },
          { doi: null, claim: held.claimedAt, pending: held.pending },
          `the newer publish keeps its claim and pending deposition; no DOI stored (the first answered ${firstAnswer.status} ${JSON.stringify(firstAnswer.json)})`,
        );
        zenodo.reset();
        held.release();
        return { first: firstAnswer, newer: await held.answer, id, pendingOfNewer: held.pending };
      } finally {
        zenodo.reset();
        held?.release();
        // Not left running past a failed check: the hub would close with its request open.
        await held?.answer.catch(() => undefined);
      }
    }

    it('taken over before its draft: the draft is not recorded over the newer one\'s and is discarded; the newer publish makes the one record', async () => {
      const { token, id } = await dataset('Outrun before the draft');
      // The newer publish recorded its own draft as pending, then waits before its upload.
      const { first, newer, pendingOfNewer } = await outrun(async () => id, () => publish(token, id), ['create', 'before'], () => publish(token, id), 'upload');
      assert.notEqual(pendingOfNewer, null, 'the newer publish had recorded its draft');
      assert.equal(first.status, 409, JSON.stringify(first.json));
      assert.match(first.json.message, /took more than 30 minutes, and another publish or change of this dataset took over meanwhile: it stored nothing/);
      assert.equal(newer.status, 200, JSON.stringify(newer.json));
      assert.equal(newer.json.status, 'ok', JSON.stringify(newer.json));
      const records = publishedTitled('Outrun before the draft');
      assert.deepEqual(records.map((r) => r.doi), [newer.json.doi], 'one record, the newer publish\'s');
      assert.equal(records[0]!.id, pendingOfNewer, 'the draft it had recorded');
      const row = await rowOf(id);
      assert.deepEqual([row.dataset_doi, row.deposit_claimed_at, row.pending_deposition_id], [newer.json.doi, null, null]);
      assert.ok([...zenodo.depositions.values()].every((d) => d.published || d.deleted), 'the refused draft was discarded');
    });

    it('taken over before its publish step, failing then: it clears neither the newer publish\'s pending draft nor its claim', async () => {
      const { token, id } = await dataset('Outrun and failing');
      // The newer publish discards the first one's draft (settling it), records its own and waits
      // before its upload; the first one's publish step then fails (its draft is gone).
      const { first, newer, pendingOfNewer } = await outrun(async () => id, () => publish(token, id), ['publish', 'before'], () => publish(token, id), 'upload');
      assert.equal(first.status, 409, JSON.stringify(first.json));
      assert.match(first.json.message, /another publish or change of this dataset took over meanwhile/);
      assert.equal(newer.json.status, 'ok', JSON.stringify(newer.json));
      const records = publishedTitled('Outrun and failing');
      assert.deepEqual(records.map((r) => [r.id, r.doi]), [[pendingOfNewer, newer.json.doi]], 'one record, from the newer publish\'s draft');
      assert.equal((await rowOf(id)).dataset_doi, newer.json.doi);
    });

    it('taken over after Zenodo published its record: it stores nothing; the newer publish settles that record, no second one', async () => {
      const { token, id } = await dataset('Outrun after the publish');
      // The newer publish has read the first one's deposition as pending and waits before asking Zenodo about it.
      const { first, newer, pendingOfNewer } = await outrun(async () => id, () => publish(token, id), ['publish', 'after'], () => publish(token, id), 'get');
      const records = publishedTitled('Outrun after the publish');
      assert.equal(records.length, 1, 'one record');
      assert.equal(pendingOfNewer, records[0]!.id, 'the first publish\'s record stayed the pending deposition');
      assert.equal(first.status, 409, JSON.stringify(first.json));
      assert.match(first.json.message, /it stored nothing/);
      assert.ok(first.json.message.includes(`Zenodo published its record (${records[0]!.doi}): the publish now under way, or the next one, stores its DOI.`), first.json.message);
      assert.equal(newer.json.status, 'ok', JSON.stringify(newer.json));
      assert.equal(newer.json.doi, records[0]!.doi, 'the DOI Zenodo gave the first publish');
      const row = await rowOf(id);
      assert.deepEqual([row.dataset_doi, row.deposit_claimed_at, row.pending_deposition_id], [records[0]!.doi, null, null]);
    });

    it('a new version uploaded with the form, taken over before its draft: kept unsynchronized (partial), and the newer publish publishes it', async () => {
      const { client } = await newUser(server, 'Versioner');
      const id = await publishedWithForm(client, 'Outrun version');
      assert.equal((await client.post(`/dataset/${id}/new-version`, { form: {} })).status, 302);
      const form = uploadForm(['phone.uvl'], { title: 'Outrun version v2', desc: 'The second version', version_of: String(id) });
      // The page's "publish" of the unsynchronized version, while the upload's deposit of it runs.
      const newer = async (versionId: number) => {
        const res = await client.post(`/dataset/${versionId}/publish`, { form: {} });
        return { status: res.status, json: res.json };
      };
      const first = async () => {
        const res = await client.post('/dataset/upload', { form });
        return { status: res.status, json: res.json };
      };
      // Both wait before Zenodo opens the new version's draft.
      const outcome = await outrun(() => claimedVersion('Outrun version v2'), first, ['newversion', 'before'], newer, 'newversion');
      const versionId = outcome.id;
      assert.equal(outcome.first.status, 200, JSON.stringify(outcome.first.json));
      assert.equal(outcome.first.json.status, 'partial', JSON.stringify(outcome.first.json));
      assert.equal(outcome.first.json.dataset_id, versionId);
      assert.match(outcome.first.json.message, /^The new version was saved, but this upload did not publish it: This publish took more than 30 minutes/);
      assert.equal(outcome.newer.json.status, 'ok', JSON.stringify(outcome.newer.json));
      assert.equal((await rowOf(versionId)).dataset_doi, outcome.newer.json.doi, 'the version is kept and published');
      assert.deepEqual(publishedTitled('Outrun version v2').map((r) => r.doi), [outcome.newer.json.doi], 'one record of the version');
    });

    it('a delete taken over while Zenodo settles the pending deposition: the dataset stays, 409 as during a publish; the newer publish publishes it', async () => {
      const { token, id } = await dataset('Outrun delete');
      // A publish that failed leaving its deposition pending (Zenodo could not tell whether it published).
      zenodo.reset();
      zenodo.failOn('publish', 500);
      zenodo.failOn('get', 503);
      assert.equal((await publish(token, id)).json.status, 'partial');
      assert.notEqual((await rowOf(id)).pending_deposition_id, null, 'a deposition left pending');
      // The delete asks Zenodo about it (held before the answer, its claim taken over meanwhile);
      // the newer publish waits before asking in turn.
      const remove = () => bearer(server.baseUrl, token, 'DELETE', `/api/v1/datasets/${id}`);
      const { first, newer } = await outrun(async () => id, remove, ['get', 'before'], () => publish(token, id), 'get');
      assert.equal(first.status, 409, JSON.stringify(first.json));
      assert.match(first.json.message, /Another publish of this dataset is under way/);
      assert.equal(newer.status, 200, JSON.stringify(newer.json));
      assert.equal(newer.json.status, 'ok', JSON.stringify(newer.json));
      const row = await rowOf(id);
      assert.deepEqual([row.dataset_doi, row.deposit_claimed_at, row.pending_deposition_id], [newer.json.doi, null, null]);
      assert.deepEqual(publishedTitled('Outrun delete').map((r) => r.doi), [newer.json.doi], 'one record');
    });

    /** A dataset published through the upload form; its id. */
    async function publishedWithForm(client: TestClient, title: string): Promise<number> {
      await stage(client, 'phone.uvl', VALID_UVL);
      const res = await client.post('/dataset/upload', { form: uploadForm(['phone.uvl'], { title, desc: `${title}, first version` }) });
      assert.equal(res.json.status, 'ok', JSON.stringify(res.json));
      return res.json.dataset_id as number;
    }

    /** The id of the dataset titled `title` that a publish has claimed. */
    async function claimedVersion(title: string): Promise<number> {
      const row = await server.hub.db.selectFrom('data_set').innerJoin('ds_meta_data as md', 'md.id', 'data_set.ds_meta_data_id')
        .select('data_set.id').where('md.title', '=', title).where('md.deposit_claimed_at', 'is not', null).executeTakeFirstOrThrow();
      return Number(row.id);
    }
  });
}
