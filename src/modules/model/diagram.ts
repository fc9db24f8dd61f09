// The feature diagram (extensions section 1, "In the hub"): an SVG drawn on the server from the
// parsed model, so that a visitor needs no script and no layout library to see it. Pure: a model
// and options in, a string out; the route decides where the model and the anomalies come from.
//
// The tree grows left to right rather than top-down because feature names are long and trees are
// wide: rows of one text height each keep a 2 000-children group readable, where a top-down
// diagram would be kilometres wide. Here: the options and the query; which features are shown and
// where is diagram.layout.ts, the SVG of boxes, edges, group marks and legend diagram.svg.ts.
import type { Feature, UvlModel } from '../../../packages/uvl/src/index.ts';
import { featureNamed, indexTree, layOut, shownTree, BOX_H, PAD } from './diagram.layout.ts';
import { childEdges, featureElement, legend, legendHeight, svgDocument, upLinks, LEGEND_W, type Marking } from './diagram.svg.ts';

export { featureNamed } from './diagram.layout.ts';
export { xmlEscape } from './diagram.svg.ts';

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

/** The shown root: the model's, or the feature `root` names (refused when the model has none of that name). */
function shownTop(modelRoot: Feature, root: string | undefined): Feature {
  if (root === undefined) return modelRoot;
  const match = featureNamed(modelRoot, root);
  if (!match) throw new DiagramQueryError(`root: the model has no feature named "${root}".`);
  return match;
}

/** The legend's note: what part of the model is shown, and whether anomalies can be coloured yet. */
function noteOf(subtreeOf: Feature | undefined, shown: number, total: number, maxDepth: number, anomalies: boolean): string {
  const notes: string[] = [];
  if (subtreeOf) notes.push(`Subtree of ${subtreeOf.name}`);
  if (Number.isFinite(maxDepth)) notes.push(`${shown} of ${total} features shown, ${maxDepth} level${maxDepth === 1 ? '' : 's'} deep; a box marked ▸ n opens its subtree`);
  if (!anomalies) notes.push('Anomalies are coloured once the analysis has finished');
  return notes.join(' · ');
}

export function renderDiagram(model: UvlModel, options: DiagramOptions = {}): string {
  if (!model.root) {
    return svgDocument(360, 60, `<text x="${PAD}" y="34" font-family="sans-serif" font-size="14" fill="#495057">This model has no features to draw.</text>`, options.title);
  }
  const { parent, size } = indexTree(model.root);
  const total = size.get(model.root)!;
  const top = shownTop(model.root, options.root);
  const maxDepth = options.depth ?? (total > COLLAPSE_THRESHOLD ? COLLAPSED_DEPTH : Infinity);
  const shown = shownTree(top, size, { maxDepth, opened: new Set(options.open ?? []), closed: new Set(options.close ?? []) });
  const parentOfTop = parent.get(top);
  const legendH = legendHeight(parentOfTop !== undefined);
  const layout = layOut(shown.root, legendH);
  const marking: Marking = {
    core: new Set(options.anomalies?.core ?? []),
    dead: new Set(options.anomalies?.dead ?? []),
    falseOptional: new Set(options.anomalies?.falseOptional ?? []),
    depthQuery: options.depth !== undefined ? `&depth=${options.depth}` : '',
    linkSuffix: options.linkSuffix ?? '',
  };
  const edges: string[] = [];
  const decorations: string[] = [];
  const boxes: string[] = [];
  for (const n of layout.nodes) {
    boxes.push(featureElement(n, layout, marking));
    if (n.children) childEdges(n, layout, edges, decorations);
  }
  const note = noteOf(top !== model.root ? top : undefined, shown.count, total, maxDepth, options.anomalies !== undefined);
  const height = legendH + PAD * 2 + layout.rowsSpan + BOX_H;
  const width = Math.max(layout.width, LEGEND_W);
  const body = legend(note) + upLinks(parentOfTop, options.depth, marking)
    + `<path class="edges" d="${edges.join('')}" fill="none" stroke="#6c757d"/>`
    + `<g class="decorations">${decorations.join('')}</g>`
    + `<g class="features" font-family="ui-monospace, SFMono-Regular, Menlo, Consolas, monospace">${boxes.join('')}</g>`;
  return svgDocument(Math.ceil(width), Math.ceil(height), body, options.title);
}
