// Issue 37, item 9: a server killed in the middle of an upload, before the commit, leaves its claim
// of the staged files. Started again, the same person stages the same file and submits at once,
// without the minute a claim used to need to go stale: the dead process's claim is free because
// its process is gone (staging/instances.ts), and its parked file is back, as `crash (1).uvl`.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { VALID_UVL, stage, uploadForm } from '../../src/modules/dataset/dataset.test-support.ts';
import { crashTargets, killAtPause, stagedNames, useCrashHub } from './crash-hub.ts';

for (const target of crashTargets()) {
  describe(`a claim of a killed server is free at once after the restart [${target.name}]`, () => {
    const hub = useCrashHub(target);

    it('an upload killed before the commit: staging the same file again and submitting at once works, the parked copy is back', async () => {
      const owner = await hub.userId('user1@example.com');
      const server = await hub.start('upload:after-files');
      const client = await hub.loggedIn('user1@example.com');
      assert.equal((await stage(client, 'crash.uvl', VALID_UVL)).status, 200);
      const submitted = client.post('/dataset/upload', { form: uploadForm(['crash.uvl'], { title: 'Killed upload' }) }).catch(() => undefined);
      await killAtPause(server, 'upload:after-files', submitted);
      assert.ok((await stagedNames(hub.store, owner)).some((k) => k.startsWith('.claim-')), 'the killed upload left its claim');

      await hub.start();
      // No waiting: the claim is as fresh as the kill.
      const again = await hub.loggedIn('user1@example.com');
      assert.equal((await stage(again, 'crash.uvl', VALID_UVL)).status, 200, 'staging again works');
      const saved = await again.post('/dataset/upload', { form: uploadForm(['crash.uvl'], { title: 'Upload right after the crash' }) });
      assert.equal(saved.status, 200, saved.text.slice(0, 300));
      assert.equal(saved.json.status, 'ok');
      await hub.assertConsistent();
      assert.deepEqual(await stagedNames(hub.store, owner), ['crash (1).uvl'], 'the parked copy is back in the staging area, no claim folder is left');
      const rows = await hub.db.selectFrom('staged_claim').select('claim_id').where('folder', '=', `temp/${owner}/`).execute();
      assert.deepEqual(rows, [], 'no claim row is left');
      await hub.stop();
      const instances = await hub.db.selectFrom('staging_instance').select('id').execute();
      assert.equal(instances.length, 1, 'the clean stop removed its row; only the killed process\'s is left');
    });
  });
}
