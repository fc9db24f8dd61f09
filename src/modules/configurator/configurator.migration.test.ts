// Migration 2026_12_05_0450 on every dialect: rows stored before get a last use (their finish) and
// the weight the row alone tells (a sample's JSON or failure message; not the commonality); the
// first cleanup measures the packed samples in the store and forgets one whose object is gone.
// Down removes the columns.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, testDialects } from '../../../test/support/databases.ts';
import { connect } from '../../core/db/connect.ts';
import { migrateTo, migrateToLatest } from '../../core/db/migrate.ts';
import { createLocalStore } from '../../core/storage/index.ts';
import { SampleEvictor } from './configurator.evict.ts';
import { ROW_BYTES } from './configurator.repository.ts';

const BEFORE = '2026_12_05_0445_shared_configurations';
const SHA = 'a'.repeat(64);

for (const dialect of testDialects()) {
  describe(`sample store bound migration [${dialect.name}]`, () => {
    it('dates and weighs the rows stored before, the first cleanup measures packed samples in the store, and goes back down', async () => {
      const database = await createTestDatabase(dialect.baseUrl);
      const db = connect(database.url);
      const dir = mkdtempSync(join(tmpdir(), 'hub-samples-'));
      try {
        await migrateTo(db, BEFORE);
        const row = (params: string, values: Record<string, string | null>) => db.insertInto('model_sample' as any).values({
          sha256: SHA, kind: 'uniform', params, engine_version: '1', status: 'done', created_at: '2026-01-01T00:00:00.000Z', finished_at: '2026-01-02T00:00:00.000Z', ...values,
        }).execute();
        await row('packed', { stored_key: 'samples/a/packed.sample' });
        await row('lost', { stored_key: 'samples/a/lost.sample' });
        await row('json', { result: 'x'.repeat(100) });
        await row('failed', { status: 'failed', error: 'unknown feature Nope' });
        await row('running', { status: 'running', finished_at: null, claimed_by: 'i', claimed_at: '2026-01-03T00:00:00.000Z' });
        await row('', { kind: 'commonality', result: '{}' });
        await migrateToLatest(db);
        const weights = async () => Object.fromEntries((await db.selectFrom('model_sample').select(['params', 'stored_bytes', 'last_used_at']).execute())
          .map((r) => [r.params || 'commonality', [r.stored_bytes === null ? null : Number(r.stored_bytes), r.last_used_at]]));
        assert.deepEqual(await weights(), {
          packed: [null, '2026-01-02T00:00:00.000Z'],
          lost: [null, '2026-01-02T00:00:00.000Z'],
          json: [100 + ROW_BYTES, '2026-01-02T00:00:00.000Z'],
          failed: ['unknown feature Nope'.length + ROW_BYTES, '2026-01-02T00:00:00.000Z'],
          running: [null, '2026-01-01T00:00:00.000Z'],
          commonality: [null, '2026-01-02T00:00:00.000Z'],
        });

        const store = createLocalStore(dir);
        await store.put('samples/a/packed.sample', Buffer.alloc(1234));
        const evictor = new SampleEvictor(db, store, 0, { warn: () => {} });
        const outcome = await evictor.request();
        await evictor.stop();
        assert.equal(outcome.measured, 2);
        assert.equal(outcome.evicted, 0, 'no bound (0): nothing deleted');
        const after = await weights();
        assert.deepEqual(after.packed, [1234 + ROW_BYTES, '2026-01-02T00:00:00.000Z']);
        assert.equal(after.lost, undefined, 'a row whose object is gone is forgotten');
        assert.equal(outcome.after, 1234 + 100 + 'unknown feature Nope'.length + 3 * ROW_BYTES);

        await migrateTo(db, BEFORE);
        const columns = (await db.introspection.getTables()).find((t) => t.name === 'model_sample')!.columns.map((c) => c.name);
        assert.ok(!columns.includes('stored_bytes') && !columns.includes('last_used_at'));
      } finally {
        await db.destroy();
        await database.drop();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
