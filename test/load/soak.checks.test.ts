// The soak's memory check (soak.checks.ts) on made-up samples: RSS compared only between samples
// with as many worker threads alive, the heap deciding where there are none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkMemory, type MemorySamples } from './soak.checks.ts';

/** 20 s run: windows [5, 8) and [17, 20). */
const run = (first: [number, number, number][], last: [number, number, number][]): MemorySamples => [[
  ...first.map(([kib, heapKib, workers], i) => ({ at: 5 + i, kib, heapKib, workers })),
  ...last.map(([kib, heapKib, workers], i) => ({ at: 17 + i, kib, heapKib, workers })),
]];

test('RSS within 10 % passes, past it fails', () => {
  assert.equal(checkMemory(run([[100, 50, 1], [100, 50, 1], [100, 50, 1]], [[109, 50, 1], [109, 50, 1], [109, 50, 1]]), 20).ok, true);
  assert.equal(checkMemory(run([[100, 50, 1], [100, 50, 1], [100, 50, 1]], [[111, 50, 1], [111, 50, 1], [111, 50, 1]]), 20).ok, false);
});

test('RSS is compared between samples with as many workers alive', () => {
  // A worker started at the end (+40): not a leak; the samples with one worker alive agree.
  const check = checkMemory(run([[100, 50, 1], [100, 50, 1], [140, 50, 2]], [[140, 50, 2], [140, 50, 2], [101, 50, 1]]), 20);
  assert.equal(check.ok, true, check.message);
  assert.match(check.message, /workers alive\)/);
});

test('without a worker count common to both windows the heap decides', () => {
  const steady = checkMemory(run([[100, 50, 1], [100, 50, 1]], [[150, 52, 2], [150, 52, 2]]), 20);
  assert.equal(steady.ok, true, steady.message);
  assert.match(steady.message, /RSS not comparable/);
  assert.equal(checkMemory(run([[100, 50, 1], [100, 50, 1]], [[150, 60, 2], [150, 60, 2]]), 20).ok, false);
});
