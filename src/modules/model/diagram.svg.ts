// The feature diagram's SVG elements (diagram.ts): the feature boxes, the edges and group marks,
// the legend and the document around them. Notation after FODA and FeatureIDE: a filled circle at
// the child end for mandatory, an empty one for optional, an empty arc across the edges of an
// alternative group, a filled arc for an or group, an empty arc and `[a..b]` for a group cardinality.
import type { Feature, Group } from '../../../packages/uvl/src/index.ts';
import { ARC_R, BOX_H, DOT_R, FONT, PAD, boxWidth, cardinalityText, labelOf, type LaidNode, type Layout } from './diagram.layout.ts';

/** Baseline of the "parent / whole model" links, below the legend's note (at 70). */
const UP_Y = 88;
export const LEGEND_W = 640;
/** The "parent / whole model" links of a subtree get a row of their own below the legend's note. */
export const legendHeight = (withUpLinks: boolean) => (withUpLinks ? 96 : 78);

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

/** One element per shown feature: the anomaly classes are exclusive, abstract combines. */
export function featureElement(n: LaidNode, layout: Layout, marking: Marking): string {
  const x = layout.x(n);
  const y = layout.y(n);
  const f = n.data.feature;
  const classes = ['feature'];
  let style: keyof typeof STYLES = 'plain';
  if (marking.dead.has(f.name)) style = 'dead';
  else if (marking.falseOptional.has(f.name)) style = 'false-optional';
  else if (marking.core.has(f.name)) style = 'core';
  if (style !== 'plain') classes.push(style);
  const abstract = isAbstract(f);
  if (abstract) classes.push('abstract');
  if (n.data.hidden > 0) classes.push('collapsed');
  // A shown feature with shown children: the page's script collapses it in place.
  const expanded = n.data.children.length > 0;
  const { fill, stroke } = STYLES[style];
  const kinds = classes.slice(1).filter((c) => c !== 'collapsed');
  const tip = kinds.length > 0 ? `${f.name}: ${kinds.join(', ')}` : f.name;
  const box = `<rect x="${x}" y="${y - BOX_H / 2}" width="${boxWidth(n.data)}" height="${BOX_H}" rx="3" fill="${fill}" stroke="${stroke}"${abstract ? ' stroke-dasharray="4 2"' : ''}/>`
    + `<text x="${x + 7}" y="${y + 4}" font-size="${FONT}"${abstract ? ' font-style="italic"' : ''} fill="#212529">${xmlEscape(labelOf(n.data))}</text>`;
  const title = `<title>${xmlEscape(n.data.hidden > 0 ? `${tip} (${n.data.hidden} more below: open)` : tip)}</title>`;
  const inner = n.data.hidden > 0 || expanded
    ? `<a href="${xmlEscape(`?root=${encodeURIComponent(f.name)}${marking.depthQuery}${marking.linkSuffix}`)}">${title}${box}</a>`
    : `${title}${box}`;
  return `<g class="${classes.join(' ')}" data-feature="${xmlEscape(f.name)}"${expanded ? ' data-open=""' : ''}>${inner}</g>`;
}

/** The edges from a shown feature to its shown children (path data) and their marks, group by group. */
export function childEdges(n: LaidNode, layout: Layout, edges: string[], decorations: string[]): void {
  const px = layout.x(n) + boxWidth(n.data);
  const py = layout.y(n);
  const byGroup = new Map<number, LaidNode[]>();
  for (const c of n.children ?? []) {
    const list = byGroup.get(c.data.groupIndex) ?? [];
    list.push(c);
    byGroup.set(c.data.groupIndex, list);
  }
  for (const [gi, children] of byGroup) {
    const group = n.data.feature.groups[gi]!;
    for (const c of children) {
      const cx = layout.x(c);
      const cy = layout.y(c);
      const endX = group.kind === 'mandatory' || group.kind === 'optional' ? cx - DOT_R : cx;
      edges.push(`M${px} ${py}L${endX} ${cy}`);
      if (group.kind === 'mandatory' || group.kind === 'optional') {
        decorations.push(`<circle cx="${cx - DOT_R}" cy="${cy}" r="${DOT_R}" fill="${group.kind === 'mandatory' ? '#212529' : '#ffffff'}" stroke="#212529"/>`);
      }
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
    marks.push(`<text class="group-cardinality" x="${(px + (r + 4) * Math.cos(mid)).toFixed(1)}" y="${(py + (r + 4) * Math.sin(mid) - 4).toFixed(1)}" font-size="10" fill="#212529">${xmlEscape(cardinalityText(group.cardinality))}</text>`);
  }
  return marks;
}

/** The "↑ parent" and "⤒ whole model" links of a subtree's drawing; '' for the whole model. */
export function upLinks(parentOfTop: Feature | undefined, depth: number | undefined, marking: Marking): string {
  if (!parentOfTop) return '';
  const suffix = marking.linkSuffix;
  return `<a class="up" href="${xmlEscape(`?root=${encodeURIComponent(parentOfTop.name)}${marking.depthQuery}${suffix}`)}"><text x="${PAD}" y="${UP_Y}" font-size="11" fill="#0d6efd">↑ ${xmlEscape(parentOfTop.name)}</text></a>`
    + ` <a class="top" href="${xmlEscape(`?${depth !== undefined ? `depth=${depth}` : ''}${suffix}`)}"><text x="${PAD + Math.ceil((parentOfTop.name.length + 3) * 6.6) + 12}" y="${UP_Y}" font-size="11" fill="#0d6efd">⤒ whole model</text></a>`;
}

export function legend(note: string): string {
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

export function svgDocument(width: number, height: number, body: string, title?: string): string {
  // A drawing with links is a group of them for assistive technology: an image hides its content.
  const role = body.includes('<a ') ? 'group' : 'img';
  return `<svg xmlns="http://www.w3.org/2000/svg" class="feature-diagram" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="${role}" aria-label="${xmlEscape(title ?? 'Feature diagram')}">`
    + `<rect class="background" width="100%" height="100%" fill="#ffffff"/>${body}</svg>`;
}
