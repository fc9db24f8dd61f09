import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newSessionId, SessionIdPool } from './session-ids.ts';

describe('session ids', () => {
  it('are 24 random bytes in base64url, never the same twice', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const id = newSessionId();
      assert.match(id, /^[A-Za-z0-9_-]{32}$/);
      assert.ok(!seen.has(id));
      seen.add(id);
    }
  });

  it('are handed out prepared, each once, and made ahead on a later turn', async () => {
    const prepared = new Set<string>();
    const pool = new SessionIdPool((sid) => (prepared.add(sid), { sid }), 16, 4);
    const first = pool.take().sid;
    assert.ok(prepared.has(first), 'an id taken from an empty pool is prepared on the spot');
    assert.equal(prepared.size, 1, 'nothing is made ahead on the answer\'s own turn');
    // A batch per event-loop turn: on a loaded machine the turns come late, so wait for them
    // (at most 2 s), then check that the pool stopped at its size.
    for (let i = 0; i < 200 && prepared.size < 17; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(prepared.size, 17, 'the pool filled itself to its size, a batch per turn');
    const taken = new Set([first]);
    for (let i = 0; i < 40; i++) {
      const id = pool.take().sid;
      assert.ok(prepared.has(id));
      assert.ok(!taken.has(id), 'never the same id twice');
      taken.add(id);
    }
  });
});
