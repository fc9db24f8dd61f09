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
import { AND_KIND, FALSE_KIND, OR_KIND, type DecisionDnnf } from './decision-dnnf.ts';

/** Node 0 is the false node: no model. */
const FALSE_NODE = 0;

export class DnnfBuilder implements CountAlgebra<number> {
  readonly zero = FALSE_NODE;
  /** Whether a reduced variable stands for features (1) or only for auxiliary variables (0). */
  private readonly keep: Uint8Array;
  // Nodes while building, in creation order. An AND node's children are appended while the
  // search goes on (an edge list per node), its literals and free variables are known at once.
  private readonly kind: number[] = [FALSE_KIND];
  private readonly litStart: number[] = [0];
  private readonly litEnd: number[] = [0];
  private readonly freeStart: number[] = [0];
  private readonly freeEnd: number[] = [0];
  private readonly firstEdge: number[] = [-1];
  private readonly lastEdge: number[] = [-1];
  private readonly lits: number[] = [];
  private readonly free: number[] = [];
  private readonly edgeChild: number[] = [];
  private readonly edgeNext: number[] = [];

  constructor(keep: Uint8Array) {
    this.keep = keep;
  }

  isZero(value: number): boolean {
    return value === FALSE_NODE;
  }

  branch(trail: Int32Array, from: number, to: number, free: Int32Array, freeCount: number): number {
    const n = this.newNode(AND_KIND);
    this.litStart[n] = this.lits.length;
    for (let i = from; i < to; i++) {
      const l = trail[i]!;
      const v = l >> 1;
      if (this.keep[v]) this.lits.push(l & 1 ? -v : v);
    }
    this.litEnd[n] = this.lits.length;
    this.freeStart[n] = this.free.length;
    for (let i = 0; i < freeCount; i++) if (this.keep[free[i]!]) this.free.push(free[i]!);
    this.freeEnd[n] = this.free.length;
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
    this.litStart[n] = this.litEnd[n] = this.lits.length;
    this.freeStart[n] = this.freeEnd[n] = this.free.length;
    this.addEdge(n, total);
    this.addEdge(n, branch);
    return n;
  }

  private newNode(kind: number): number {
    const n = this.kind.length;
    this.kind.push(kind);
    this.litStart.push(0);
    this.litEnd.push(0);
    this.freeStart.push(0);
    this.freeEnd.push(0);
    this.firstEdge.push(-1);
    this.lastEdge.push(-1);
    return n;
  }

  private addEdge(parent: number, child: number): void {
    const e = this.edgeChild.length;
    this.edgeChild.push(child);
    this.edgeNext.push(-1);
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
    const newId = new Int32Array(this.kind.length).fill(-1);
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
    const childStart = new Int32Array(nodes + 1);
    const litStart = new Int32Array(nodes + 1);
    const freeStart = new Int32Array(nodes + 1);
    const children: number[] = [];
    const lits: number[] = [];
    const free: number[] = [];
    for (let i = 0; i < nodes; i++) {
      const n = order[i]!;
      kind[i] = this.kind[n]!;
      childStart[i] = children.length;
      litStart[i] = lits.length;
      freeStart[i] = free.length;
      for (let e = this.firstEdge[n]!; e >= 0; e = this.edgeNext[e]!) children.push(newId[this.resolve(this.edgeChild[e]!)]!);
      for (let k = this.litStart[n]!; k < this.litEnd[n]!; k++) lits.push(this.lits[k]!);
      for (let k = this.freeStart[n]!; k < this.freeEnd[n]!; k++) free.push(this.free[k]!);
    }
    childStart[nodes] = children.length;
    litStart[nodes] = lits.length;
    freeStart[nodes] = free.length;
    return {
      vars,
      nodes,
      kind,
      childStart,
      children: Int32Array.from(children),
      litStart,
      lits: Int32Array.from(lits),
      freeStart,
      free: Int32Array.from(free),
    };
  }
}
