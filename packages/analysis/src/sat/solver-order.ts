// The SAT solver's branching (solver.ts): VSIDS activities over a binary heap of variables, saved
// phases, and the variables decided last or never. The propagation and search layers extend
// this class, so the heap is read as fields of the one solver object.

export class DecisionOrder {
  protected numVars = 0;
  // Per literal.
  protected litVal = new Int8Array(0);
  // Per variable.
  protected activity = new Float64Array(0);
  protected savedPhase = new Uint8Array(0); // 1: negative
  protected nonDecision = new Uint8Array(0); // 1: never branched on (set by propagation)
  protected heap = new Int32Array(0);
  protected heapIndex = new Int32Array(0); // -1: not in the heap
  protected heapSize = 0;
  protected varInc = 1;
  /** Variables decided after the others (deferDecisions), and the first of them that may be unassigned. */
  protected deferred = new Int32Array(0);
  protected deferredAt = 0;
  /** Every variable below this one is assigned (pickBranch's last scan, from 1 after a backtrack: it was quadratic in Padoa's checks). */
  protected scanAt = 1;

  protected bumpVar(v: number): void {
    this.activity[v] += this.varInc;
    if (this.activity[v]! > 1e100) {
      for (let u = 1; u <= this.numVars; u++) this.activity[u] *= 1e-100;
      this.varInc *= 1e-100;
    }
    const i = this.heapIndex[v]!;
    if (i >= 0) this.heapUp(i);
  }

  // Binary max-heap of variables by activity.
  protected heapLess(a: number, b: number): boolean {
    return this.activity[a]! > this.activity[b]!;
  }
  protected heapUp(i: number): void {
    const heap = this.heap;
    const v = heap[i]!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pv = heap[parent]!;
      if (!this.heapLess(v, pv)) break;
      heap[i] = pv;
      this.heapIndex[pv] = i;
      i = parent;
    }
    heap[i] = v;
    this.heapIndex[v] = i;
  }
  protected heapDown(i: number): void {
    const heap = this.heap;
    const v = heap[i]!;
    const size = this.heapSize;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      if (child + 1 < size && this.heapLess(heap[child + 1]!, heap[child]!)) child++;
      if (!this.heapLess(heap[child]!, v)) break;
      heap[i] = heap[child]!;
      this.heapIndex[heap[i]!] = i;
      i = child;
    }
    heap[i] = v;
    this.heapIndex[v] = i;
  }
  protected heapInsert(v: number): void {
    const i = this.heapSize++;
    this.heap[i] = v;
    this.heapIndex[v] = i;
    this.heapUp(i);
  }
  protected heapPop(): number {
    const top = this.heap[0]!;
    this.heapIndex[top] = -1;
    this.heapSize--;
    if (this.heapSize > 0) {
      const last = this.heap[this.heapSize]!;
      this.heap[0] = last;
      this.heapIndex[last] = 0;
      this.heapDown(0);
    }
    return top;
  }

  protected pickBranch(): number {
    while (this.heapSize > 0) {
      const v = this.heapPop();
      if (this.nonDecision[v]) continue;
      if (this.litVal[v << 1] === 0) return (v << 1) | this.savedPhase[v]!;
    }
    for (; this.deferredAt < this.deferred.length; this.deferredAt++) {
      const v = this.deferred[this.deferredAt]!;
      if (this.litVal[v << 1] === 0) return (v << 1) | this.savedPhase[v]!;
    }
    for (; this.scanAt <= this.numVars; this.scanAt++) {
      if (this.litVal[this.scanAt << 1] === 0) return (this.scanAt << 1) | this.savedPhase[this.scanAt]!;
    }
    return -1;
  }
}
