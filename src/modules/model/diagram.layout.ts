// The feature diagram's layout (diagram.ts): which features are shown, and where. The tree grows
// left to right (depth is a column), laid out as a tidy tree by d3-hierarchy (Reingold–Tilford
// with Walker's linear-time improvements); rows of one text height each keep a 2 000-children
// group readable. Geometry is in SVG user units; monospace text makes a label's width
// predictable on the server.
//
// Two stand-ins keep a drawing small enough to read at fit (issue 37, item 4): a "more" box for
// the children folded beyond a feature's limit, and a grid that wraps a long run of childless
// siblings into several columns, so that a flat model (linux: 1 004 children of the root) is a
// block rather than a line one box wide and 26 000 units high.
import { hierarchy, tree, type HierarchyPointNode } from 'd3-hierarchy';
import type { Cardinality, Feature, GroupKind } from '../../../packages/uvl/src/index.ts';

export const CHAR_W = 7.2;
export const FONT = 12;
export const BOX_H = 20;
export const ROW = 26;
export const GAP = 56;
export const PAD = 12;
export const ARC_R = 22;
export const DOT_R = 4;
/** Between a feature's box and its count of hidden features, and between a grid's columns. */
export const PILL_GAP = 4;
export const CELL_GAP = 20;
/** Left of a grid's cells: the bracket the parent's edge reaches, and each cell's mandatory/optional dot. */
export const GRID_INSET = 18;

export interface Shown {
  feature: Feature;
  /** The kind of the group that holds it in its parent; undefined for the shown root and stand-ins. */
  groupKind?: GroupKind;
  groupIndex: number;
  children: Shown[];
  /** Descendants not drawn because the depth limit stopped here (for a "more" box: below the folded children). */
  hidden: number;
  /** A "more" box: this many children of `feature` folded beyond its limit (drawn in place of them). */
  more?: number;
  /** A grid: `feature`'s childless children (`cells`), `rows` to a column. */
  cells?: Shown[];
  rows?: number;
  cols?: number;
  /** The label shortened to fit a narrow frame (the full name is in the box's title). */
  label?: string;
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
  /** Children shown under a feature that was not opened by name; the rest fold into a "more" box. */
  fold?: number;
}

/**
 * Children drawn under one feature; the rest count as hidden below it (found by the page's search,
 * drawn with `root=`). A root with 150 000 children was a 47 MB drawing that took 3-6 s, and
 * nobody reads 150 000 boxes in a column.
 */
export const MAX_SHOWN_CHILDREN = 1000;

/** How many of `n` children to show under a limit: folding a single child into "+1 more" would save nothing. */
const shownOf = (n: number, limit: number) => (n - limit < 2 ? n : limit);

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
    let all = 0;
    for (const g of f.groups) all += g.children.length;
    const asked = limits.opened.has(f.name) ? MAX_SHOWN_CHILDREN : Math.min(limits.fold ?? MAX_SHOWN_CHILDREN, MAX_SHOWN_CHILDREN);
    const limit = shownOf(all, asked);
    let more: Shown | undefined;
    f.groups.forEach((g, gi) => {
      for (const c of g.children) {
        if (node.children.length >= limit) {
          more ??= { feature: f, groupIndex: -1, children: [], hidden: 0, more: 0 };
          more.more! += 1;
          more.hidden += size.get(c)! - 1;
          continue;
        }
        const child: Shown = { feature: c, groupKind: g.kind, groupIndex: gi, children: [], hidden: 0 };
        node.children.push(child);
        queue.push([child, depth + 1]);
      }
    });
    if (more) node.children.push(more);
  }
  return { root, count };
}

/** A box's text: the name and its cardinality, or what a "more" box stands for. */
export function labelOf(n: Shown): string {
  if (n.more !== undefined) return `+${n.more} more`;
  if (n.label !== undefined) return n.label;
  let text = n.feature.name;
  if (n.feature.cardinality) text += ` ${cardinalityText(n.feature.cardinality)}`;
  return text;
}

/** The count beside a feature whose subtree is hidden: `+312` (its title says "features"). */
export const pillOf = (n: Shown) => (n.more === undefined && n.hidden > 0 ? `+${n.hidden}` : '');
export const textWidth = (text: string) => Math.ceil(text.length * CHAR_W) + 14;
export const nameWidth = (n: Shown) => textWidth(labelOf(n));
export const pillWidth = (n: Shown) => (pillOf(n) ? textWidth(pillOf(n)) - 4 : 0);
/** The name's box and its count together. */
export const boxWidth = (n: Shown) => nameWidth(n) + (pillOf(n) ? PILL_GAP + pillWidth(n) : 0);

/**
 * Labels longer than `maxChars` shortened in the middle: generated names share long prefixes
 * (automotive's `N_379925076__F_…`) and differ at the end, so both ends are kept.
 */
export function shortenLabels(root: Shown, maxChars: number): void {
  const stack = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    const text = labelOf(n);
    if (n.more === undefined && text.length > maxChars) {
      const head = Math.ceil((maxChars - 1) / 2);
      n.label = `${text.slice(0, head)}…${text.slice(text.length - (maxChars - 1 - head))}`;
    }
    for (const c of n.children) stack.push(c);
  }
}

const isLeafRun = (kind: GroupKind | undefined) => kind === undefined || kind === 'mandatory' || kind === 'optional';

/**
 * Wraps long runs of childless siblings into grids of at most `maxRows` rows. Only children of
 * mandatory and optional groups (and a "more" box): their notation is a dot per child, which a
 * cell keeps, where an alternative's arc needs its edges.
 */
export function wrapRuns(root: Shown, maxRows: number): void {
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const kids = node.children;
    if (kids.length > maxRows && kids.every((c) => c.children.length === 0 && isLeafRun(c.groupKind))) {
      const cols = Math.ceil(kids.length / maxRows);
      const rows = Math.ceil(kids.length / cols);
      node.children = [{ feature: node.feature, groupIndex: -2, children: [], hidden: 0, cells: kids, rows, cols }];
      continue;
    }
    for (const c of kids) stack.push(c);
  }
}

/** A grid's cell width: its widest box, with room for the cell's dot. */
export const cellWidth = (grid: Shown) => {
  let w = 0;
  for (const c of grid.cells!) w = Math.max(w, boxWidth(c));
  return w;
};
const gridWidth = (grid: Shown) => GRID_INSET + grid.cols! * (cellWidth(grid) + CELL_GAP) - CELL_GAP;
const widthOf = (n: Shown) => (n.cells ? gridWidth(n) : boxWidth(n));
/** Rows a node takes: a grid its rows, anything else one. */
const spanOf = (n: Shown) => n.rows ?? 1;

/** A box placed: its left edge and the middle of its row. */
export interface Placed {
  shown: Shown;
  x: number;
  y: number;
}

export interface Layout {
  nodes: LaidNode[];
  /** Left edge of a node's box (of a grid: of its bracket), and the middle of its row (of a grid: of its rows). */
  x: (n: LaidNode) => number;
  y: (n: LaidNode) => number;
  /** Every box drawn, grid cells included, in tree order. */
  boxes: Placed[];
  /** Where the edges to a node's children start. */
  anchor: (n: LaidNode) => { x: number; y: number };
  /** The tree's width, and the extent of its rows (the tidy tree's coordinates across). */
  width: number;
  rowsSpan: number;
}

/** Every box at its place, a grid's cells column by column. */
function placeBoxes(nodes: LaidNode[], x: (n: LaidNode) => number, y: (n: LaidNode) => number): Placed[] {
  const boxes: Placed[] = [];
  for (const n of nodes) {
    if (!n.data.cells) { boxes.push({ shown: n.data, x: x(n), y: y(n) }); continue; }
    const step = cellWidth(n.data) + CELL_GAP;
    const top = y(n) - ((n.data.rows! - 1) * ROW) / 2;
    n.data.cells.forEach((c, i) => {
      boxes.push({ shown: c, x: x(n) + GRID_INSET + Math.floor(i / n.data.rows!) * step, y: top + (i % n.data.rows!) * ROW });
    });
  }
  return boxes;
}

/** How far an outline's children sit right of their parent. */
const INDENT = 30;

/**
 * The outline of a narrow frame (a phone's): each feature on a row of its own, its children on
 * the rows below it, indented. A column per level costs a phone its second level (automotive's
 * names are 27 characters); indented, two levels take 60 units more than one. The edges still
 * fan out from the parent (from its box's lower left), so the group marks read as in the legend.
 */
export function layOutOutline(root: Shown, legendH: number): Layout {
  const nodes = hierarchy(root, (d) => d.children).descendants() as LaidNode[];
  const row = new Map<LaidNode, number>();
  let next = 0;
  const stack = [nodes[0]!];
  while (stack.length > 0) {
    const n = stack.pop()!;
    row.set(n, next);
    next += spanOf(n.data);
    for (let i = (n.children?.length ?? 0) - 1; i >= 0; i--) stack.push(n.children![i]!);
  }
  const x = (n: LaidNode) => PAD + n.depth * INDENT;
  const y = (n: LaidNode) => legendH + PAD + BOX_H / 2 + (row.get(n)! + (spanOf(n.data) - 1) / 2) * ROW;
  let width = 0;
  for (const n of nodes) width = Math.max(width, x(n) + widthOf(n.data));
  return {
    nodes, x, y, boxes: placeBoxes(nodes, x, y),
    anchor: (n) => ({ x: x(n) + 10, y: y(n) + BOX_H / 2 }),
    width: width + PAD,
    rowsSpan: (next - 1) * ROW,
  };
}

/** Positions below a legend `legendH` high; each depth is a column as wide as its widest label (or grid). */
export function layOut(root: Shown, legendH: number): Layout {
  const laid = tree<Shown>().nodeSize([ROW, 1])
    .separation((a, b) => ((spanOf(a.data) + spanOf(b.data)) / 2) * (a.parent === b.parent ? 1 : 1.25))(hierarchy(root, (d) => d.children));
  const nodes = laid.descendants();
  const colWidth: number[] = [];
  let minX = Infinity;
  let maxX = -Infinity;
  for (const n of nodes) {
    colWidth[n.depth] = Math.max(colWidth[n.depth] ?? 0, widthOf(n.data));
    const half = ((spanOf(n.data) - 1) * ROW) / 2;
    if (n.x - half < minX) minX = n.x - half;
    if (n.x + half > maxX) maxX = n.x + half;
  }
  const colX: number[] = [PAD];
  for (let d = 1; d < colWidth.length; d++) colX[d] = colX[d - 1]! + colWidth[d - 1]! + GAP;
  const x = (n: LaidNode) => colX[n.depth]!;
  const y = (n: LaidNode) => legendH + PAD + (n.x - minX) + BOX_H / 2;
  return {
    nodes, x, y, boxes: placeBoxes(nodes, x, y),
    anchor: (n) => ({ x: x(n) + nameWidth(n.data), y: y(n) }),
    width: colX[colWidth.length - 1]! + colWidth[colWidth.length - 1]! + PAD,
    rowsSpan: maxX - minX,
  };
}
