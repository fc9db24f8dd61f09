// A balanced separator of a small graph (the residual primal graph of one of the counter's
// components): a min-degree elimination gives a tree decomposition, and the bag of its
// centroid splits the graph into parts of at most half the vertices each. The counter's
// residual components are far narrower than the whole formula (fm3.uvl: width about 90 for the
// formula, 5 to 8 for components of 50 to 200 variables), which is why a separator is looked
// for again on what is left rather than read from one order computed up front.
//
// The same elimination gives the tree decompositions that narrow components are counted over
// (tree-decomposition.ts).
//
// The graph is kept as bit rows (a component has a few hundred vertices at most when this is
// used), so that eliminating a vertex is a few word-wide ORs per neighbour.

import { withRoom } from './int32-arrays.ts';

export class BalancedSeparator {
  private vertices = 0;
  private words = 0;
  private rows = new Int32Array(1024);
  private degree = new Int32Array(64);
  private first = new Int32Array(65);
  private next = new Int32Array(64);
  private prev = new Int32Array(64);
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
      this.first = new Int32Array(size + 1);
      this.next = new Int32Array(size);
      this.prev = new Int32Array(size);
    }
  }

  link(a: number, b: number): void {
    if (a === b) return;
    this.rows[a * this.words + (b >> 5)] |= 1 << (b & 31);
    this.rows[b * this.words + (a >> 5)] |= 1 << (a & 31);
  }

  /** Links every two vertices that share a clause (literal 2v or 2v + 1 is vertex v). */
  linkClauses(clauseStart: Int32Array, lits: Int32Array, clauses: number): void {
    for (let c = 0; c < clauses; c++) {
      for (let i = clauseStart[c]!, end = clauseStart[c + 1]!; i < end; i++) {
        for (let j = i + 1; j < end; j++) this.link(lits[i]! >> 1, lits[j]! >> 1);
      }
    }
  }

  /**
   * A balanced separator of the (connected) graph: its vertices are the returned view's items.
   * The graph is used up (call reset before the next one).
   */
  find(): Int32Array {
    this.eliminate();
    return this.centroidBag();
  }

  /**
   * Min-degree elimination of the whole graph (used up), which gives the bags of a tree
   * decomposition (bagItems, bagStarts). False, with the elimination left unfinished, as soon
   * as a vertex of least degree has more than maxWidth neighbours.
   */
  eliminate(maxWidth = Infinity): boolean {
    const n = this.vertices;
    const words = this.words;
    const rows = this.rows;
    const degree = this.degree;
    // Vertices in lists by degree: first[d], then next[v] (prev[v] to unlink).
    const first = this.first;
    const next = this.next;
    const prev = this.prev;
    first.fill(-1, 0, n + 1);
    const insert = (v: number, d: number): void => {
      degree[v] = d;
      prev[v] = -1;
      next[v] = first[d]!;
      if (first[d] !== -1) prev[first[d]!] = v;
      first[d] = v;
    };
    const unlink = (v: number): void => {
      if (prev[v] === -1) first[degree[v]!] = next[v]!;
      else next[prev[v]!] = next[v]!;
      if (next[v] !== -1) prev[next[v]!] = prev[v]!;
    };
    for (let v = n - 1; v >= 0; v--) insert(v, rowSize(rows, v * words, words));
    const position = this.position;
    const bagStart = this.bagStart;
    let bagTop = 0;
    let least = 0;
    for (let step = 0; step < n; step++) {
      // A vertex of least degree. Degrees fall by one at most per step (the eliminated
      // neighbour), so the search starts one below the last least degree.
      least = Math.max(0, least - 1);
      while (first[least] === -1) least++;
      if (least > maxWidth) return false;
      const x = first[least]!;
      unlink(x);
      degree[x] = -1;
      position[x] = step;
      bagStart[step] = bagTop;
      this.bags = withRoom(this.bags, bagTop, bagTop + least + 1);
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
      // Eliminating x makes its neighbours a clique, without x: each neighbour gains the
      // neighbours of x it did not have (one of them itself) and loses x.
      for (let k = bagStart[step]! + 1; k < bagTop; k++) {
        const u = bags[k]!;
        const urow = u * words;
        let gained = 0;
        for (let w = 0; w < words; w++) {
          const added = rows[row + w]! & ~rows[urow + w]!;
          if (added === 0) continue;
          gained += bitCount(added);
          rows[urow + w] = rows[urow + w]! | added;
        }
        rows[urow + (u >> 5)] &= ~(1 << (u & 31));
        rows[urow + (x >> 5)] &= ~(1 << (x & 31));
        const d = degree[u]! + gained - 2;
        unlink(u);
        insert(u, d);
      }
    }
    bagStart[n] = bagTop;
    return true;
  }

  /**
   * The bags, valid until the next reset: at step s the vertex eliminated, then its neighbours at
   * that time, are bagItems()[bagStarts()[s] .. bagStarts()[s + 1]).
   */
  bagItems(): Int32Array {
    return this.bags;
  }

  bagStarts(): Int32Array {
    return this.bagStart;
  }

  /** Step at which each vertex was eliminated. */
  stepOf(vertex: number): number {
    return this.position[vertex]!;
  }

  private centroidBag(): Int32Array {
    const n = this.vertices;
    const position = this.position;
    const bagStart = this.bagStart;

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
  for (let w = 0; w < words; w++) size += bitCount(rows[from + w]!);
  return size;
}

function bitCount(word: number): number {
  let x = word;
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}
