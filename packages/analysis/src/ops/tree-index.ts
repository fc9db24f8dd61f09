// The feature tree of an encoded model, indexed for questions the operations ask of it: the
// depth and the relation of each node, the nodes of each variable (two tree nodes with the same
// name are one variable), and whether two features lie in different branches of a group that
// selects at most one child (then they are never selected together).

import type { EncodedModel } from '../encode.ts';
import type { Relation } from '../../../uvl/src/index.ts';

export class TreeIndex {
  /** Edges from the root, per flat node. */
  readonly depth: Int32Array;
  /** The relation in which each flat node is a child (undefined for the root). */
  readonly relationOf: (Relation | undefined)[];
  /** The flat nodes of each variable (index: variable). */
  readonly nodesOf: number[][];
  private round = 1;
  private readonly preferred: Int32Array;
  private readonly siblingsOff: Int32Array;

  constructor(private readonly enc: EncodedModel) {
    const { features, relations } = enc.flat;
    this.relationOf = new Array<Relation | undefined>(features.length);
    for (const r of relations) for (const c of r.children) this.relationOf[c] = r;
    this.depth = new Int32Array(features.length);
    // Flat nodes list a parent before its children (pre-order over relations).
    for (let i = 1; i < features.length; i++) this.depth[i] = this.depth[features[i]!.parent]! + 1;
    this.preferred = new Int32Array(features.length);
    this.siblingsOff = new Int32Array(features.length);
    this.nodesOf = Array.from({ length: enc.featureVars + 1 }, () => [] as number[]);
    for (let i = 0; i < features.length; i++) this.nodesOf[enc.nodeVar[i]!]!.push(i);
  }

  parentOf(node: number): number {
    return this.enc.flat.features[node]!.parent;
  }

  /** The relation is a group that selects at most one of its children. */
  static isExclusive(r: Relation): boolean {
    return r.max <= 1 && r.children.length > 1;
  }

  /**
   * Two nodes under different children of an at-most-one group: the features can never be
   * selected together (each implies its ancestors). False when one is an ancestor of the other.
   */
  nodesExclude(a: number, b: number): boolean {
    const { features } = this.enc.flat;
    while (this.depth[a]! > this.depth[b]!) a = features[a]!.parent;
    while (this.depth[b]! > this.depth[a]!) b = features[b]!.parent;
    if (a === b) return false;
    while (features[a]!.parent !== features[b]!.parent) {
      a = features[a]!.parent;
      b = features[b]!.parent;
    }
    const r = this.relationOf[a]!;
    return r === this.relationOf[b] && TreeIndex.isExclusive(r) && this.enc.nodeVar[a] !== this.enc.nodeVar[b];
  }

  /**
   * Phases that lead the solver to select feature v: v and its ancestors positive, and their
   * siblings in groups of at most one negative (they would take the place). Within one round
   * (newRound), a node already preferred ends the walk (its ancestors were), and a group's
   * siblings are set negative once: preferring thousands of features stays linear.
   */
  preferSelected(v: number, solver: { setPhase(v: number, positive: boolean): void }): void {
    const { nodeVar } = this.enc;
    const round = this.round;
    for (let node = this.nodesOf[v]![0]!; node > 0 && this.preferred[node] !== round; node = this.parentOf(node)) {
      this.preferred[node] = round;
      solver.setPhase(nodeVar[node]!, true);
      const r = this.relationOf[node]!;
      const first = r.children[0]!;
      if (TreeIndex.isExclusive(r) && this.siblingsOff[first] !== round) {
        this.siblingsOff[first] = round;
        for (const c of r.children) if (c !== node) solver.setPhase(nodeVar[c]!, false);
      }
    }
    solver.setPhase(nodeVar[0]!, true);
  }

  /** Starts a new round of preferences (see preferSelected). */
  newRound(): void {
    this.round++;
  }

  /** Some node of variable u and some node of variable v exclude each other. */
  varsExclude(u: number, v: number): boolean {
    for (const a of this.nodesOf[u]!) for (const b of this.nodesOf[v]!) if (this.nodesExclude(a, b)) return true;
    return false;
  }
}
