// The stored samples bounded (SAMPLE_STORE_MAX_BYTES, configurator.evict.ts): past the bound the
// least recently used finished samples go, row then object, down to 90% of it; a sample served
// lately stays over an older unread one, one deleted is computed again (the same sample) when asked
// for, a running one is never deleted, and a reader whose row goes meanwhile gets `pending`.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { fetchJson, uploadDataset } from '../../../test/support/uploads.ts';
import { ENGINE_VERSION } from '../../../packages/analysis/src/index.ts';
import * as repo from './configurator.repository.ts';
import { PRINTER_UVL, waitForResult } from './configurator.test-support.ts';

/** Configurations per sample: about 1.3 KB packed (a byte per row), so that 3 fit within 90% of CAP and 4 do not fit within CAP. */
const N = 1000;
const CAP = 5500;
const params = (seed: number) => `n=${N};seed=${seed};select=;deselect=`;
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

for (const dialect of testDialects()) {
  describe(`stored samples bounded by SAMPLE_STORE_MAX_BYTES [${dialect.name}]`, () => {
    let server: TestServer;
    let file: number;
    const url = (seed: number) => `${server.baseUrl}/api/v1/files/${file}/samples?kind=uniform&n=${N}&seed=${seed}`;
    const rows = () => server.hub.db.selectFrom('model_sample')
      .select(['id', 'params', 'status', 'stored_key', 'stored_bytes', 'last_used_at']).where('kind', '=', 'uniform').orderBy('id').execute();
    const row = async (seed: number) => (await rows()).find((r) => r.params === params(seed));
    /** The seeds of the finished samples kept, in order. */
    const kept = async () => (await rows()).filter((r) => r.status === 'done').map((r) => Number(/seed=(\d+)/.exec(r.params)![1])).sort((a, b) => a - b);
    const total = () => repo.storedTotal(server.hub.db);
    const dated = (seed: number, at: string) => server.hub.db.updateTable('model_sample').set({ last_used_at: at }).where('params', '=', params(seed)).execute();
    /** Asks for a sample until it is there, then waits for the cleanup its store started (and one more). */
    const stored = async (seed: number) => {
      const sample = await waitForResult(url(seed));
      await server.hub.ctx.services.configurator.cleanSamples();
      return sample;
    };
    const first = new Map<number, unknown>();

    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { ANALYSIS_WORKERS: '0', SAMPLE_STORE_MAX_BYTES: String(CAP) } });
      const client = new TestClient(server.baseUrl);
      await client.login('user1@example.com', '1234');
      await client.get('/dataset/upload');
      const { dataset_id } = await uploadDataset(client, 'Bounded printer', [['bounded.uvl', PRINTER_UVL]]);
      file = (await fetchJson(`${server.baseUrl}/api/v1/datasets/${dataset_id}`)).json.files[0].file_id;
    });
    after(async () => server?.close());

    it('deletes the least recently used samples past the bound, row and object: one read lately stays over an older unread one', async () => {
      for (const seed of [11, 12, 13]) first.set(seed, await stored(seed));
      assert.deepEqual(await kept(), [11, 12, 13]);
      const size = Number((await row(11))!.stored_bytes);
      assert.ok(3 * size <= CAP * 0.9 && 4 * size > CAP, `the test's premise: 3 samples of ${size} bytes fit within 90% of ${CAP}, 4 do not fit within it`);
      assert.ok(size > N, `the weight counts the packed object (${size} bytes)`);
      assert.equal(await total(), 3 * size);

      await dated(11, minutesAgo(30));
      await dated(12, minutesAgo(20));
      await dated(13, minutesAgo(10));
      // Read now: 11 becomes the most recently used of the three.
      assert.deepEqual(await waitForResult(url(11)), first.get(11));
      assert.ok((await row(11))!.last_used_at! > minutesAgo(1), 'a read dates a sample again');
      const twelve = (await row(12))!;

      first.set(14, await stored(14));
      assert.deepEqual(await kept(), [11, 13, 14]);
      assert.equal(await server.hub.ctx.store.stat(twelve.stored_key!), undefined, 'the deleted sample\'s object is gone from the store');
      assert.ok(await total() <= CAP * 0.9, `total ${await total()} within 90% of ${CAP}`);
    });

    it('dates a served sample again at most once a minute: no write while its date is recent', async () => {
      const recent = minutesAgo(0.5);
      await dated(14, recent);
      assert.deepEqual(await waitForResult(url(14)), first.get(14));
      assert.equal((await row(14))!.last_used_at, recent, 'served within the minute: not written');
      const old = minutesAgo(2);
      await dated(14, old);
      assert.deepEqual(await waitForResult(url(14)), first.get(14));
      assert.ok((await row(14))!.last_used_at! > old, 'served after a minute: dated again');
    });

    it('computes a deleted sample again when it is asked for: 202, then the identical sample', async () => {
      assert.equal((await row(12)), undefined);
      await dated(11, minutesAgo(5));
      await dated(13, minutesAgo(40));
      await dated(14, minutesAgo(3));
      const again = await fetch(url(12));
      assert.equal(again.status, 202, await again.text());
      assert.deepEqual(await stored(12), first.get(12));
      // 12 came back as the newest; 13, now the least recently used, made room.
      assert.deepEqual(await kept(), [11, 12, 14]);
      assert.ok(await total() <= CAP * 0.9);
    });

    it('never deletes a running sample, however old its date and large its weight', async () => {
      const { sha256 } = (await server.hub.db.selectFrom('model_sample').select('sha256').where('kind', '=', 'uniform').executeTakeFirstOrThrow());
      const now = new Date().toISOString();
      await server.hub.db.insertInto('model_sample').values({
        sha256, kind: 'uniform', params: params(99), engine_version: ENGINE_VERSION, status: 'running',
        claimed_by: 'another-instance', claimed_at: now, created_at: now, stored_bytes: 10 * CAP, last_used_at: minutesAgo(10_000),
      } as any).execute();
      for (const seed of [11, 12, 14]) await dated(seed, minutesAgo(60 - seed));
      first.set(15, await stored(15));
      assert.equal((await row(99))?.status, 'running', 'the running sample is still claimed');
      assert.deepEqual(await kept(), [12, 14, 15]);
      assert.ok(await total() <= CAP * 0.9, 'a running sample weighs nothing yet');
    });

    it('answers pending, then the identical sample, to a reader whose row is deleted between its read and the object\'s', async () => {
      const store = server.hub.ctx.store;
      const target = (await row(15))!;
      const get = store.get;
      // The cleanup of another instance deletes the sample (row, then object) right after this reader read its row.
      store.get = async (key) => {
        if (key === target.stored_key) {
          const latest = (await row(15))!;
          assert.ok(await repo.evict(server.hub.db, { id: Number(latest.id), stored_key: latest.stored_key, stored_bytes: Number(latest.stored_bytes), last_used_at: latest.last_used_at }));
          await store.delete(key);
        }
        return get.call(store, key);
      };
      try {
        const res = await fetch(url(15));
        assert.equal(res.status, 202, await res.text());
      } finally {
        store.get = get;
      }
      assert.deepEqual(await stored(15), first.get(15));
    });
  });
}
