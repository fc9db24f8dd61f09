// The limit on new shared configurations (configurator.share-limit.ts) with its clock in hand: the
// window passes without waiting an hour. A new configuration costs one unit per started 16 KiB of
// its stored decisions; a requester has 600 units an hour.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BODY_LIMIT_BYTES } from '../../core/http/server-options.ts';
import {
  SHARE_UNITS_PER_HOUR, SHARE_UNIT_BYTES, SHARE_WINDOW_MS, WindowLimiter, newShareLimiter, shareLimitMessage, shareUnits,
} from './configurator.share-limit.ts';

function clock(start = 1_000_000) {
  const c = { t: start, now: () => c.t };
  return c;
}

describe('new shares limiter', () => {
  it('costs one unit per started 16 KiB of the stored decisions (UTF-8), and the largest body fits in an hour\'s 600 units', () => {
    assert.deepEqual([SHARE_UNIT_BYTES, SHARE_UNITS_PER_HOUR], [16 * 1024, 600]);
    assert.equal(shareUnits('{"selected":[],"deselected":[]}'), 1);
    assert.equal(shareUnits('x'.repeat(16 * 1024)), 1);
    assert.equal(shareUnits('x'.repeat(16 * 1024 + 1)), 2);
    assert.equal(shareUnits('x'.repeat(600 * 1024)), 38);
    assert.equal(shareUnits('é'.repeat(8 * 1024)), 1, 'two bytes each');
    assert.equal(shareUnits('é'.repeat(8 * 1024 + 1)), 2);
    // A take heavier than the limit could never fit; no body is that heavy. The stored JSON is at
    // most three bytes per byte of the body (an invalid UTF-8 byte is read as U+FFFD), and the keys
    // an absent list adds.
    assert.equal(BODY_LIMIT_BYTES / SHARE_UNIT_BYTES, 128);
    assert.ok(shareUnits('x'.repeat(3 * BODY_LIMIT_BYTES + 64)) <= SHARE_UNITS_PER_HOUR);
    assert.equal(shareLimitMessage(42, false), 'Too many configurations stored from here: at most 600 small ones (or about 10 MB) an hour. Try again in 42 seconds.');
    assert.match(shareLimitMessage(1, true), /^Too many configurations stored from your account: /);
  });

  it('allows 600 units an hour per requester, refuses a take that would pass them with the seconds until enough weight has left the window, and allows it once it has', () => {
    const c = clock();
    const start = c.t;
    const limiter = newShareLimiter(c.now);
    const key = 'address:192.0.2.1';
    assert.deepEqual(limiter.take(key, 100), { allowed: true });
    c.t += 10_000;
    assert.deepEqual(limiter.take(key, 200), { allowed: true });
    c.t += 10_000;
    assert.deepEqual(limiter.take(key, 300), { allowed: true });
    // 600 units taken 20 s, 10 s and 0 s ago: one more needs the first take gone, in an hour less 20 s.
    assert.deepEqual(limiter.take(key), { allowed: false, retryAfterS: 3600 - 20 });
    assert.deepEqual(limiter.take(key, 100), { allowed: false, retryAfterS: 3600 - 20 }, 'the first take frees just enough');
    assert.deepEqual(limiter.take(key, 101), { allowed: false, retryAfterS: 3600 - 10 }, 'the first two must leave');
    assert.deepEqual(limiter.take(key, 600), { allowed: false, retryAfterS: 3600 }, 'all three must leave');
    c.t = start + SHARE_WINDOW_MS - 1;
    assert.deepEqual(limiter.take(key, 100), { allowed: false, retryAfterS: 1 }, 'never 0 while refused');
    c.t += 1;
    assert.deepEqual(limiter.take(key, 100), { allowed: true }, 'the first take left the window: its 100 units fit again');
    assert.deepEqual(limiter.take(key), { allowed: false, retryAfterS: 10 }, 'only it left');
    c.t += SHARE_WINDOW_MS;
    for (let i = 0; i < SHARE_UNITS_PER_HOUR; i++) assert.equal(limiter.take(key).allowed, true, `small take ${i}`);
    assert.deepEqual(limiter.take(key), { allowed: false, retryAfterS: 3600 }, 'a small take counts 1: the 601st is refused');
  });

  it('counts each requester apart, a take given back returns its weight, and a refused take costs nothing', () => {
    const limiter = new WindowLimiter({ limit: 10, windowMs: 1000, maxKeys: 10, now: clock().now });
    assert.equal(limiter.take('a', 6).allowed, true);
    assert.equal(limiter.take('a', 4).allowed, true);
    assert.equal(limiter.take('a', 1).allowed, false);
    assert.equal(limiter.take('b', 10).allowed, true, 'another requester is not affected');
    limiter.giveBack('a', 4);
    assert.equal(limiter.take('a', 5).allowed, false, 'the take of 4 was given back, not the one of 6');
    assert.equal(limiter.take('a', 4).allowed, true, 'the refused 5 cost nothing');
    assert.equal(limiter.take('a', 1).allowed, false);
    limiter.giveBack('b', 10);
    assert.equal(limiter.takesOf('b'), 0);
    assert.equal(limiter.size, 1, 'a key with nothing left is forgotten');
    limiter.giveBack('unknown', 1);
    // Overlapping requests of one requester: the one that stored nothing gives back its own weight.
    assert.equal(limiter.take('d', 1).allowed, true);
    assert.equal(limiter.take('d', 8).allowed, true);
    limiter.giveBack('d', 1);
    assert.equal(limiter.take('d', 2).allowed, true, 'the 1 came back, the 8 still counts');
    assert.equal(limiter.take('d', 1).allowed, false);
    assert.equal(limiter.take('b', 10).allowed, true);
    for (const weight of [0, 11, 1.5]) assert.throws(() => limiter.take('c', weight), RangeError);
    assert.equal(limiter.takesOf('c'), 0);
  });

  it('forgets requesters whose window passed, keeps at most maxKeys, the least recently active leaving first, and at most limit takes per requester', () => {
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

    const takes = new WindowLimiter({ limit: 5, windowMs: 1000, maxKeys: 3, now: c.now });
    for (let i = 0; i < 100; i++) {
      takes.take('a', 1 + (i % 3));
      c.t += 50;
      assert.ok(takes.takesOf('a') <= 5, `${takes.takesOf('a')} takes kept`);
    }
  });
});
