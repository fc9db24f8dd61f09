// Which instances hold live claims of staged files (issue 37, item 9), on every dialect: a live
// instance of this process or of another machine is alive; one that stopped cleanly, a process
// of this machine that no longer runs, and a row not dated for INSTANCE_STALE_MS are gone.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { testDialects } from '../../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { INSTANCE_STALE_MS, StagingInstances } from './instances.ts';

for (const dialect of testDialects()) {
  describe(`staging instances [${dialect.name}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl });
    });
    after(async () => server?.close());

    it('tells a live instance from a stopped, dead or silent one', async () => {
      const db = server.hub.db;
      const a = new StagingInstances(db);
      const b = new StagingInstances(db);
      await a.register();
      await b.register();
      assert.deepEqual([...await b.gone([a.id, b.id])], [], 'a live instance of this process, and itself');
      const own = await db.selectFrom('staging_instance').select(['pid_space', 'pid']).where('id', '=', a.id).executeTakeFirstOrThrow();
      assert.equal(own.pid, process.pid);

      // A process of this machine that ended (a child that has exited), dated just now.
      const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
      const now = new Date().toISOString();
      await db.insertInto('staging_instance').values([
        { id: 'killed-here', pid_space: own.pid_space, pid: Number(ended.stdout), heartbeat_at: now },
        // Another machine's live process: its pid means nothing here, its date says it is alive.
        { id: 'other-host', pid_space: 'another-boot/pid:[1]', pid: Number(ended.stdout), heartbeat_at: now },
        { id: 'silent', pid_space: 'another-boot/pid:[1]', pid: 1, heartbeat_at: new Date(Date.now() - INSTANCE_STALE_MS - 1000).toISOString() },
      ]).execute();
      assert.deepEqual([...await b.gone(['killed-here', 'other-host', 'silent', 'no-row'])].sort(), ['killed-here', 'no-row', 'silent']);

      await a.stop();
      assert.deepEqual([...await b.gone([a.id])], [a.id], 'a clean stop deletes the row');
      await b.stop();
    });
  });
}
