// A balanced separator of a small graph (the residual primal graph of one of the counter's
// components): a min-degree elimination gives a tree decomposition, and the bag of its
// centroid splits the graph into parts of at most half the vertices each. The counter's
// residual components are far narrower than the whole formula (fm3.uvl: width about 90 for the
// formula, 5 to 8 for components of 50 to 200 variables), which is why a separator is looked
// for again on what is left rather than read from one order computed up front.
//
// The graph is kept as bit rows (a component has a few hundred vertices at most when this is
// used), so that eliminating a vertex is a few word-wide ORs per neighbour.

export class BalancedSeparator {
  private vertices = 0;
  private words = 0;
  private rows = new Int32Array(1024);
  private degree = new Int32Array(64);
  private position = new Int32Array(64);
  private vertexAt = new Int32Array(64);
  private parent = new Int32Array(64);
  private subtree = new Int32Array(64);
  private heaviestChild = new Int32Array(64);
  /** The bag of the vertex eliminated at step s is bags[bagStart[s] .. bagStart[s+1]): the vertex, then its neighbours then. */
  private bagStart = new Int32Array(65);
  private bags = new Int32Array(1024);

  /** Starts an empty graph on vertices 0 .. vertices-1. */
  reset(vertices: number): void {
    this.vertices = vertices;
    this.words = (vertices + 31) >> 5;
    const cells = vertices * this.words;
    if (this.rows.length < cells) this.rows = new Int32Array(2 * cells);
    this.rows.fill(0, 0, cells);
    if (this.degree.length < vertices) {
      const size = 2 * vertices;
      this.degree = new Int32Array(size);
      this.position = new Int32Array(size);
      this.vertexAt = new Int32Array(size);
      this.parent = new Int32Array(size);
      this.subtree = new Int32Array(size);
      this.heaviestChild = new Int32Array(size);
      this.bagStart = new Int32Array(size + 1);
    }
  }

  link(a: number, b: number): void {
    if (a === b) return;
    this.rows[a * this.words + (b >> 5)] |= 1 << (b & 31);
    this.rows[b * this.words + (a >> 5)] |= 1 << (a & 31);
  }

  /**
   * A balanced separator of the (connected) graph: its vertices are the returned view's items.
   * The graph is used up (call reset before the next one).
   */
  find(): Int32Array {
    const n = this.vertices;
    const words = this.words;
    const rows = this.rows;
    const degree = this.degree;
    for (let v = 0; v < n; v++) degree[v] = rowSize(rows, v * words, words);
    const position = this.position;
    const bagStart = this.bagStart;
    let bagTop = 0;
    for (let step = 0; step < n; step++) {
      // The live vertex of least degree (eliminated ones have degree -1).
      let x = -1;
      let least = 1 << 30;
      for (let v = 0; v < n; v++) {
        const d = degree[v]!;
        if (d >= 0 && d < least) {
          least = d;
          x = v;
        }
      }
      degree[x] = -1;
      position[x] = step;
      bagStart[step] = bagTop;
      if (bagTop + least + 1 > this.bags.length) {
        const bigger = new Int32Array(2 * (bagTop + least + 1));
        bigger.set(this.bags.subarray(0, bagTop));
        this.bags = bigger;
      }
      const bags = this.bags;
      bags[bagTop++] = x;
      const row = x * words;
      for (let w = 0; w < words; w++) {
        let bits = rows[row + w]!;
        while (bits !== 0) {
          const low = bits & -bits;
          bits ^= low;
          bags[bagTop++] = (w << 5) + 31 - Math.clz32(low);
        }
      }
      // Eliminating x makes its neighbours a clique, without x.
      for (let k = bagStart[step]! + 1; k < bagTop; k++) {
        const u = bags[k]!;
        const urow = u * words;
        for (let w = 0; w < words; w++) rows[urow + w] = rows[urow + w]! | rows[row + w]!;
        rows[urow + (u >> 5)] &= ~(1 << (u & 31));
        rows[urow + (x >> 5)] &= ~(1 << (x & 31));
        degree[u] = rowSize(rows, urow, words);
      }
    }
    bagStart[n] = bagTop;

    // The elimination tree: a vertex's parent is the first of its bag to be eliminated after it.
    const bags = this.bags;
    const vertexAt = this.vertexAt;
    const parent = this.parent;
    const subtree = this.subtree;
    const heaviestChild = this.heaviestChild;
    for (let v = 0; v < n; v++) vertexAt[position[v]!] = v;
    for (let step = 0; step < n; step++) {
      const x = vertexAt[step]!;
      let p = -1;
      for (let k = bagStart[step]! + 1; k < bagStart[step + 1]!; k++) if (p === -1 || position[bags[k]!]! < position[p]!) p = bags[k]!;
      parent[x] = p;
      subtree[x] = 1;
      heaviestChild[x] = -1;
    }
    // Children are eliminated before their parent, so one pass in elimination order sums the subtrees.
    for (let step = 0; step < n; step++) {
      const x = vertexAt[step]!;
      const p = parent[x]!;
      if (p < 0) continue;
      subtree[p] += subtree[x]!;
      if (heaviestChild[p] === -1 || subtree[x]! > subtree[heaviestChild[p]!]!) heaviestChild[p] = x;
    }
    // The centroid: down from the root while a child's subtree holds more than half the vertices.
    // Removing its bag leaves its children's subtrees (each at most half) and the vertices outside
    // its subtree (less than half), with no edge between any two of them.
    let centroid = vertexAt[n - 1]!;
    while (heaviestChild[centroid] !== -1 && 2 * subtree[heaviestChild[centroid]!]! > n) centroid = heaviestChild[centroid]!;
    return bags.subarray(bagStart[position[centroid]!]!, bagStart[position[centroid]! + 1]!);
  }
}

function rowSize(rows: Int32Array, from: number, words: number): number {
  let size = 0;
  for (let w = 0; w < words; w++) {
    let x = rows[from + w]!;
    x -= (x >>> 1) & 0x55555555;
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
    size += Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
  }
  return size;
}
