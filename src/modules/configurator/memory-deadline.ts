// A compile's budget of memory beside its time. linux-2.6.33.3's compile grew its worker past
// 1.1 GB resident within its 60 s even with a 448 MB heap: the compiled form's typed arrays live
// outside V8's heap, where resourceLimits do not reach. The engine checks its deadline every few
// thousand steps; this deadline also expires once the worker's heap and its external memory
// (ArrayBuffers) pass the budget, so the compile gives up as it does on time, remembered as failed.
import { getHeapStatistics } from 'node:v8';
import { Deadline, DeadlineExceeded } from '../../../packages/analysis/src/index.ts';

/** Heap statistics are read at most this often (a check runs every few thousand engine steps). */
const EVERY_MS = 20;

export class MemoryDeadline extends Deadline {
  /** Set once the memory budget ran out (not the time). */
  overMemory = false;
  private nextLook = 0;

  constructor(ms: number, private readonly budgetBytes: number) {
    super(Date.now() + ms);
  }

  override expired(): boolean {
    if (super.expired() || this.overMemory) return true;
    const now = Date.now();
    if (now < this.nextLook) return false;
    this.nextLook = now + EVERY_MS;
    const heap = getHeapStatistics();
    this.overMemory = heap.used_heap_size + heap.external_memory > this.budgetBytes;
    return this.overMemory;
  }

  override check(): void {
    if (this.expired()) throw new DeadlineExceeded();
  }
}
