// The feature diagram (extensions section 1, "In the hub"): an SVG drawn on the server from the
// parsed model, so that a visitor needs no script and no layout library to see it. Pure: a model
// and options in, a string out; the route decides where the model and the anomalies come from.
//
// Layout: the tree grows left to right (depth is a column), laid out as a tidy tree by
// d3-hierarchy (Reingold–Tilford with Walker's linear-time improvements). Left to right rather
// than top-down because feature names are long and trees are wide: rows of one text height each
// keep a 2 000-children group readable, where a top-down diagram would be kilometres wide.
// Notation after FODA and FeatureIDE: a filled circle at the child end for mandatory, an empty one
// for optional, an empty arc across the edges of an alternative group, a filled arc for an or
// group, an empty arc and `[a..b]` for a group cardinality.
import { hierarchy, tree, type HierarchyPointNode } from 'd3-hierarchy';
import type { Cardinality, Feature, Group, GroupKind, UvlModel } from '../../../packages/uvl/src/index.ts';

/** Models with more features than this open collapsed (extensions section 1). */
export const COLLAPSE_THRESHOLD = 300;
export const COLLAPSED_DEPTH = 3;
export const MAX_QUERY_DEPTH = 1000;

export interface DiagramAnomalies {
  core: readonly string[];
  dead: readonly string[];
  falseOptional: readonly string[];
}

export interface DiagramOptions {
  /** Show the subtree of this feature (its name as the analysis names it). */
  root?: string;
  /** Levels shown below the shown root; undefined: all, or COLLAPSED_DEPTH for a model over the threshold. */
  depth?: number;
  /** Colours anomalies when present; absent while the analysis is pending. */
  anomalies?: DiagramAnomalies;
  /** Features whose children are shown although the depth limit would hide them (expanded in place). */
  open?: readonly string[];
  /** Features whose children are hidden although the depth limit would show them (collapsed in place). */
  close?: readonly string[];
  /** Appended to the links that open a subtree (the model page adds `#diagram`). */
  linkSuffix?: string;
  /** The accessible name of the drawing. */
  title?: string;
}

/** A query value the diagram cannot honour: the route answers 400 with this message. */
export class DiagramQueryError extends Error {}

/**
 * `depth` and `root` from a parsed query string. Repeated or malformed values are refused rather
 * than guessed, so that a shared link always shows what its author saw.
 */
export interface DiagramQuery {
  root?: string;
  depth?: number;
  open?: string[];
  close?: string[];
}

/** At most this many names in `open` or `close` (the page's script sends what the visitor toggled). */
export const MAX_TOGGLED = 500;

/** `open` and `close` may repeat: each value is one feature name. */
function nameList(value: unknown, key: string): string[] {
  const list = Array.isArray(value) ? value : [value];
  if (list.length > MAX_TOGGLED || list.some((v) => typeof v !== 'string' || v === '' || v.length > 1000)) {
    throw new DiagramQueryError(`${key} must be feature names (at most ${MAX_TOGGLED}).`);
  }
  return list as string[];
}

export function parseDiagramQuery(query: unknown): DiagramQuery {
  const q = (query ?? {}) as Record<string, unknown>;
  const out: DiagramQuery = {};
  if (q.open !== undefined) out.open = nameList(q.open, 'open');
  if (q.close !== undefined) out.close = nameList(q.close, 'close');
  if (q.depth !== undefined) {
    if (typeof q.depth !== 'string' || !/^\d{1,4}$/.test(q.depth) || Number(q.depth) > MAX_QUERY_DEPTH) {
      throw new DiagramQueryError(`depth must be a whole number from 0 to ${MAX_QUERY_DEPTH}, given once.`);
    }
    out.depth = Number(q.depth);
  }
  if (q.root !== undefined) {
    if (typeof q.root !== 'string' || q.root === '' || q.root.length > 1000) {
      throw new DiagramQueryError('root must be the name of one feature of the model, given once.');
    }
    out.root = q.root;
  }
  return out;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Names come from uploaded files: every one is escaped, in text and in attributes alike. */
export function xmlEscape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function isAbstract(f: Feature): boolean {
  return f.attributes.some((a) => a.kind === 'value' && a.name === 'abstract' && (a.value === undefined || (a.value.kind === 'boolean' && a.value.value)));
}

const cardinalityText = (c: Cardinality) => (c.min === c.max ? `[${c.min}]` : `[${c.min}..${c.max}]`);

interface Shown {
  feature: Feature;
  /** The kind of the group that holds it in its parent; undefined for the shown root. */
  groupKind?: GroupKind;
  groupIndex: number;
  children: Shown[];
  /** Descendants not drawn because the depth limit stopped here. */
  hidden: number;
}

// Geometry, in SVG user units. Monospace text makes a label's width predictable on the server.
const CHAR_W = 7.2;
const FONT = 12;
const BOX_H = 20;
const ROW = 26;
const GAP = 56;
const PAD = 12;
const ARC_R = 22;
const DOT_R = 4;
/** Baseline of the "parent / whole model" links, below the legend's note (at 70). */
const UP_Y = 88;

const STYLES = {
  plain: { fill: '#ffffff', stroke: '#495057' },
  core: { fill: '#d1e7dd', stroke: '#146c43' },
  dead: { fill: '#f8d7da', stroke: '#b02a37' },
  'false-optional': { fill: '#fff3cd', stroke: '#997404' },
} as const;

/** Every feature with its parent and subtree size, iteratively (trees can be deeper than the stack likes). */
function index(root: Feature) {
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

export function renderDiagram(model: UvlModel, options: DiagramOptions = {}): string {
  if (!model.root) {
    return svgDocument(360, 60, `<text x="${PAD}" y="34" font-family="sans-serif" font-size="14" fill="#495057">This model has no features to draw.</text>`, options.title);
  }
  const { parent, size } = index(model.root);
  const total = size.get(model.root)!;
  let top = model.root;
  if (options.root !== undefined) {
    const match = featureNamed(model.root, options.root);
    if (!match) throw new DiagramQueryError(`root: the model has no feature named "${options.root}".`);
    top = match;
  }
  const maxDepth = options.depth ?? (total > COLLAPSE_THRESHOLD ? COLLAPSED_DEPTH : Infinity);
  const opened = new Set(options.open ?? []);
  const closed = new Set(options.close ?? []);

  // The shown tree, built breadth-first so depth is known without recursion.
  const shownRoot: Shown = { feature: top, groupIndex: 0, children: [], hidden: 0 };
  let shownCount = 0;
  const queue: [Shown, number][] = [[shownRoot, 0]];
  for (let head = 0; head < queue.length; head++) {
    const [node, depth] = queue[head]!;
    shownCount++;
    const f = node.feature;
    if (closed.has(f.name) || (depth >= maxDepth && !opened.has(f.name))) {
      node.hidden = size.get(f)! - 1;
      continue;
    }
    f.groups.forEach((g: Group, gi) => {
      for (const c of g.children) {
        const child: Shown = { feature: c, groupKind: g.kind, groupIndex: gi, children: [], hidden: 0 };
        node.children.push(child);
        queue.push([child, depth + 1]);
      }
    });
  }

  const core = new Set(options.anomalies?.core ?? []);
  const dead = new Set(options.anomalies?.dead ?? []);
  const falseOptional = new Set(options.anomalies?.falseOptional ?? []);
  const suffix = options.linkSuffix ?? '';
  const depthQuery = options.depth !== undefined ? `&depth=${options.depth}` : '';

  const label = (n: Shown) => {
    let text = n.feature.name;
    if (n.feature.cardinality) text += ` ${cardinalityText(n.feature.cardinality)}`;
    if (n.hidden > 0) text += ` ▸ ${n.hidden}`;
    return text;
  };
  const width = (n: Shown) => Math.ceil(label(n).length * CHAR_W) + 14;

  const laid = tree<Shown>().nodeSize([ROW, 1]).separation((a, b) => (a.parent === b.parent ? 1 : 1.25))(hierarchy(shownRoot, (d) => d.children));
  const nodes = laid.descendants();

  // Column positions: each depth is as wide as its widest label.
  const colWidth: number[] = [];
  let minX = Infinity;
  let maxX = -Infinity;
  for (const n of nodes) {
    colWidth[n.depth] = Math.max(colWidth[n.depth] ?? 0, width(n.data));
    if (n.x < minX) minX = n.x;
    if (n.x > maxX) maxX = n.x;
  }
  // The "parent / whole model" links get a row of their own below the legend's note.
  const parentOfTop = parent.get(top);
  const legendH = parentOfTop ? 96 : 78;
  const colX: number[] = [PAD];
  for (let d = 1; d < colWidth.length; d++) colX[d] = colX[d - 1]! + colWidth[d - 1]! + GAP;
  const treeW = colX[colWidth.length - 1]! + colWidth[colWidth.length - 1]! + PAD;
  const posX = (n: HierarchyPointNode<Shown>) => colX[n.depth]!;
  const posY = (n: HierarchyPointNode<Shown>) => legendH + PAD + (n.x - minX) + BOX_H / 2;

  const edges: string[] = [];
  const decorations: string[] = [];
  const boxes: string[] = [];
  for (const n of nodes) {
    const x = posX(n);
    const y = posY(n);
    const w = width(n.data);
    const f = n.data.feature;
    // One element per shown feature: the anomaly classes are exclusive, abstract combines.
    const classes = ['feature'];
    let style: keyof typeof STYLES = 'plain';
    if (dead.has(f.name)) style = 'dead';
    else if (falseOptional.has(f.name)) style = 'false-optional';
    else if (core.has(f.name)) style = 'core';
    if (style !== 'plain') classes.push(style);
    const abstract = isAbstract(f);
    if (abstract) classes.push('abstract');
    if (n.data.hidden > 0) classes.push('collapsed');
    // A shown feature with shown children: the page's script collapses it in place.
    const expanded = n.data.children.length > 0;
    const { fill, stroke } = STYLES[style];
    const kinds = classes.slice(1).filter((c) => c !== 'collapsed');
    const tip = kinds.length > 0 ? `${f.name}: ${kinds.join(', ')}` : f.name;
    const box = `<rect x="${x}" y="${y - BOX_H / 2}" width="${w}" height="${BOX_H}" rx="3" fill="${fill}" stroke="${stroke}"${abstract ? ' stroke-dasharray="4 2"' : ''}/>`
      + `<text x="${x + 7}" y="${y + 4}" font-size="${FONT}"${abstract ? ' font-style="italic"' : ''} fill="#212529">${xmlEscape(label(n.data))}</text>`;
    const title = `<title>${xmlEscape(n.data.hidden > 0 ? `${tip} (${n.data.hidden} more below: open)` : tip)}</title>`;
    const inner = n.data.hidden > 0 || expanded
      ? `<a href="${xmlEscape(`?root=${encodeURIComponent(f.name)}${depthQuery}${suffix}`)}">${title}${box}</a>`
      : `${title}${box}`;
    boxes.push(`<g class="${classes.join(' ')}" data-feature="${xmlEscape(f.name)}"${expanded ? ' data-open=""' : ''}>${inner}</g>`);

    if (!n.children) continue;
    const px = x + w;
    const py = y;
    const byGroup = new Map<number, HierarchyPointNode<Shown>[]>();
    for (const c of n.children) {
      const list = byGroup.get(c.data.groupIndex) ?? [];
      list.push(c);
      byGroup.set(c.data.groupIndex, list);
    }
    for (const [gi, children] of byGroup) {
      const group = f.groups[gi]!;
      for (const c of children) {
        const cx = posX(c);
        const cy = posY(c);
        const endX = group.kind === 'mandatory' || group.kind === 'optional' ? cx - DOT_R : cx;
        edges.push(`M${px} ${py}L${endX} ${cy}`);
        if (group.kind === 'mandatory' || group.kind === 'optional') {
          decorations.push(`<circle cx="${cx - DOT_R}" cy="${cy}" r="${DOT_R}" fill="${group.kind === 'mandatory' ? '#212529' : '#ffffff'}" stroke="#212529"/>`);
        }
      }
      if (group.kind === 'alternative' || group.kind === 'or' || group.kind === 'cardinality') {
        const angle = (c: HierarchyPointNode<Shown>) => Math.atan2(posY(c) - py, posX(c) - px);
        let a1 = angle(children[0]!);
        let a2 = angle(children[children.length - 1]!);
        if (a2 - a1 < 0.2) { const mid = (a1 + a2) / 2; a1 = mid - 0.1; a2 = mid + 0.1; }
        // Left to right, a group's edges fan out at shallow angles: an arc at a fixed small radius
        // would be a dot. It sits at 40 % of the way to the children (at most 80 units) instead.
        const r = Math.max(ARC_R, Math.min(80, 0.4 * (posX(children[0]!) - px)));
        const p1 = `${(px + r * Math.cos(a1)).toFixed(1)} ${(py + r * Math.sin(a1)).toFixed(1)}`;
        const p2 = `${(px + r * Math.cos(a2)).toFixed(1)} ${(py + r * Math.sin(a2)).toFixed(1)}`;
        const kind = group.kind === 'or' ? 'or' : group.kind === 'alternative' ? 'alternative' : 'cardinality';
        decorations.push(group.kind === 'or'
          ? `<path class="group or" d="M${px} ${py}L${p1}A${r} ${r} 0 0 1 ${p2}Z" fill="#212529" stroke="#212529"/>`
          : `<path class="group ${kind}" d="M${p1}A${r} ${r} 0 0 1 ${p2}" fill="none" stroke="#212529" stroke-width="1.5"/>`);
        if (group.kind === 'cardinality' && group.cardinality) {
          const mid = (a1 + a2) / 2;
          decorations.push(`<text class="group-cardinality" x="${(px + (r + 4) * Math.cos(mid)).toFixed(1)}" y="${(py + (r + 4) * Math.sin(mid) - 4).toFixed(1)}" font-size="10" fill="#212529">${xmlEscape(cardinalityText(group.cardinality))}</text>`);
        }
      }
    }
  }

  const notes: string[] = [];
  if (top !== model.root) notes.push(`Subtree of ${top.name}`);
  if (Number.isFinite(maxDepth)) notes.push(`${shownCount} of ${total} features shown, ${maxDepth} level${maxDepth === 1 ? '' : 's'} deep; a box marked ▸ n opens its subtree`);
  if (!options.anomalies) notes.push('Anomalies are coloured once the analysis has finished');
  const up = parentOfTop
    ? `<a class="up" href="${xmlEscape(`?root=${encodeURIComponent(parentOfTop.name)}${depthQuery}${suffix}`)}"><text x="${PAD}" y="${UP_Y}" font-size="11" fill="#0d6efd">↑ ${xmlEscape(parentOfTop.name)}</text></a>`
      + ` <a class="top" href="${xmlEscape(`?${options.depth !== undefined ? `depth=${options.depth}` : ''}${suffix}`)}"><text x="${PAD + Math.ceil((parentOfTop.name.length + 3) * 6.6) + 12}" y="${UP_Y}" font-size="11" fill="#0d6efd">⤒ whole model</text></a>`
    : '';
  const legendW = 640;
  const height = legendH + PAD * 2 + (maxX - minX) + BOX_H;
  const w = Math.max(treeW, legendW);
  const body = legend(notes.join(' · ')) + up
    + `<path class="edges" d="${edges.join('')}" fill="none" stroke="#6c757d"/>`
    + `<g class="decorations">${decorations.join('')}</g>`
    + `<g class="features" font-family="ui-monospace, SFMono-Regular, Menlo, Consolas, monospace">${boxes.join('')}</g>`;
  return svgDocument(Math.ceil(w), Math.ceil(height), body, options.title);
}

function legend(note: string): string {
  const items: string[] = [];
  let x = PAD;
  const swatch = (key: keyof typeof STYLES | 'abstract', text: string) => {
    const s = key === 'abstract' ? STYLES.plain : STYLES[key];
    items.push(`<g class="legend-item legend-${key}"><rect x="${x}" y="8" width="22" height="14" rx="3" fill="${s.fill}" stroke="${s.stroke}"${key === 'abstract' ? ' stroke-dasharray="4 2"' : ''}/><text x="${x + 28}" y="19" font-size="11"${key === 'abstract' ? ' font-style="italic"' : ''}>${text}</text></g>`);
    x += 34 + Math.ceil(text.length * 6.2) + 14;
  };
  swatch('core', 'core');
  swatch('dead', 'dead');
  swatch('false-optional', 'false-optional');
  swatch('abstract', 'abstract');
  let y = 44;
  x = PAD;
  const mark = (shape: string, text: string, wide = 0) => {
    items.push(`<g class="legend-item">${shape}<text x="${x + 30 + wide}" y="${y + 4}" font-size="11">${text}</text></g>`);
    x += 40 + wide + Math.ceil(text.length * 6.2) + 10;
  };
  mark(`<path d="M${x} ${y}L${x + 18} ${y}" stroke="#6c757d"/><circle cx="${x + 22}" cy="${y}" r="${DOT_R}" fill="#212529" stroke="#212529"/>`, 'mandatory');
  mark(`<path d="M${x} ${y}L${x + 18} ${y}" stroke="#6c757d"/><circle cx="${x + 22}" cy="${y}" r="${DOT_R}" fill="#ffffff" stroke="#212529"/>`, 'optional');
  mark(`<path d="M${x} ${y}L${x + 24} ${y - 8}M${x} ${y}L${x + 24} ${y + 8}M${x + 12} ${y - 4}A12 12 0 0 1 ${x + 12} ${y + 4}" fill="none" stroke="#212529"/>`, 'alternative');
  mark(`<path d="M${x} ${y}L${x + 24} ${y - 8}M${x} ${y}L${x + 24} ${y + 8}" stroke="#212529"/><path d="M${x} ${y}L${x + 12} ${y - 4}A12 12 0 0 1 ${x + 12} ${y + 4}Z" fill="#212529"/>`, 'or');
  mark(`<path d="M${x} ${y}L${x + 24} ${y - 8}M${x} ${y}L${x + 24} ${y + 8}M${x + 12} ${y - 4}A12 12 0 0 1 ${x + 12} ${y + 4}" fill="none" stroke="#212529"/>`, '[a..b] group cardinality');
  if (note) items.push(`<text class="legend-note" x="${PAD}" y="${y + 12 + 14}" font-size="11" fill="#6c757d">${xmlEscape(note)}</text>`);
  return `<g class="legend" font-family="sans-serif" fill="#212529">${items.join('')}</g>`;
}

function svgDocument(width: number, height: number, body: string, title?: string): string {
  // A drawing with links is a group of them for assistive technology: an image hides its content.
  const role = body.includes('<a ') ? 'group' : 'img';
  return `<svg xmlns="http://www.w3.org/2000/svg" class="feature-diagram" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="${role}" aria-label="${xmlEscape(title ?? 'Feature diagram')}">`
    + `<rect class="background" width="100%" height="100%" fill="#ffffff"/>${body}</svg>`;
}
