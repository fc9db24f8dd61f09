// Crash tests (issue 26, item 2), what happens to a dataset once it exists: a metadata edit, a new
// version and an analysis, each killed (SIGKILL) at a named step of a real child server and
// started again on the same database and store (crash-hub.ts); the state must be the old one or
// the new one, never a mix, and the work must be able to go on.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { bearer, createToken, uvlForm } from '../support/api.ts';
import { uploadDataset } from '../support/uploads.ts';
import { VALID_UVL, uploadForm } from '../../src/modules/dataset/dataset.test-support.ts';
import { crashTargets, killAtPause, stagedNames, useCrashHub, type CrashHub } from './crash-hub.ts';

/** A dataset published through the API (the built-in fake deposit): it has a DOI and a deposition. */
async function publishedDataset(hub: CrashHub, email: string, name: string): Promise<number> {
  const server = await hub.start();
  const token = await createToken(await hub.loggedIn(email), ['write']);
  const created = await bearer(server.baseUrl, token, 'POST', '/api/v1/datasets/', { name, description: `${name}, made for a crash test` });
  assert.equal(created.status, 201);
  const id = created.json.id as number;
  assert.equal((await bearer(server.baseUrl, token, 'POST', `/api/v1/datasets/${id}/files`, uvlForm('model.uvl', VALID_UVL))).status, 201);
  assert.equal((await bearer(server.baseUrl, token, 'POST', `/api/v1/datasets/${id}/publish`)).status, 200);
  await hub.stop();
  return id;
}

async function metadataOf(hub: CrashHub, datasetId: number) {
  const row = await hub.db.selectFrom('data_set as ds').innerJoin('ds_meta_data as md', 'md.id', 'ds.ds_meta_data_id')
    .select(['md.title', 'md.description', 'md.license', 'md.dataset_doi', 'ds.revision']).where('ds.id', '=', datasetId).executeTakeFirstOrThrow();
  const edits = await hub.db.selectFrom('dataset_edit').select('id').where('dataset_id', '=', datasetId).execute();
  return { ...row, revision: Number(row.revision), edits: edits.length };
}

/** The versions of the concept of `first`, oldest first. */
async function versionsOf(hub: CrashHub, first: number) {
  return hub.db.selectFrom('data_set as ds').innerJoin('ds_meta_data as md', 'md.id', 'ds.ds_meta_data_id')
    .select(['ds.id', 'ds.version_number', 'md.dataset_doi', 'md.concept_doi'])
    .where((eb) => eb.or([eb('ds.id', '=', first), eb('ds.concept_id', '=', first)])).orderBy('ds.version_number').execute();
}

const EDIT = { title: 'Edited after a crash', desc: 'Edited description', publication_type: 'none', tags: 'edited', license: 'CC0-1.0', 'authors-0-name': 'Roe, Jane' };

for (const target of crashTargets()) {
  describe(`a server killed in the middle of an edit, a new version or an analysis [${target.name}]`, () => {
    const hub = useCrashHub(target);

    for (const step of ['edit:after-deposit', 'edit:before-commit'] as const) {
      it(`a metadata edit killed at ${step}: the old metadata and no history entry; the edit can be made again`, async () => {
        const datasetId = await publishedDataset(hub, 'user2@example.com', `Edited at ${step}`);
        const before = await metadataOf(hub, datasetId);
        const server = await hub.start(step);
        const client = await hub.loggedIn('user2@example.com');
        await killAtPause(server, step, client.post(`/dataset/${datasetId}/edit`, { form: EDIT }).catch(() => undefined));

        await hub.start();
        assert.deepEqual(await metadataOf(hub, datasetId), before, 'the old state: metadata, revision and history as they were');
        await hub.assertConsistent();
        const again = await hub.loggedIn('user2@example.com');
        assert.equal((await again.post(`/dataset/${datasetId}/edit`, { form: EDIT })).status, 302);
        const after = await metadataOf(hub, datasetId);
        assert.equal(after.title, EDIT.title);
        assert.equal(after.dataset_doi, before.dataset_doi, 'the DOI stays');
        assert.equal(after.edits, before.edits + 1, 'one history entry');
        await hub.stop();
      });
    }

    it('a new version killed after its commit, before its deposit: a whole unsynchronized version its owner can publish; its files are not staged again', async () => {
      const v1 = await publishedDataset(hub, 'user1@example.com', 'Versioned');
      const owner = await hub.userId('user1@example.com');
      const server = await hub.start('upload:after-commit');
      const client = await hub.loggedIn('user1@example.com');
      assert.equal((await client.post(`/dataset/${v1}/new-version`, { form: {} })).status, 302);
      const form = uploadForm(['model.uvl'], { title: 'Version two', version_of: String(v1) });
      await killAtPause(server, 'upload:after-commit', client.post('/dataset/upload', { form }).catch(() => undefined));

      await hub.start();
      const concept = await versionsOf(hub, v1);
      assert.deepEqual(concept.map((v) => [Number(v.version_number), v.dataset_doi === null]), [[1, false], [2, true]], 'version 1 published, version 2 saved unsynchronized');
      await hub.assertConsistent();
      await hub.letClaimsGoStale();
      const again = await hub.loggedIn('user1@example.com');
      assert.doesNotMatch((await again.get('/dataset/upload')).text, /model\.uvl/, 'the upload page does not offer the saved copy again');
      assert.deepEqual((await stagedNames(hub.store, owner)).filter((k) => k.startsWith('.claim-') || k.startsWith('model')), []);
      const v2 = Number(concept[1]!.id);
      const published = await again.post(`/dataset/${v2}/publish`);
      assert.equal(published.status, 200, published.text.slice(0, 300));
      assert.equal(published.json.status, 'ok', 'its owner publishes the waiting version');
      const rows = await versionsOf(hub, v1);
      assert.ok(rows.every((r) => r.dataset_doi !== null), 'both versions are published');
      assert.equal(new Set(rows.map((r) => r.concept_doi)).size, 1, 'in one concept');
      await hub.assertConsistent();
      await hub.stop();
    });

    it('an analysis killed while its claim is taken: after the restart the claim is taken over and the analysis completed', async () => {
      const server = await hub.start('analysis:claimed');
      const client = await hub.loggedIn('user1@example.com');
      // A content no earlier analysis knows, so that this upload's analysis is the one claimed.
      const uploaded = await uploadDataset(client, 'Analysed when killed', [['killed.uvl', VALID_UVL.replace('namespace Phone', 'namespace KilledPhone')]]);
      assert.equal(uploaded.status, 'ok');
      await killAtPause(server, 'analysis:claimed', Promise.resolve());
      // The paused process's claim, and those of the processes killed by the tests before (each at its pause).
      const claimed = await hub.db.selectFrom('model_analysis').select(['id', 'claimed_by', 'attempts', 'sha256']).where('status', '=', 'running')
        .orderBy('claimed_at', 'desc').execute();
      assert.ok(claimed.length >= 1, 'the paused process holds a claim');

      await hub.start();
      // The paused process's claim is the newest and not stale yet: the new process leaves it alone.
      // (It may rightly take over the older claims, which the tests before made stale, and claim
      // queued rows: the number of running rows says nothing.)
      const fresh = claimed[0]!;
      const held = await hub.db.selectFrom('model_analysis').select(['status', 'claimed_by']).where('id', '=', fresh.id).executeTakeFirstOrThrow();
      assert.deepEqual([held.status, held.claimed_by], ['running', fresh.claimed_by], 'a new process leaves claims that are not stale yet alone');
      await hub.letClaimsGoStale();
      // Every analysis, the ones queued behind the claims included.
      const finished = () => hub.db.selectFrom('model_analysis').select(['id', 'status', 'claimed_by', 'attempts']).execute();
      let rows = await finished();
      // Bounded wait: the idle poll (3 s) finds the stale claims; each analysis takes well under a second.
      for (let i = 0; i < 600 && rows.some((r) => r.status === 'running' || r.status === 'pending'); i++) {
        await sleep(100);
        rows = await finished();
      }
      for (const before of claimed) {
        const row = rows.find((r) => r.id === before.id)!;
        assert.equal(row.status, 'done', `the analysis ${before.id} was completed by the new process`);
        assert.equal(row.claimed_by, null);
        assert.equal(Number(row.attempts), Number(before.attempts) + 1, 'taken over once');
      }
      const mine = await hub.db.selectFrom('model_analysis_file').select('status').where('name', '=', 'killed.uvl').execute();
      assert.deepEqual(mine.map((f) => f.status), ['done'], 'the uploaded model shows its result');
      await hub.assertConsistent();
      await hub.stop();
    });
  });
}
