// Crash tests (issue 26, item 2), uploads and deposits: a real child server is paused at a named
// step (HUB_TEST_PAUSE_AT), killed there with SIGKILL and started again on the same database and
// store; the state must then be the old one or the new one, never a mix, and the person must be
// able to carry on. Targets: crash-hub.ts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bearer, createToken, uvlForm } from '../support/api.ts';
import { VALID_UVL, stage, uploadForm } from '../../src/modules/dataset/dataset.test-support.ts';
import { apiDataset, crashTargets, doiOf, killAtPause, killedPublish, publishAgain, stagedNames, useCrashHub } from './crash-hub.ts';

for (const target of crashTargets()) {
  describe(`a server killed in the middle of an upload or a deposit [${target.name}]`, () => {
    const hub = useCrashHub(target);

    it('an upload killed once its files are placed, before the commit: no dataset, no half; staging again and submitting works', async () => {
      const owner = await hub.userId('user1@example.com');
      const datasetsBefore = await hub.db.selectFrom('data_set').select('id').where('user_id', '=', owner).execute();
      const server = await hub.start('upload:after-files');
      const client = await hub.loggedIn('user1@example.com');
      assert.equal((await stage(client, 'crash.uvl', VALID_UVL)).status, 200);
      const submitted = client.post('/dataset/upload', { form: uploadForm(['crash.uvl'], { title: 'Killed upload' }) }).catch(() => undefined);
      await killAtPause(server, 'upload:after-files', submitted);
      assert.equal(await submitted, undefined, 'the request got no answer');

      await hub.start();
      const after = await hub.db.selectFrom('data_set').select('id').where('user_id', '=', owner).execute();
      assert.deepEqual(after.map((r) => r.id).sort(), datasetsBefore.map((r) => r.id).sort(), 'the old state: no dataset was kept');
      await hub.assertConsistent();
      await hub.letClaimsGoStale();
      const again = await hub.loggedIn('user1@example.com');
      assert.equal((await stage(again, 'crash.uvl', VALID_UVL)).status, 200, 'staging again works');
      const saved = await again.post('/dataset/upload', { form: uploadForm(['crash.uvl'], { title: 'Upload after the crash' }) });
      assert.equal(saved.status, 200, saved.text.slice(0, 300));
      assert.equal(saved.json.status, 'ok');
      await hub.assertConsistent();
      const staged = await stagedNames(hub.store, owner);
      assert.ok(staged.every((k) => !k.startsWith('.claim-')), `no claim folder is left: ${staged.join(', ')}`);
      await hub.stop();
    });

    it('an upload killed after its commit, before its staged files were removed: the dataset is kept whole and its files are not offered again', async () => {
      const owner = await hub.userId('user1@example.com');
      const server = await hub.start('upload:after-commit');
      const client = await hub.loggedIn('user1@example.com');
      assert.equal((await stage(client, 'committed.uvl', VALID_UVL)).status, 200);
      const submitted = client.post('/dataset/upload', { form: uploadForm(['committed.uvl'], { title: 'Committed upload' }) }).catch(() => undefined);
      await killAtPause(server, 'upload:after-commit', submitted);

      await hub.start();
      const kept = await hub.db.selectFrom('data_set as ds').innerJoin('ds_meta_data as md', 'md.id', 'ds.ds_meta_data_id')
        .select(['ds.id', 'md.dataset_doi']).where('ds.user_id', '=', owner).where('md.title', '=', 'Committed upload').execute();
      assert.equal(kept.length, 1, 'the new state: the committed dataset is kept');
      assert.equal(kept[0]!.dataset_doi, null, 'not pushed: unsynchronized');
      await hub.assertConsistent();
      await hub.letClaimsGoStale();
      const again = await hub.loggedIn('user1@example.com');
      const page = await again.get('/dataset/upload');
      assert.doesNotMatch(page.text, /committed\.uvl/, 'the upload page does not offer the saved file again');
      const staged = await stagedNames(hub.store, owner);
      assert.deepEqual(staged.filter((k) => k.startsWith('.claim-') || k.startsWith('committed')), [], 'no claim folder, the saved file not staged again');
      assert.equal((await hub.db.selectFrom('staged_claim').select('name').execute()).length, 0, 'no claim row is left');
      const published = await again.post(`/dataset/${kept[0]!.id}/publish`);
      assert.equal(published.status, 200, published.text.slice(0, 300));
      assert.equal(published.json.status, 'ok', 'its owner can publish it');
      await hub.assertConsistent();
      await hub.stop();
    });

    it('a file added through the API killed once placed, before the commit: no file without its row; adding it again works', async () => {
      await hub.start();
      const datasetId = await apiDataset(hub, 'user2@example.com', 'Killed while adding');
      await hub.stop();
      const server = await hub.start('upload:after-files');
      const token = await createToken(await hub.loggedIn('user2@example.com'), ['write']);
      const adding = bearer(server.baseUrl, token, 'POST', `/api/v1/datasets/${datasetId}/files`, uvlForm('added.uvl', VALID_UVL)).catch(() => undefined);
      await killAtPause(server, 'upload:after-files', adding);

      await hub.start();
      const names = await hub.db.selectFrom('dataset_file_name').select('name').where('data_set_id', '=', datasetId).execute();
      assert.deepEqual(names.map((n) => n.name), ['draft.uvl'], 'the old state: one file');
      const again = await createToken(await hub.loggedIn('user2@example.com'), ['write']);
      const added = await bearer(hub.running!.baseUrl, again, 'POST', `/api/v1/datasets/${datasetId}/files`, uvlForm('added.uvl', VALID_UVL));
      assert.equal(added.status, 201, JSON.stringify(added.json));
      await hub.assertConsistent();
      await hub.stop();
    });

    it('a publish killed after the deposit answered, before the DOI was stored: no DOI shown, the publish can be made again', async () => {
      const datasetId = await killedPublish(hub, 'deposit:after-publish', 'Killed publish');
      const row = await doiOf(hub, datasetId);
      assert.equal(row.dataset_doi, null, 'the old state: unsynchronized, no DOI shown');
      assert.notEqual(row.deposit_claimed_at, null, 'the dead process\'s claim is left');
      await hub.assertConsistent();
      // The claim is stale once its limit passed (STALE_DEPOSIT_CLAIM_MS); then a publish takes it over.
      assert.equal((await publishAgain(hub, datasetId)).deposit_claimed_at, null);
      await hub.assertConsistent();
      await hub.stop();
    });

    it('a publish killed between storing the DOI and the concept DOI: neither is shown, or both', async () => {
      const datasetId = await killedPublish(hub, 'deposit:after-doi', 'Killed while storing');
      const row = await doiOf(hub, datasetId);
      assert.equal(row.concept_doi === null, row.dataset_doi === null, `DOI ${row.dataset_doi} with concept DOI ${row.concept_doi}: never one without the other`);
      await hub.assertConsistent();
      assert.notEqual((await publishAgain(hub, datasetId)).concept_doi, null);
      await hub.assertConsistent();
      await hub.stop();
    });
  });
}
