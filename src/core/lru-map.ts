// Bounded caches of the hot paths (kept pages, verified cookies, derived secrets, records known to
// exist): at most `limit` entries, the ones not used for longest leaving first.
//
// Two generations of plain Maps rather than one Map reordered on every hit: V8's Map is an ordered
// hash table in which each delete leaves a hole, and a Map of ten thousand entries kept in LRU
// order by delete-and-set took about 25 µs per hit (measured), which halved the throughput of a
// page once such a cache was full. Here nothing is ever deleted: a hit in the older generation is
// copied into the newer one, and when the newer one holds half the limit it becomes the older one
// and whatever was not used meanwhile goes with the old older generation.
export class LruMap<K, V> {
  private recent = new Map<K, V>();
  private older = new Map<K, V>();
  private readonly half: number;

  constructor(limit: number) {
    this.half = Math.max(1, Math.floor(limit / 2));
  }

  get(key: K): V | undefined {
    const value = this.recent.get(key);
    if (value !== undefined) return value;
    const old = this.older.get(key);
    if (old !== undefined) this.set(key, old);
    return old;
  }

  /** The value kept under key, or the one `make` gives, kept from now on. */
  getOrMake(key: K, make: (key: K) => V): V {
    return this.get(key) ?? this.makeNew(key, make);
  }

  /** The value `make` gives for a key known not to be kept (a fresh random id): kept, without a lookup that would miss. */
  makeNew(key: K, make: (key: K) => V): V {
    const value = make(key);
    this.set(key, value);
    return value;
  }

  has(key: K): boolean {
    return this.get(key) !== undefined;
  }

  set(key: K, value: V): void {
    this.recent.set(key, value);
    if (this.recent.size >= this.half) {
      this.older = this.recent;
      this.recent = new Map();
    }
  }
}
