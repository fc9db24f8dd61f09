// The counting cookies' values (tracking.ts): version 7 UUIDs, ordered by the time they were made.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { timeOrderedUuid } from './tracking.ts';

describe('counting cookie values', () => {
  it('are version 7 UUIDs that sort by the time they were made, and never repeat', () => {
    const start = Date.UTC(2026, 11, 6, 12, 0, 0);
    const values = Array.from({ length: 20_000 }, (_, i) => timeOrderedUuid(start + Math.floor(i / 10)));
    for (const value of values.slice(0, 200)) {
      assert.match(value, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    assert.equal(new Set(values).size, values.length);
    // The time leads: a later millisecond sorts after every value of an earlier one.
    for (let i = 10; i < values.length; i += 10) assert.ok(values[i - 1]!.slice(0, 13) < values[i]!.slice(0, 13), `${values[i - 1]} < ${values[i]}`);
    assert.equal(parseInt(values[0]!.replace('-', '').slice(0, 12), 16), start);
  });
});
