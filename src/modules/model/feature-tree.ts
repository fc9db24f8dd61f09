// What the model page needs of the feature tree besides the drawing: the depth its diagram opens
// at, and features found by name with the path to them (so the page can expand that path in
// place). Pure functions of the parsed model; iterative, as corpus trees can be deep.
import type { Feature, UvlModel } from '../../../packages/uvl/src/index.ts';
import { COLLAPSE_THRESHOLD, COLLAPSED_DEPTH, featureNamed } from './diagram.ts';

/**
 * The page opens its diagram with at most this many features shown: inlined in the page, a
 * drawing of the largest models at depth 3 (1 488 boxes, 550 KB) would outweigh the rest of it,
 * and fitted to its frame it would be unreadable. diagram.svg keeps the contract's depth 3.
 */
export const PAGE_SHOWN_LIMIT = 250;

/**
 * The diagram's frame on a desktop page (1280 px wide, in steps of 40 px as the page's script
 * tells its own): the page's drawing is folded to fit it, so it opens readable without a second
 * request; a phone's script asks for its own frame.
 */
export const PAGE_FIT = { width: 680, height: 600 };

/** Features per depth below the root (index 0: the root alone). */
function levelSizes(root: Feature): number[] {
  const sizes: number[] = [];
  let level: Feature[] = [root];
  while (level.length > 0) {
    sizes.push(level.length);
    const next: Feature[] = [];
    // One push per child: spreading a group of 150 000 children into push overflows the stack.
    for (const f of level) for (const g of f.groups) for (const c of g.children) next.push(c);
    level = next;
  }
  return sizes;
}

/**
 * The depth the model page opens its diagram (of the subtree of `rootName`, if given) at:
 * undefined (everything, or the contract's depth 3 over 300 features) unless that shows more
 * than PAGE_SHOWN_LIMIT; then the deepest level (at least 1) that shows at most that many.
 */
export function openingDepth(model: UvlModel, rootName?: string): number | undefined {
  if (!model.root) return undefined;
  const top = rootName === undefined ? model.root : featureNamed(model.root, rootName);
  if (!top) return undefined;
  const sizes = levelSizes(top);
  const total = levelSizes(model.root).reduce((a, b) => a + b, 0);
  const defaultDepth = total > COLLAPSE_THRESHOLD ? COLLAPSED_DEPTH : sizes.length - 1;
  let shown = 0;
  let depth = -1;
  for (let d = 0; d <= defaultDepth && d < sizes.length; d++) {
    if (shown + sizes[d]! > PAGE_SHOWN_LIMIT) break;
    shown += sizes[d]!;
    depth = d;
  }
  if (depth === defaultDepth || depth === sizes.length - 1) return undefined;
  return Math.max(1, depth);
}

export interface FoundFeature {
  name: string;
  /** The features from the model's root down to its parent. */
  path: string[];
}

/**
 * Features whose name contains `query` (any case): exact names first, then names starting with
 * it, then the rest, each in tree order; the first feature of a repeated name only, as the
 * analysis merges them.
 */
export function findFeatures(model: UvlModel, query: string, limit = 20): FoundFeature[] {
  const needle = query.trim().toLowerCase();
  if (!model.root || needle === '') return [];
  const ranked: FoundFeature[][] = [[], [], []];
  const seen = new Set<string>();
  // Pre-order; each visited feature remembers its parent's visit, so a path is built only for a match.
  const visited: { feature: Feature; parent: number }[] = [];
  const stack: { feature: Feature; parent: number }[] = [{ feature: model.root, parent: -1 }];
  const pathTo = (index: number) => {
    const path: string[] = [];
    for (let i = visited[index]!.parent; i >= 0; i = visited[i]!.parent) path.push(visited[i]!.feature.name);
    return path.reverse();
  };
  while (stack.length > 0) {
    const entry = stack.pop()!;
    const here = visited.push(entry) - 1;
    const f = entry.feature;
    const name = f.name.toLowerCase();
    const at = name.indexOf(needle);
    if (at >= 0 && !seen.has(f.name)) {
      seen.add(f.name);
      const rank = name === needle ? 0 : at === 0 ? 1 : 2;
      if (ranked[rank]!.length < limit) ranked[rank]!.push({ name: f.name, path: pathTo(here) });
    }
    for (let g = f.groups.length - 1; g >= 0; g--) {
      const children = f.groups[g]!.children;
      for (let c = children.length - 1; c >= 0; c--) stack.push({ feature: children[c]!, parent: here });
    }
  }
  return ranked.flat().slice(0, limit);
}
