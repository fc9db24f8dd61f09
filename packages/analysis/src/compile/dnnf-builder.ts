// The compiler's algebra for the counter's search (count/count-algebra.ts): where the counter
// multiplies a branch's component counts and adds a decision's two branches, this builds an AND
// node (the branch's literals, its free variables, its components' nodes) and an OR node. A
// component the cache knows is the node built when it was first met: the form is a DAG.
//
// Auxiliary variables (group counters, Tseitin variables) are left out of the nodes: each is a
// function of the features, so two models with the same features have the same auxiliary values.
// Hence a decision on an auxiliary variable still splits the features' models in two disjoint
// sets (a feature assignment in both branches would extend to two models that differ only in an
// auxiliary variable), and the count over the features is the count over all variables.

import type { CountAlgebra } from '../count/count-algebra.ts';
import { withRoom } from '../count/int32-arrays.ts';
import type { EliminationPlan, NarrowFormula } from '../count/tree-decomposition.ts';
import { AND_KIND, FALSE_KIND, OR_KIND, TABLE_KIND, type DecisionDnnf } from './decision-dnnf.ts';
import { makeLeaf, type NarrowLeaf } from './narrow-leaf.ts';

/** Node 0 is the false node: no model. */
const FALSE_NODE = 0;

export class DnnfBuilder implements CountAlgebra<number> {
  readonly zero = FALSE_NODE;
  /** Whether a reduced variable stands for features (1) or only for auxiliary variables (0). */
  private readonly keep: Uint8Array;
  // Nodes while building, in creation order. An AND node's children are appended while the
  // search goes on (an edge list per node), its literals and free variables are known at once.
  // Typed arrays that double when full: fm3.uvl makes about a million nodes and edges, and
  // arrays of numbers grown by push were a tenth of its compile in copies and collections.
  private nodeCount = 1;
  private kind = new Int32Array(1 << 10);
  private litStart = new Int32Array(1 << 10);
  private litEnd = new Int32Array(1 << 10);
  private freeStart = new Int32Array(1 << 10);
  private freeEnd = new Int32Array(1 << 10);
  private firstEdge = new Int32Array(1 << 10).fill(-1, 0, 1);
  private lastEdge = new Int32Array(1 << 10).fill(-1, 0, 1);
  private litCount = 0;
  private lits = new Int32Array(1 << 10);
  private freeCount = 0;
  private free = new Int32Array(1 << 10);
  private edgeCount = 0;
  private edgeChild = new Int32Array(1 << 10);
  private edgeNext = new Int32Array(1 << 10);

  /** The narrow components of TABLE nodes, and each such node's index among them. */
  private readonly leaves: NarrowLeaf[] = [];
  private readonly leafOfNode = new Map<number, number>();
  /** Set when narrow components become TABLE nodes (the counter then keeps them out of its search). */
  readonly fromNarrow?: (formula: NarrowFormula, vars: Int32Array, from: number, plan: EliminationPlan) => number;

  /** `tables`: narrow components become TABLE nodes instead of the search's nodes. */
  constructor(keep: Uint8Array, tables = false) {
    this.keep = keep;
    if (tables) this.fromNarrow = (formula, vars, from, plan) => this.table(formula, vars, from, plan);
  }

  private table(formula: NarrowFormula, vars: Int32Array, from: number, plan: EliminationPlan): number {
    const n = this.newNode(TABLE_KIND);
    this.leafOfNode.set(n, this.leaves.length);
    this.leaves.push(makeLeaf(formula, vars, from, plan));
    return n;
  }

  isZero(value: number): boolean {
    return value === FALSE_NODE;
  }

  branch(trail: Int32Array, from: number, to: number, free: Int32Array, freeCount: number): number {
    const n = this.newNode(AND_KIND);
    this.lits = withRoom(this.lits, this.litCount, this.litCount + to - from);
    this.litStart[n] = this.litCount;
    for (let i = from; i < to; i++) {
      const l = trail[i]!;
      const v = l >> 1;
      if (this.keep[v]) this.lits[this.litCount++] = l & 1 ? -v : v;
    }
    this.litEnd[n] = this.litCount;
    this.free = withRoom(this.free, this.freeCount, this.freeCount + freeCount);
    this.freeStart[n] = this.freeCount;
    for (let i = 0; i < freeCount; i++) if (this.keep[free[i]!]) this.free[this.freeCount++] = free[i]!;
    this.freeEnd[n] = this.freeCount;
    return n;
  }

  /** The product is always a node branch() made for the branch being searched: it is appended to. */
  times(product: number, factor: number): number {
    if (product === FALSE_NODE || factor === FALSE_NODE) return FALSE_NODE;
    this.addEdge(product, factor);
    return product;
  }

  plus(total: number, branch: number): number {
    if (total === FALSE_NODE) return branch;
    if (branch === FALSE_NODE) return total;
    const n = this.newNode(OR_KIND);
    this.litStart[n] = this.litEnd[n] = this.litCount;
    this.freeStart[n] = this.freeEnd[n] = this.freeCount;
    this.addEdge(n, total);
    this.addEdge(n, branch);
    return n;
  }

  private newNode(kind: number): number {
    const n = this.nodeCount++;
    if (n === this.kind.length) {
      const used = n;
      this.kind = withRoom(this.kind, used, n + 1);
      this.litStart = withRoom(this.litStart, used, n + 1);
      this.litEnd = withRoom(this.litEnd, used, n + 1);
      this.freeStart = withRoom(this.freeStart, used, n + 1);
      this.freeEnd = withRoom(this.freeEnd, used, n + 1);
      this.firstEdge = withRoom(this.firstEdge, used, n + 1);
      this.lastEdge = withRoom(this.lastEdge, used, n + 1);
    }
    this.kind[n] = kind;
    this.litStart[n] = 0;
    this.litEnd[n] = 0;
    this.freeStart[n] = 0;
    this.freeEnd[n] = 0;
    this.firstEdge[n] = -1;
    this.lastEdge[n] = -1;
    return n;
  }

  private addEdge(parent: number, child: number): void {
    const e = this.edgeCount++;
    this.edgeChild = withRoom(this.edgeChild, e, e + 1);
    this.edgeNext = withRoom(this.edgeNext, e, e + 1);
    this.edgeChild[e] = child;
    this.edgeNext[e] = -1;
    if (this.lastEdge[parent]! < 0) this.firstEdge[parent] = e;
    else this.edgeNext[this.lastEdge[parent]!] = e;
    this.lastEdge[parent] = e;
  }

  /** An AND node with nothing but one child is that child. */
  private resolve(n: number): number {
    while (
      this.kind[n] === AND_KIND &&
      this.litStart[n] === this.litEnd[n] &&
      this.freeStart[n] === this.freeEnd[n] &&
      this.firstEdge[n]! >= 0 &&
      this.firstEdge[n] === this.lastEdge[n]
    ) {
      n = this.edgeChild[this.firstEdge[n]!]!;
    }
    return n;
  }

  /**
   * The nodes reachable from `root` in post-order, as typed arrays; nodes abandoned by the
   * search (a branch that failed after some of its components were built) are left behind.
   */
  finish(root: number, vars: number): DecisionDnnf {
    const top = this.resolve(root);
    const newId = new Int32Array(this.nodeCount).fill(-1);
    const order: number[] = [];
    // Iterative depth-first search: a node is placed after all its children.
    const stack: number[] = [top];
    const edgeAt: number[] = [this.firstEdge[top]!];
    newId[top] = -2;
    while (stack.length > 0) {
      const n = stack[stack.length - 1]!;
      const e = edgeAt[edgeAt.length - 1]!;
      if (e >= 0) {
        edgeAt[edgeAt.length - 1] = this.edgeNext[e]!;
        const child = this.resolve(this.edgeChild[e]!);
        if (newId[child] === -1) {
          newId[child] = -2;
          stack.push(child);
          edgeAt.push(this.firstEdge[child]!);
        }
        continue;
      }
      stack.pop();
      edgeAt.pop();
      newId[n] = order.length;
      order.push(n);
    }
    return this.pack(order, newId, vars);
  }

  private pack(order: number[], newId: Int32Array, vars: number): DecisionDnnf {
    const nodes = order.length;
    const kind = new Uint8Array(nodes);
    const leafOf = new Int32Array(nodes).fill(-1);
    const leaves: NarrowLeaf[] = [];
    const childStart = new Int32Array(nodes + 1);
    const litStart = new Int32Array(nodes + 1);
    const freeStart = new Int32Array(nodes + 1);
    // The kept nodes hold at most every edge, literal and free variable made.
    const children = new Int32Array(this.edgeCount);
    const lits = new Int32Array(this.litCount);
    const free = new Int32Array(this.freeCount);
    let childTop = 0;
    let litTop = 0;
    let freeTop = 0;
    for (let i = 0; i < nodes; i++) {
      const n = order[i]!;
      kind[i] = this.kind[n]!;
      if (kind[i] === TABLE_KIND) {
        leafOf[i] = leaves.length;
        leaves.push(this.leaves[this.leafOfNode.get(n)!]!);
      }
      childStart[i] = childTop;
      litStart[i] = litTop;
      freeStart[i] = freeTop;
      for (let e = this.firstEdge[n]!; e >= 0; e = this.edgeNext[e]!) children[childTop++] = newId[this.resolve(this.edgeChild[e]!)]!;
      for (let k = this.litStart[n]!; k < this.litEnd[n]!; k++) lits[litTop++] = this.lits[k]!;
      for (let k = this.freeStart[n]!; k < this.freeEnd[n]!; k++) free[freeTop++] = this.free[k]!;
    }
    childStart[nodes] = childTop;
    litStart[nodes] = litTop;
    freeStart[nodes] = freeTop;
    return {
      vars,
      nodes,
      kind,
      childStart,
      children: children.slice(0, childTop),
      litStart,
      lits: lits.slice(0, litTop),
      freeStart,
      free: free.slice(0, freeTop),
      leafOf,
      leaves,
    };
  }
}
