// The feature diagram's layout (diagram.ts): which features are shown, and where. The tree grows
// left to right (depth is a column), laid out as a tidy tree by d3-hierarchy (Reingold–Tilford
// with Walker's linear-time improvements); rows of one text height each keep a 2 000-children
// group readable. Geometry is in SVG user units; monospace text makes a label's width
// predictable on the server.
import { hierarchy, tree, type HierarchyPointNode } from 'd3-hierarchy';
import type { Cardinality, Feature, Group, GroupKind } from '../../../packages/uvl/src/index.ts';

export const CHAR_W = 7.2;
export const FONT = 12;
export const BOX_H = 20;
const ROW = 26;
const GAP = 56;
export const PAD = 12;
export const ARC_R = 22;
export const DOT_R = 4;

export interface Shown {
  feature: Feature;
  /** The kind of the group that holds it in its parent; undefined for the shown root. */
  groupKind?: GroupKind;
  groupIndex: number;
  children: Shown[];
  /** Descendants not drawn because the depth limit stopped here. */
  hidden: number;
}

export type LaidNode = HierarchyPointNode<Shown>;

export const cardinalityText = (c: Cardinality) => (c.min === c.max ? `[${c.min}]` : `[${c.min}..${c.max}]`);

/** Every feature with its parent and subtree size, iteratively (trees can be deeper than the stack likes). */
export function indexTree(root: Feature) {
  const parent = new Map<Feature, Feature>();
  const size = new Map<Feature, number>();
  const order: Feature[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const f = stack.pop()!;
    order.push(f);
    for (const g of f.groups) for (const c of g.children) { parent.set(c, f); stack.push(c); }
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const f = order[i]!;
    let n = 1;
    for (const g of f.groups) for (const c of g.children) n += size.get(c)!;
    size.set(f, n);
  }
  return { parent, size, order };
}

/** The first feature of that name in pre-order, as the analysis merges duplicates into one. */
export function featureNamed(root: Feature, name: string): Feature | undefined {
  const stack = [root];
  while (stack.length > 0) {
    const f = stack.pop()!;
    if (f.name === name) return f;
    for (let g = f.groups.length - 1; g >= 0; g--) for (let c = f.groups[g]!.children.length - 1; c >= 0; c--) stack.push(f.groups[g]!.children[c]!);
  }
  return undefined;
}

export interface ShownLimits {
  maxDepth: number;
  /** Features shown open below the depth limit, and features shown closed above it. */
  opened: ReadonlySet<string>;
  closed: ReadonlySet<string>;
}

/**
 * Children drawn under one feature; the rest count as hidden below it (found by the page's search,
 * drawn with `root=`). A root with 150 000 children was a 47 MB drawing that took 3-6 s, and
 * nobody reads 150 000 boxes in a column.
 */
export const MAX_SHOWN_CHILDREN = 1000;

/** The shown tree under `top` and its number of features, built breadth-first so depth is known without recursion. */
export function shownTree(top: Feature, size: Map<Feature, number>, limits: ShownLimits): { root: Shown; count: number } {
  const root: Shown = { feature: top, groupIndex: 0, children: [], hidden: 0 };
  let count = 0;
  const queue: [Shown, number][] = [[root, 0]];
  for (let head = 0; head < queue.length; head++) {
    const [node, depth] = queue[head]!;
    count++;
    const f = node.feature;
    if (limits.closed.has(f.name) || (depth >= limits.maxDepth && !limits.opened.has(f.name))) {
      node.hidden = size.get(f)! - 1;
      continue;
    }
    f.groups.forEach((g: Group, gi) => {
      for (const c of g.children) {
        if (node.children.length >= MAX_SHOWN_CHILDREN) {
          node.hidden += size.get(c)!;
          continue;
        }
        const child: Shown = { feature: c, groupKind: g.kind, groupIndex: gi, children: [], hidden: 0 };
        node.children.push(child);
        queue.push([child, depth + 1]);
      }
    });
  }
  return { root, count };
}

/** A box's text: the name, its cardinality, and how many features its closed subtree hides. */
export function labelOf(n: Shown): string {
  let text = n.feature.name;
  if (n.feature.cardinality) text += ` ${cardinalityText(n.feature.cardinality)}`;
  if (n.hidden > 0) text += ` ▸ ${n.hidden}`;
  return text;
}

export const boxWidth = (n: Shown) => Math.ceil(labelOf(n).length * CHAR_W) + 14;

export interface Layout {
  nodes: LaidNode[];
  /** Left edge of a node's box, and the middle of its row. */
  x: (n: LaidNode) => number;
  y: (n: LaidNode) => number;
  /** The tree's width, and the extent of its rows (the tidy tree's coordinates across). */
  width: number;
  rowsSpan: number;
}

/** Positions below a legend `legendH` high; each depth is a column as wide as its widest label. */
export function layOut(root: Shown, legendH: number): Layout {
  const laid = tree<Shown>().nodeSize([ROW, 1]).separation((a, b) => (a.parent === b.parent ? 1 : 1.25))(hierarchy(root, (d) => d.children));
  const nodes = laid.descendants();
  const colWidth: number[] = [];
  let minX = Infinity;
  let maxX = -Infinity;
  for (const n of nodes) {
    colWidth[n.depth] = Math.max(colWidth[n.depth] ?? 0, boxWidth(n.data));
    if (n.x < minX) minX = n.x;
    if (n.x > maxX) maxX = n.x;
  }
  const colX: number[] = [PAD];
  for (let d = 1; d < colWidth.length; d++) colX[d] = colX[d - 1]! + colWidth[d - 1]! + GAP;
  return {
    nodes,
    x: (n) => colX[n.depth]!,
    y: (n) => legendH + PAD + (n.x - minX) + BOX_H / 2,
    width: colX[colWidth.length - 1]! + colWidth[colWidth.length - 1]! + PAD,
    rowsSpan: maxX - minX,
  };
}
