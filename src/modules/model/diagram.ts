// The feature diagram (extensions section 1, "In the hub"): an SVG drawn on the server from the
// parsed model, so that a visitor needs no script and no layout library to see it. Pure: a model
// and options in, a string out; the route decides where the model and the anomalies come from.
//
// The tree grows left to right rather than top-down because feature names are long and trees are
// wide: rows of one text height each keep a 2 000-children group readable, where a top-down
// diagram would be kilometres wide. Here: the options and the query; which features are shown and
// where is diagram.layout.ts, the SVG of boxes, edges, group marks and legend diagram.svg.ts.
import type { Feature, UvlModel } from '../../../packages/uvl/src/index.ts';
import { featureNamed, indexTree, layOut, layOutOutline, shownTree, shortenLabels, textWidth, wrapRuns, BOX_H, GAP, MAX_SHOWN_CHILDREN, PAD, ROW, type Layout, type Shown, type ShownLimits } from './diagram.layout.ts';
import { childEdges, featureElement, legend, svgDocument, upLinks, LEGEND_W, type Marking } from './diagram.svg.ts';

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
  /**
   * The frame the drawing is shown fitted in, in CSS pixels (the page's script sends its own):
   * children beyond a limit fold into a "more" box, long runs wrap into columns, and levels are
   * dropped, until the drawing fits that frame with its text at least LABEL_FLOOR_PX high.
   */
  fit?: { width: number; height: number };
}

/** The smallest height of a feature's label at fit, in CSS pixels (issue 37: readable at fit). */
export const LABEL_FLOOR_PX = 10;
/** The drawing's scale at that floor: its 12-unit labels drawn 10 px high. */
export const FLOOR_SCALE = LABEL_FLOOR_PX / 12;
/** A fitted drawing rather drops a level than show fewer children than this under each feature. */
const MIN_FOLD = 4;

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
  fit?: { width: number; height: number };
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
  if (q.fit !== undefined) {
    const m = typeof q.fit === 'string' ? /^(\d{3,4})x(\d{3,4})$/.exec(q.fit) : null;
    if (!m || [m[1], m[2]].some((v) => Number(v) < 200 || Number(v) > 4000)) {
      throw new DiagramQueryError('fit must be a frame size WIDTHxHEIGHT in pixels, each from 200 to 4000, given once.');
    }
    out.fit = { width: Number(m[1]), height: Number(m[2]) };
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
function noteOf(subtreeOf: Feature | undefined, shown: number, total: number, folded: boolean, anomalies: boolean): string {
  const notes: string[] = [];
  if (subtreeOf) notes.push(`Subtree of ${subtreeOf.name}`);
  if (folded) notes.push(`${shown} of ${total} features shown; a count +n or a box "+n more" opens what it stands for`);
  if (!anomalies) notes.push('Anomalies are coloured once the analysis has finished');
  return notes.join(' · ');
}

interface Drawn {
  shown: { root: Shown; count: number };
  layout: Layout;
  legend: { svg: string; height: number };
  upLinksY: number;
  width: number;
  height: number;
}

interface Plan {
  top: Feature;
  total: number;
  size: Map<Feature, number>;
  withUpLinks: boolean;
  anomalies: boolean;
}

/**
 * Lays out the tree shown under these limits, legend included; fitted to a frame of `fit` units,
 * the legend wraps to its width and runs of childless siblings wrap to the rows below the legend.
 */
function drawOnce(plan: Plan, limits: ShownLimits, fit: { width: number; height: number } | undefined, labelChars = Infinity): Drawn {
  const shown = shownTree(plan.top, plan.size, limits);
  const folded = shown.count < plan.total;
  const note = noteOf(plan.withUpLinks ? plan.top : undefined, shown.count, plan.total, folded, plan.anomalies);
  const legendWidth = fit === undefined ? LEGEND_W : Math.min(LEGEND_W, fit.width);
  const drawnLegend = legend(note, legendWidth);
  const upLinksY = drawnLegend.height + 10;
  const legendH = drawnLegend.height + (plan.withUpLinks ? 18 : 0);
  if (Number.isFinite(labelChars)) shortenLabels(shown.root, labelChars);
  if (fit) wrapRuns(shown.root, Math.max(4, Math.floor((fit.height - legendH - 2 * PAD - BOX_H) / ROW) + 1));
  const layout = fit && fit.width < OUTLINE_BELOW ? layOutOutline(shown.root, legendH) : layOut(shown.root, legendH);
  const height = legendH + PAD * 2 + layout.rowsSpan + BOX_H;
  return { shown, layout, legend: drawnLegend, upLinksY, width: Math.max(layout.width, legendWidth), height };
}

/** Frames narrower than this (units at the floor; 467 px) are drawn as an outline: a phone's is about 400. */
const OUTLINE_BELOW = 560;

/**
 * Label lengths tried, longest first, when a level does not fit across: longer labels are
 * shortened in the middle. Generated names of 27 characters fill a phone's 400 units in two columns.
 */
const LABEL_STEPS = [Infinity, 48, 40, 32, 28, 24, 20, 16, 14, 12];

/** Levels below `top` (iteratively: trees can be deeper than the stack likes). */
function heightOf(top: Feature): number {
  let depth = 0;
  let level = [top];
  for (;;) {
    const next: Feature[] = [];
    for (const f of level) for (const g of f.groups) for (const c of g.children) next.push(c);
    if (next.length === 0) return depth;
    depth++;
    level = next;
  }
}

/**
 * The largest fold (children per feature) at the deepest level that fits the frame at the label
 * floor. Features the visitor opened by name are left out of the search (an expansion must not
 * fold everything else); they are drawn whole on top of the result.
 */
function fitLimits(plan: Plan, limits: ShownLimits, fit: { width: number; height: number }) {
  const w = fit.width / FLOOR_SCALE;
  const h = fit.height / FLOOR_SCALE;
  const base = { ...limits, opened: new Set<string>() };
  const fits = (depth: number, fold: number, chars: number) => {
    const d = drawOnce(plan, { ...base, maxDepth: depth, fold }, { width: w, height: h }, chars);
    return d.width <= w && d.height <= h;
  };
  // A drawing that fits whole is drawn whole (most models): one layout, no search.
  if (fits(limits.maxDepth, MAX_SHOWN_CHILDREN, Infinity)) return { depth: limits.maxDepth, fold: MAX_SHOWN_CHILDREN, chars: Infinity };
  // The longest labels with which one child per feature fits across at this depth.
  const charsFor = (depth: number) => LABEL_STEPS.find((c) => drawOnce(plan, { ...base, maxDepth: depth, fold: 1 }, { width: w, height: h }, c).width <= w) ?? 12;
  // No deeper than columns of four-letter names fit across: a chain of 250 features would
  // otherwise be searched level by level from 250 down.
  const columns = Math.floor((w - 2 * PAD + GAP) / (textWidth('Name') + GAP));
  const deepest = Math.max(1, Math.min(limits.maxDepth, heightOf(plan.top), columns - 1));
  let best = { depth: 1, fold: 1, chars: 12 };
  for (let depth = deepest; depth >= 1; depth--) {
    const chars = charsFor(depth);
    let lo = 0;
    let hi = Math.min(1000, Math.ceil(h / ROW) * 12);
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fits(depth, mid, chars)) lo = mid; else hi = mid - 1;
    }
    if (lo >= MIN_FOLD || (depth === 1 && lo >= 1)) return { depth, fold: lo, chars };
    if (lo > best.fold || depth === 1) best = { depth, fold: Math.max(1, lo), chars };
  }
  return best;
}

export function renderDiagram(model: UvlModel, options: DiagramOptions = {}): string {
  if (!model.root) {
    return svgDocument(360, 60, `<text x="${PAD}" y="34" font-family="sans-serif" font-size="14" fill="#495057">This model has no features to draw.</text>`, options.title);
  }
  const { parent, size } = indexTree(model.root);
  const total = size.get(model.root)!;
  const top = shownTop(model.root, options.root);
  const parentOfTop = parent.get(top);
  const plan: Plan = { top, total, size, withUpLinks: parentOfTop !== undefined, anomalies: options.anomalies !== undefined };
  let limits: ShownLimits = {
    maxDepth: options.depth ?? (total > COLLAPSE_THRESHOLD ? COLLAPSED_DEPTH : Infinity),
    opened: new Set(options.open ?? []),
    closed: new Set(options.close ?? []),
  };
  let drawn: Drawn;
  if (options.fit) {
    const chosen = fitLimits(plan, limits, options.fit);
    limits = { ...limits, maxDepth: chosen.depth, fold: chosen.fold };
    drawn = drawOnce(plan, limits, { width: options.fit.width / FLOOR_SCALE, height: options.fit.height / FLOOR_SCALE }, chosen.chars);
  } else {
    drawn = drawOnce(plan, limits, undefined);
  }
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
  for (const n of drawn.layout.nodes) if (n.children) childEdges(n, drawn.layout, edges, decorations);
  for (const p of drawn.layout.boxes) boxes.push(featureElement(p, marking));
  const body = drawn.legend.svg + upLinks(parentOfTop, options.depth, marking, drawn.upLinksY)
    + `<path class="edges" d="${edges.join('')}" fill="none" stroke="#6c757d"/>`
    + `<g class="decorations">${decorations.join('')}</g>`
    + `<g class="features" font-family="ui-monospace, SFMono-Regular, Menlo, Consolas, monospace">${boxes.join('')}</g>`;
  return svgDocument(Math.ceil(drawn.width), Math.ceil(drawn.height), body, options.title);
}
