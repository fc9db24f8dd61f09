// The compile's memory budget (memory-deadline.ts): the engine's deadline checks also stop a
// compile whose heap and external memory (typed arrays, outside V8's heap limit) pass the budget.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getHeapStatistics } from 'node:v8';
import { compileModel, DeadlineExceeded } from '../../../packages/analysis/src/index.ts';
import { parseUvl } from '../../../packages/uvl/src/index.ts';
import { MemoryDeadline } from './memory-deadline.ts';

const MODEL = `features\n    Root\n        or\n${Array.from({ length: 40 }, (_, i) => `            F${i}\n`).join('')}`;

describe('MemoryDeadline', () => {
  it('expires once heap and external memory pass the budget, and says it was the memory', () => {
    const held = new Uint8Array(64 * 1024 * 1024);
    const stats = getHeapStatistics();
    const deadline = new MemoryDeadline(60_000, stats.used_heap_size + stats.external_memory - 1);
    assert.equal(deadline.expired(), true);
    assert.equal(deadline.overMemory, true);
    assert.throws(() => deadline.check(), DeadlineExceeded);
    assert.equal(held.length > 0, true);
  });

  it('does not expire within the budget and the time', () => {
    const deadline = new MemoryDeadline(60_000, 64 * 1024 * 1024 * 1024);
    assert.equal(deadline.expired(), false);
    assert.equal(deadline.overMemory, false);
    deadline.check();
  });

  it('stops a compile over its memory budget (compileModel answers null), which compiles within a large one', () => {
    const model = parseUvl(MODEL).model!;
    assert.equal(compileModel(model, { text: MODEL, deadline: new MemoryDeadline(60_000, 1) }), null);
    assert.notEqual(compileModel(model, { text: MODEL, deadline: new MemoryDeadline(60_000, 64 * 1024 * 1024 * 1024) }), null);
  });
});
