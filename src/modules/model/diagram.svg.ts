// The feature diagram's SVG elements (diagram.ts): the feature boxes, the edges and group marks,
// the legend and the document around them. Notation after FODA and FeatureIDE: a filled circle at
// the child end for mandatory, an empty one for optional, an empty arc across the edges of an
// alternative group, a filled arc for an or group, an empty arc and `[a..b]` for a group cardinality.
import type { Feature, Group } from '../../../packages/uvl/src/index.ts';
import { ARC_R, BOX_H, CELL_GAP, DOT_R, FONT, GRID_INSET, PAD, PILL_GAP, ROW, cardinalityText, cellWidth, labelOf, nameWidth, pillOf, pillWidth, type LaidNode, type Layout, type Placed } from './diagram.layout.ts';

export const LEGEND_W = 640;

const STYLES = {
  plain: { fill: '#ffffff', stroke: '#495057' },
  core: { fill: '#d1e7dd', stroke: '#146c43' },
  dead: { fill: '#f8d7da', stroke: '#b02a37' },
  'false-optional': { fill: '#fff3cd', stroke: '#997404' },
} as const;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Names come from uploaded files: every one is escaped, in text and in attributes alike. */
export function xmlEscape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function isAbstract(f: Feature): boolean {
  return f.attributes.some((a) => a.kind === 'value' && a.name === 'abstract' && (a.value === undefined || (a.value.kind === 'boolean' && a.value.value)));
}

/** What a feature's box says beyond its name: the anomaly colours, and where its links lead. */
export interface Marking {
  core: ReadonlySet<string>;
  dead: ReadonlySet<string>;
  falseOptional: ReadonlySet<string>;
  /** `&depth=<n>` when the depth was asked for, kept by every link. */
  depthQuery: string;
  linkSuffix: string;
}

/** A box's link: into the subtree without the page's script, expanded in place with it. */
const subtreeHref = (name: string, marking: Marking) => xmlEscape(`?root=${encodeURIComponent(name)}${marking.depthQuery}${marking.linkSuffix}`);

/** One element per shown feature: the anomaly classes are exclusive, abstract combines. */
export function featureElement(p: Placed, marking: Marking): string {
  const { x, y, shown: n } = p;
  if (n.more !== undefined) return moreElement(p, marking);
  const f = n.feature;
  const classes = ['feature'];
  let style: keyof typeof STYLES = 'plain';
  if (marking.dead.has(f.name)) style = 'dead';
  else if (marking.falseOptional.has(f.name)) style = 'false-optional';
  else if (marking.core.has(f.name)) style = 'core';
  if (style !== 'plain') classes.push(style);
  const abstract = isAbstract(f);
  if (abstract) classes.push('abstract');
  if (n.hidden > 0) classes.push('collapsed');
  // A shown feature with shown children: the page's script collapses it in place.
  const expanded = n.children.length > 0;
  const { fill, stroke } = STYLES[style];
  const kinds = classes.slice(1).filter((c) => c !== 'collapsed');
  const tip = kinds.length > 0 ? `${f.name}: ${kinds.join(', ')}` : f.name;
  const w = nameWidth(n);
  let box = `<rect x="${x}" y="${y - BOX_H / 2}" width="${w}" height="${BOX_H}" rx="3" fill="${fill}" stroke="${stroke}"${abstract ? ' stroke-dasharray="4 2"' : ''}/>`
    + `<text x="${x + 7}" y="${y + 4}" font-size="${FONT}"${abstract ? ' font-style="italic"' : ''} fill="#212529">${xmlEscape(labelOf(n))}</text>`;
  // The hidden subtree's size in a count of its own beside the name (it was "▸ n" in the label):
  // read at a glance as "there is more here", and the same click target as the name.
  if (n.hidden > 0) {
    const px = x + w + PILL_GAP;
    box += `<rect class="count" x="${px}" y="${y - BOX_H / 2}" width="${pillWidth(n)}" height="${BOX_H}" rx="10" fill="#e7f1ff" stroke="#0a58ca"/>`
      + `<text class="count" x="${px + 5}" y="${y + 4}" font-size="${FONT}" fill="#0a3d91">${pillOf(n)}</text>`;
  }
  const title = `<title>${xmlEscape(n.hidden > 0 ? `${tip} (${n.hidden} more feature${n.hidden === 1 ? '' : 's'} below: open)` : tip)}</title>`;
  const inner = n.hidden > 0 || expanded ? `<a href="${subtreeHref(f.name, marking)}">${title}${box}</a>` : `${title}${box}`;
  return `<g class="${classes.join(' ')}" data-feature="${xmlEscape(f.name)}"${expanded ? ' data-open=""' : ''}>${inner}</g>`;
}

/** The box standing for a feature's folded children: opens them all (the script), or their parent's subtree (without it). */
function moreElement(p: Placed, marking: Marking): string {
  const { x, y, shown: n } = p;
  const parent = n.feature.name;
  const title = `${n.more} more children of ${parent}${n.hidden > 0 ? ` (and ${n.hidden} features below them)` : ''}: show them`;
  return `<g class="more" data-more-of="${xmlEscape(parent)}"><a href="${subtreeHref(parent, marking)}"><title>${xmlEscape(title)}</title>`
    + `<rect x="${x}" y="${y - BOX_H / 2}" width="${nameWidth(n)}" height="${BOX_H}" rx="3" fill="#f8f9fa" stroke="#0a58ca" stroke-dasharray="3 2"/>`
    + `<text x="${x + 7}" y="${y + 4}" font-size="${FONT}" fill="#0a3d91">${xmlEscape(labelOf(n))}</text></a></g>`;
}

const dot = (cx: number, cy: number, kind: string | undefined) => (kind === 'mandatory' || kind === 'optional'
  ? `<circle cx="${cx}" cy="${cy}" r="${DOT_R}" fill="${kind === 'mandatory' ? '#212529' : '#ffffff'}" stroke="#212529"/>`
  : '');

/** A grid's edges: one from the parent to a bracket beside the first column, a tick to each of its cells, a dot before every cell. */
function gridEdges(grid: LaidNode, px: number, py: number, layout: Layout, edges: string[], decorations: string[]): void {
  const gx = layout.x(grid);
  const rows = grid.data.rows!;
  const top = layout.y(grid) - ((rows - 1) * ROW) / 2;
  const bx = gx + 4;
  edges.push(`M${px} ${py}L${bx} ${layout.y(grid)}M${bx} ${top}L${bx} ${top + (rows - 1) * ROW}`);
  const step = cellWidth(grid.data) + CELL_GAP;
  grid.data.cells!.forEach((c, i) => {
    const cx = gx + GRID_INSET + Math.floor(i / rows) * step;
    const cy = top + (i % rows) * ROW;
    if (i < rows) edges.push(`M${bx} ${cy}L${cx - (c.more === undefined ? 2 * DOT_R : 0)} ${cy}`);
    if (c.more === undefined) decorations.push(dot(cx - DOT_R, cy, c.groupKind));
  });
}

/** The edges from a shown feature to its shown children (path data) and their marks, group by group. */
export function childEdges(n: LaidNode, layout: Layout, edges: string[], decorations: string[]): void {
  const { x: px, y: py } = layout.anchor(n);
  const byGroup = new Map<number, LaidNode[]>();
  for (const c of n.children ?? []) {
    if (c.data.cells) { gridEdges(c, px, py, layout, edges, decorations); continue; }
    const list = byGroup.get(c.data.groupIndex) ?? [];
    list.push(c);
    byGroup.set(c.data.groupIndex, list);
  }
  for (const [gi, children] of byGroup) {
    if (gi < 0) { for (const c of children) edges.push(`M${px} ${py}L${layout.x(c)} ${layout.y(c)}`); continue; }
    const group = n.data.feature.groups[gi]!;
    for (const c of children) {
      const cx = layout.x(c);
      const cy = layout.y(c);
      const endX = group.kind === 'mandatory' || group.kind === 'optional' ? cx - DOT_R : cx;
      edges.push(`M${px} ${py}L${endX} ${cy}`);
      decorations.push(dot(cx - DOT_R, cy, group.kind));
    }
    if (group.kind === 'alternative' || group.kind === 'or' || group.kind === 'cardinality') for (const mark of groupArc(group, children, px, py, layout)) decorations.push(mark);
  }
}

/** The arc across a group's edges, filled for an or group, with the cardinality beside it. */
function groupArc(group: Group, children: LaidNode[], px: number, py: number, layout: Layout): string[] {
  const marks: string[] = [];
  const angle = (c: LaidNode) => Math.atan2(layout.y(c) - py, layout.x(c) - px);
  let a1 = angle(children[0]!);
  let a2 = angle(children[children.length - 1]!);
  if (a2 - a1 < 0.2) { const mid = (a1 + a2) / 2; a1 = mid - 0.1; a2 = mid + 0.1; }
  // Left to right, a group's edges fan out at shallow angles: an arc at a fixed small radius
  // would be a dot. It sits at 40 % of the way to the children (at most 80 units) instead.
  const r = Math.max(ARC_R, Math.min(80, 0.4 * (layout.x(children[0]!) - px)));
  const p1 = `${(px + r * Math.cos(a1)).toFixed(1)} ${(py + r * Math.sin(a1)).toFixed(1)}`;
  const p2 = `${(px + r * Math.cos(a2)).toFixed(1)} ${(py + r * Math.sin(a2)).toFixed(1)}`;
  const kind = group.kind === 'or' ? 'or' : group.kind === 'alternative' ? 'alternative' : 'cardinality';
  marks.push(group.kind === 'or'
    ? `<path class="group or" d="M${px} ${py}L${p1}A${r} ${r} 0 0 1 ${p2}Z" fill="#212529" stroke="#212529"/>`
    : `<path class="group ${kind}" d="M${p1}A${r} ${r} 0 0 1 ${p2}" fill="none" stroke="#212529" stroke-width="1.5"/>`);
  if (group.kind === 'cardinality' && group.cardinality) {
    const mid = (a1 + a2) / 2;
    marks.push(`<text class="group-cardinality" x="${(px + (r + 4) * Math.cos(mid)).toFixed(1)}" y="${(py + (r + 4) * Math.sin(mid) - 4).toFixed(1)}" font-size="11" fill="#212529">${xmlEscape(cardinalityText(group.cardinality))}</text>`);
  }
  return marks;
}

/** The "↑ parent" and "⤒ whole model" links of a subtree's drawing (on a row of their own at `y`); '' for the whole model. */
export function upLinks(parentOfTop: Feature | undefined, depth: number | undefined, marking: Marking, y: number): string {
  if (!parentOfTop) return '';
  const suffix = marking.linkSuffix;
  return `<a class="up" href="${xmlEscape(`?root=${encodeURIComponent(parentOfTop.name)}${marking.depthQuery}${suffix}`)}"><text x="${PAD}" y="${y}" font-size="11" fill="#0d6efd">↑ ${xmlEscape(parentOfTop.name)}</text></a>`
    + ` <a class="top" href="${xmlEscape(`?${depth !== undefined ? `depth=${depth}` : ''}${suffix}`)}"><text x="${PAD + Math.ceil((parentOfTop.name.length + 3) * 6.6) + 12}" y="${y}" font-size="11" fill="#0d6efd">⤒ whole model</text></a>`;
}

/** A legend entry: its width, and its drawing with the row's middle at y. */
interface LegendItem { w: number; draw: (x: number, y: number) => string }

const swatch = (key: keyof typeof STYLES | 'abstract', text: string): LegendItem => ({
  w: 34 + Math.ceil(text.length * 6.2),
  draw: (x, y) => {
    const s = key === 'abstract' ? STYLES.plain : STYLES[key];
    const dash = key === 'abstract' ? ' stroke-dasharray="4 2"' : '';
    return `<g class="legend-item legend-${key}"><rect x="${x}" y="${y - 7}" width="22" height="14" rx="3" fill="${s.fill}" stroke="${s.stroke}"${dash}/><text x="${x + 28}" y="${y + 4}" font-size="11"${key === 'abstract' ? ' font-style="italic"' : ''}>${text}</text></g>`;
  },
});

const mark = (shape: (x: number, y: number) => string, text: string): LegendItem => ({
  w: 30 + Math.ceil(text.length * 6.2),
  draw: (x, y) => `<g class="legend-item">${shape(x, y)}<text x="${x + 30}" y="${y + 4}" font-size="11">${text}</text></g>`,
});

const fan = (x: number, y: number) => `M${x} ${y}L${x + 24} ${y - 8}M${x} ${y}L${x + 24} ${y + 8}`;
const LEGEND_ITEMS: LegendItem[] = [
  swatch('core', 'core'), swatch('dead', 'dead'), swatch('false-optional', 'false-optional'), swatch('abstract', 'abstract'),
  mark((x, y) => `<path d="M${x} ${y}L${x + 18} ${y}" stroke="#6c757d"/><circle cx="${x + 22}" cy="${y}" r="${DOT_R}" fill="#212529" stroke="#212529"/>`, 'mandatory'),
  mark((x, y) => `<path d="M${x} ${y}L${x + 18} ${y}" stroke="#6c757d"/><circle cx="${x + 22}" cy="${y}" r="${DOT_R}" fill="#ffffff" stroke="#212529"/>`, 'optional'),
  mark((x, y) => `<path d="${fan(x, y)}M${x + 12} ${y - 4}A12 12 0 0 1 ${x + 12} ${y + 4}" fill="none" stroke="#212529"/>`, 'alternative'),
  mark((x, y) => `<path d="${fan(x, y)}" stroke="#212529"/><path d="M${x} ${y}L${x + 12} ${y - 4}A12 12 0 0 1 ${x + 12} ${y + 4}Z" fill="#212529"/>`, 'or'),
  mark((x, y) => `<path d="${fan(x, y)}M${x + 12} ${y - 4}A12 12 0 0 1 ${x + 12} ${y + 4}" fill="none" stroke="#212529"/>`, '[a..b] group cardinality'),
  mark((x, y) => `<rect x="${x}" y="${y - 7}" width="24" height="14" rx="7" fill="#e7f1ff" stroke="#0a58ca"/><text x="${x + 4}" y="${y + 4}" font-size="11" fill="#0a3d91">+n</text>`, 'n features folded: click to open'),
];

/** Words of `text` in lines of at most `chars` characters (a longer word gets a line of its own). */
function wrapWords(text: string, chars: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > chars) { lines.push(line); line = word; } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * The legend in rows that fit `width` (a phone's drawing is narrower than the 640 units of
 * one row of marks), the note word-wrapped below; `height` is where the drawing may start.
 */
export function legend(note: string, width: number): { svg: string; height: number } {
  const items: string[] = [];
  const room = Math.max(200, width - 2 * PAD);
  let x = PAD;
  let y = 15;
  for (const item of LEGEND_ITEMS) {
    if (x > PAD && x + item.w > PAD + room) { x = PAD; y += 24; }
    items.push(item.draw(x, y));
    x += item.w + 14;
  }
  let baseline = y + 26;
  for (const line of note ? wrapWords(note, Math.floor(room / 6.2)) : []) {
    items.push(`<text class="legend-note" x="${PAD}" y="${baseline}" font-size="11" fill="#6c757d">${xmlEscape(line)}</text>`);
    baseline += 14;
  }
  return { svg: `<g class="legend" font-family="sans-serif" fill="#212529">${items.join('')}</g>`, height: baseline - 6 };
}

export function svgDocument(width: number, height: number, body: string, title?: string): string {
  // A drawing with links is a group of them for assistive technology: an image hides its content.
  const role = body.includes('<a ') ? 'group' : 'img';
  return `<svg xmlns="http://www.w3.org/2000/svg" class="feature-diagram" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="${role}" aria-label="${xmlEscape(title ?? 'Feature diagram')}">`
    + `<rect class="background" width="100%" height="100%" fill="#ffffff"/>${body}</svg>`;
}
