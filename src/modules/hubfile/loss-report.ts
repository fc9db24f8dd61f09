// A conversion's loss report grouped by kind, for the pages: converters write one sentence per
// loss, and a large model repeats one sentence with another name dozens of times (FeatureIDE's
// <graphics> element of each feature), which buried the model page under a list of 80 lines.

/** One kind of loss: the sentence with the names that differ left out, how often it occurs, and those names. */
export interface LossGroup {
  /** The sentence with each name, value or number that differs between its losses written `…`. */
  kind: string;
  count: number;
  /** The first loss of the kind as written, shown whole when it is the only one. */
  first: string;
  /** What differs, per loss in order (`Bread`, or `Calories / Bread` when two names differ). */
  names: string[];
}

/** Losses at most this many are listed open; more are collapsed behind their summary. */
export const LOSSES_SHOWN_OPEN = 5;

// Names and values: `Bread`, 'text', and counts like "constraint 3" or "(line 12)".
const PLACEHOLDER = /`[^`]*`|'[^']*'|\b\d+\b/g;
const GAP = '\u0000';

const unquote = (token: string) => (/^[`']/.test(token) ? token.slice(1, -1) : token);
const elided = (token: string) => (token.startsWith('`') ? '`…`' : token.startsWith("'") ? "'…'" : '…');

/**
 * The losses of one shape split by everything but their most varied name, when that groups them
 * (`unit `kcal` of attribute `Calories`` apart from `unit `EUR` of attribute `Price``, each over
 * its features); else one group (a rename's old and new names both differ every time).
 */
function splitByName(tokens: string[][]): string[][][] {
  const width = tokens[0]!.length;
  if (width < 2) return [tokens];
  const distinct = (i: number) => new Set(tokens.map((t) => t[i])).size;
  let name = 0;
  for (let i = 1; i < width; i += 1) if (distinct(i) > distinct(name)) name = i;
  const parts = new Map<string, string[][]>();
  for (const t of tokens) {
    const key = t.filter((_, i) => i !== name).join(GAP);
    parts.set(key, [...(parts.get(key) ?? []), t]);
  }
  return parts.size * 2 <= tokens.length ? [...parts.values()] : [tokens];
}

function groupOf(shape: string, tokens: string[][], first: string): LossGroup {
  const firstTokens = tokens[0]!;
  const varies = firstTokens.map((token, i) => tokens.some((t) => t[i] !== token));
  const kind = shape.split(GAP).map((part, i) => (i === 0 ? part : `${varies[i - 1] ? elided(firstTokens[i - 1]!) : firstTokens[i - 1]}${part}`)).join('');
  const names = tokens.map((t) => t.filter((_, i) => varies[i]).map(unquote).join(' / ')).filter((n) => n !== '');
  return { kind, count: tokens.length, first, names };
}

/**
 * The losses grouped by kind: the same sentence apart from its names and values. Names equal in
 * every loss of a group stay in its sentence (`unit `kcal` of attribute `Calories` of `…``), the
 * others are listed. Largest group first (first seen first among equals).
 */
export function groupLosses(losses: readonly string[]): LossGroup[] {
  const byShape = new Map<string, { losses: string[]; tokens: string[][] }>();
  for (const loss of losses) {
    const shape = loss.replace(PLACEHOLDER, GAP);
    const group = byShape.get(shape) ?? { losses: [], tokens: [] };
    byShape.set(shape, group);
    group.losses.push(loss);
    group.tokens.push(loss.match(PLACEHOLDER) ?? []);
  }
  const groups = [...byShape].flatMap(([shape, { losses: written, tokens }]) =>
    splitByName(tokens).map((part) => groupOf(shape, part, written[tokens.indexOf(part[0]!)]!)));
  return groups.sort((a, b) => b.count - a.count);
}
