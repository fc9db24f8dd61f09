// The limit on new shared configurations (configurator.share-limit.ts) with its clock in hand: the
// window passes without waiting an hour.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { NEW_SHARES_PER_HOUR, SHARE_WINDOW_MS, WindowLimiter, newShareLimiter } from './configurator.share-limit.ts';

function clock(start = 1_000_000) {
  const c = { t: start, now: () => c.t };
  return c;
}

describe('new shares limiter', () => {
  it('allows 60 new shares an hour per requester, refuses the 61st with the seconds until the oldest leaves, and allows one again once it has', () => {
    const c = clock();
    const limiter = newShareLimiter(c.now);
    assert.equal(NEW_SHARES_PER_HOUR, 60);
    for (let i = 0; i < NEW_SHARES_PER_HOUR; i++) {
      assert.deepEqual(limiter.take('address:192.0.2.1'), { allowed: true });
      c.t += 1000;
    }
    // The first take was 60 s ago: it leaves the window in an hour less 60 s.
    assert.deepEqual(limiter.take('address:192.0.2.1'), { allowed: false, retryAfterS: 3600 - 60 });
    c.t += SHARE_WINDOW_MS - 60_000 - 1;
    assert.deepEqual(limiter.take('address:192.0.2.1'), { allowed: false, retryAfterS: 1 }, 'never 0 while refused');
    c.t += 1;
    assert.deepEqual(limiter.take('address:192.0.2.1'), { allowed: true }, 'the first take left the window');
    assert.equal(limiter.take('address:192.0.2.1').allowed, false, 'only one left it');
    c.t += SHARE_WINDOW_MS;
    for (let i = 0; i < NEW_SHARES_PER_HOUR; i++) assert.equal(limiter.take('address:192.0.2.1').allowed, true);
  });

  it('counts each requester apart, and a take given back does not count', () => {
    const limiter = new WindowLimiter({ limit: 2, windowMs: 1000, maxKeys: 10, now: clock().now });
    assert.equal(limiter.take('a').allowed, true);
    assert.equal(limiter.take('a').allowed, true);
    assert.equal(limiter.take('a').allowed, false);
    assert.equal(limiter.take('b').allowed, true, 'another requester is not affected');
    limiter.giveBack('b');
    assert.equal(limiter.take('b').allowed, true);
    assert.equal(limiter.take('b').allowed, true);
    assert.equal(limiter.take('b').allowed, false);
  });

  it('forgets requesters whose window passed and keeps at most maxKeys, the least recently active leaving first', () => {
    const c = clock();
    const limiter = new WindowLimiter({ limit: 1, windowMs: 1000, maxKeys: 3, now: c.now });
    for (const key of ['a', 'b', 'c']) { limiter.take(key); c.t += 100; }
    assert.equal(limiter.size, 3);
    c.t += 1000 - 300;
    limiter.take('d');
    assert.equal(limiter.size, 3, 'a left: its window passed');
    c.t += 1000;
    limiter.take('e');
    assert.equal(limiter.size, 1, 'b, c and d left');
    for (const key of ['f', 'g', 'h']) limiter.take(key);
    assert.equal(limiter.size, 3, 'bounded');
    assert.equal(limiter.take('e').allowed, true, 'e, the least recently active, was forgotten');
    assert.equal(limiter.take('h').allowed, false, 'h is still counted');
  });
});
