// How an explanation's constraints reach a feature they never name (issue 25, item 9): the
// path through the tree. A dead feature lies below a feature the constraints exclude, or beside
// one they require in a group of at most one, or above a mandatory child they exclude; a
// false-optional feature lies above a feature they require, or is the last child its group can
// choose. Each step is a sentence; the explanation's lines stay as they are.

import type { EncodedConstraint, EncodedModel } from '../encode.ts';
import { TreeIndex } from './tree-index.ts';

export interface PathContext {
  enc: EncodedModel;
  tree: TreeIndex;
  /** Per variable: 1 core, -1 dead, 0 variant. */
  backbone: Int8Array;
}

/** The path for a dead feature (variable v), or undefined when the constraints name it or no path is found. */
export function deadPath(ctx: PathContext, v: number, why: EncodedConstraint[]): string[] | undefined {
  const named = namedIn(why, v);
  if (!named) return undefined;
  const { enc, tree, backbone } = ctx;
  const name = (node: number) => enc.flat.features[node]!.name;
  const them = why.length === 1 ? 'the constraint' : 'the constraints';
  const start = tree.nodesOf[v]![0]!;
  // Up: an ancestor the constraints exclude, or one that is an alternative to a feature they require.
  const steps: string[] = [];
  for (let node = start; node > 0; node = tree.parentOf(node)) {
    const parent = tree.parentOf(node);
    const parentVar = enc.nodeVar[parent]!;
    if (named.has(parentVar) && backbone[parentVar]! < 0) return [...steps, `${name(node)} is a child of ${name(parent)}, which ${them} exclude${why.length === 1 ? 's' : ''}`];
    const r = tree.relationOf[node]!;
    if (TreeIndex.isExclusive(r)) {
      const rival = r.children.find((c) => c !== node && named.has(enc.nodeVar[c]!) && backbone[enc.nodeVar[c]!]! > 0);
      if (rival !== undefined) return [...steps, `${name(node)} is an alternative to ${name(rival)}, which ${them} require${why.length === 1 ? 's' : ''}`];
    }
    steps.push(`${name(node)} is a child of ${name(parent)}`);
  }
  // Down: a mandatory child (or a chain of them) the constraints exclude.
  const down = mandatoryChain(ctx, start, (c) => named.has(enc.nodeVar[c]!) && backbone[enc.nodeVar[c]!]! < 0);
  if (down) {
    const last = down.pop()!;
    return [...down, `${last}, which ${them} exclude${why.length === 1 ? 's' : ''}`];
  }
  return undefined;
}

/** The path for a false-optional feature (flat node i), or undefined when the constraints name it or no path is found. */
export function falseOptionalPath(ctx: PathContext, i: number, why: EncodedConstraint[]): string[] | undefined {
  const { enc, tree, backbone } = ctx;
  const named = namedIn(why, enc.nodeVar[i]!);
  if (!named) return undefined;
  const name = (node: number) => enc.flat.features[node]!.name;
  const them = why.length === 1 ? 'the constraint' : 'the constraints';
  // Down: the nearest descendant the constraints name, selected only with its ancestors.
  const parentOf = new Map<number, number>([[i, -1]]);
  const queue = [i];
  for (let q = 0; q < queue.length; q++) {
    const node = queue[q]!;
    if (node !== i && named.has(enc.nodeVar[node]!)) {
      const steps: string[] = [];
      for (let n = node; parentOf.get(n)! !== -1; n = parentOf.get(n)!) steps.unshift(`${name(n)} is a child of ${name(parentOf.get(n)!)}`);
      // From the feature down, the last step saying why that matters.
      steps[steps.length - 1] += `, so ${name(i)} is selected whenever ${name(node)} is, and ${them} select${why.length === 1 ? 's' : ''} ${name(node)} whenever ${name(tree.parentOf(i))} is selected`;
      return steps;
    }
    for (const r of enc.flat.features[node]!.relations) {
      for (const c of r.children) {
        if (parentOf.has(c)) continue;
        parentOf.set(c, node);
        queue.push(c);
      }
    }
  }
  // Beside: the other children of its group are excluded, so it is the one chosen.
  const r = tree.relationOf[i]!;
  if (r.min >= 1 && r.children.length > 1) {
    const others = r.children.filter((c) => c !== i);
    if (others.every((c) => backbone[enc.nodeVar[c]!]! < 0) && others.some((c) => named.has(enc.nodeVar[c]!))) {
      const list = others.map(name).join(', ');
      return [`${name(i)} is the only child of the group of ${name(r.parent)} that can be selected: ${them} exclude${why.length === 1 ? 's' : ''} ${list}`];
    }
  }
  return undefined;
}

/** The variables the constraints name, or undefined when they name the feature itself (no path needed) or there are none. */
function namedIn(why: EncodedConstraint[], v: number): Set<number> | undefined {
  if (why.length === 0) return undefined;
  const named = new Set(why.flatMap((c) => c.features));
  return named.has(v) ? undefined : named;
}

/** Sentences down a chain of mandatory children to the first node that `stop` accepts, or undefined. */
function mandatoryChain(ctx: PathContext, start: number, stop: (node: number) => boolean): string[] | undefined {
  const { enc } = ctx;
  const name = (node: number) => enc.flat.features[node]!.name;
  const parentOf = new Map<number, number>([[start, -1]]);
  const queue = [start];
  for (let q = 0; q < queue.length; q++) {
    const node = queue[q]!;
    if (node !== start && stop(node)) {
      const steps: string[] = [];
      for (let n = node; parentOf.get(n)! !== -1; n = parentOf.get(n)!) steps.unshift(`${name(parentOf.get(n)!)} has the mandatory child ${name(n)}`);
      return steps;
    }
    for (const r of enc.flat.features[node]!.relations) {
      if (r.min < r.children.length) continue;
      for (const c of r.children) {
        if (parentOf.has(c)) continue;
        parentOf.set(c, node);
        queue.push(c);
      }
    }
  }
  return undefined;
}
