// The counter's cache of component counts. A component is identified by its sorted variables and
// its sorted active clause ids; the counter meets millions of them (fm3.uvl: about 2 million
// look-ups for 400 000 entries), so a key is never built as a string or an object: a look-up
// takes the component's 32-bit hash and its lists where they already are (the counter's arena),
// and compares them with the stored entries of the same hash. Entries are stored as
// variable-length deltas in one byte arena (most deltas fit one byte), so the cache costs about
// one byte per variable and clause of each entry. A hash only selects candidates: every hit is
// an exact match of both lists, so counts stay exact whatever the hashes collide on. The value
// is a count, or what the counter's algebra makes of one (a compiled node: count-algebra.ts).

export class ComponentCache<T = bigint> {
  private readonly maxBytes: number;
  private bytes: Uint8Array;
  private bytesUsed = 0;
  // Entry i: its hash, where its deltas start in `bytes`, its list lengths and its count.
  private entryHash = new Int32Array(1 << 12);
  private entryOffset = new Int32Array(1 << 12);
  private entryVars = new Int32Array(1 << 12);
  private entryClauses = new Int32Array(1 << 12);
  private entryValue: T[] = [];
  private entries = 0;
  // Open addressing with linear probing: entry index + 1, 0 for an empty slot. At most half full.
  private slots = new Int32Array(1 << 13);

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
    this.bytes = new Uint8Array(Math.min(1 << 20, maxBytes));
  }

  get size(): number {
    return this.entries;
  }

  /** The count stored for the component whose variables are list[start .. start+vars) and clauses the next `clauses` items. */
  get(hash: number, list: Int32Array, start: number, vars: number, clauses: number): T | undefined {
    const mask = this.slots.length - 1;
    for (let s = hash & mask; ; s = (s + 1) & mask) {
      const e = this.slots[s]! - 1;
      if (e < 0) return undefined;
      if (this.entryHash[e] === hash && this.entryVars[e] === vars && this.entryClauses[e] === clauses && this.matches(e, list, start, vars, clauses)) {
        return this.entryValue[e];
      }
    }
  }

  set(hash: number, list: Int32Array, start: number, vars: number, clauses: number, value: T): void {
    // Five bytes per item at most (a delta below 2^31).
    const need = 5 * (vars + clauses);
    if (this.bytesUsed + need > this.maxBytes) this.forgetOlderHalf();
    if (this.bytesUsed + need > this.bytes.length) this.growBytes(this.bytesUsed + need);
    if (this.entries === this.entryHash.length) this.growEntries();
    if (2 * (this.entries + 1) > this.slots.length) this.rehash(2 * this.slots.length);
    const e = this.entries++;
    this.entryHash[e] = hash;
    this.entryOffset[e] = this.bytesUsed;
    this.entryVars[e] = vars;
    this.entryClauses[e] = clauses;
    this.entryValue[e] = value;
    this.bytesUsed = this.encode(list, start, vars, clauses, this.bytesUsed);
    this.insertSlot(e);
  }

  /** Sorted variables as deltas from 0, then sorted clause ids as deltas from -1: every delta is at least 1 but the first variable's. */
  private encode(list: Int32Array, start: number, vars: number, clauses: number, at: number): number {
    const bytes = this.bytes;
    let prev = 0;
    const end = start + vars + clauses;
    for (let i = start; i < end; i++) {
      if (i === start + vars) prev = -1;
      let delta = list[i]! - prev;
      prev = list[i]!;
      while (delta >= 0x80) {
        bytes[at++] = (delta & 0x7f) | 0x80;
        delta >>>= 7;
      }
      bytes[at++] = delta;
    }
    return at;
  }

  private matches(e: number, list: Int32Array, start: number, vars: number, clauses: number): boolean {
    const bytes = this.bytes;
    let at = this.entryOffset[e]!;
    let prev = 0;
    const end = start + vars + clauses;
    for (let i = start; i < end; i++) {
      if (i === start + vars) prev = -1;
      let delta = 0;
      let shift = 0;
      let b: number;
      do {
        b = bytes[at++]!;
        delta |= (b & 0x7f) << shift;
        shift += 7;
      } while (b & 0x80);
      prev += delta;
      if (list[i] !== prev) return false;
    }
    return true;
  }

  private insertSlot(e: number): void {
    const mask = this.slots.length - 1;
    let s = this.entryHash[e]! & mask;
    while (this.slots[s] !== 0) s = (s + 1) & mask;
    this.slots[s] = e + 1;
  }

  private rehash(size: number): void {
    this.slots = new Int32Array(size);
    for (let e = 0; e < this.entries; e++) this.insertSlot(e);
  }

  private growBytes(atLeast: number): void {
    let size = this.bytes.length;
    while (size < atLeast) size *= 2;
    // Not past the limit, unless one entry needs it.
    size = Math.max(atLeast, Math.min(size, this.maxBytes));
    const bigger = new Uint8Array(size);
    bigger.set(this.bytes.subarray(0, this.bytesUsed));
    this.bytes = bigger;
  }

  private growEntries(): void {
    const size = 2 * this.entryHash.length;
    const grow = (a: Int32Array) => {
      const b = new Int32Array(size);
      b.set(a);
      return b;
    };
    this.entryHash = grow(this.entryHash);
    this.entryOffset = grow(this.entryOffset);
    this.entryVars = grow(this.entryVars);
    this.entryClauses = grow(this.entryClauses);
  }

  /** Keeps the newer half of the entries (they are stored in insertion order). */
  private forgetOlderHalf(): void {
    const first = this.entries >> 1;
    const from = first < this.entries ? this.entryOffset[first]! : this.bytesUsed;
    this.bytes.copyWithin(0, from, this.bytesUsed);
    this.bytesUsed -= from;
    const kept = this.entries - first;
    for (let e = 0; e < kept; e++) {
      this.entryHash[e] = this.entryHash[first + e]!;
      this.entryOffset[e] = this.entryOffset[first + e]! - from;
      this.entryVars[e] = this.entryVars[first + e]!;
      this.entryClauses[e] = this.entryClauses[first + e]!;
      this.entryValue[e] = this.entryValue[first + e]!;
    }
    this.entryValue.length = kept;
    this.entries = kept;
    this.rehash(this.slots.length);
  }
}
