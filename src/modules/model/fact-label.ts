// The fact label's data (after the FM Fact Label): the analysis result turned into what the
// template shows. Kept out of the template so that the numbers' formatting is tested once.
import type { AnalysisResult } from '../../../packages/analysis/src/types.ts';

/**
 * The label lists at most this many core, dead or false-optional features; the rest are in the
 * analysis JSON it links (a model of 18 000 core features would otherwise be a megabyte of names).
 */
export const LABEL_LIST_LIMIT = 300;

/** A count longer than this is shown as d.dd × 10^n, with all digits on demand. */
const SHORT_DIGITS = 12;

export interface CountDisplay {
  /** Digits grouped by three with thin spaces, when short enough to read. */
  grouped?: string;
  /** Scientific form of a long count: mantissa and exponent. */
  mantissa?: string;
  exponent?: number;
  digits: number;
  full: string;
}

export function countDisplay(count: string): CountDisplay {
  const digits = count.length;
  if (digits <= SHORT_DIGITS) return { grouped: count.replace(/\B(?=(\d{3})+(?!\d))/g, '\u2009'), digits, full: count };
  // Truncated, not rounded: rounding 9.999… up would change the exponent and claim a digit it has not.
  const mantissa = `${count[0]}.${count.slice(1, 3)}`;
  return { mantissa, exponent: digits - 1, digits, full: count };
}

/**
 * An estimate of the count (extensions 6a), always shown as one: "about", two significant digits,
 * and the guarantee in words. Never given beside an exact count.
 */
export function estimateDisplay(e: NonNullable<AnalysisResult['configurations_estimate']>) {
  let exponent = Math.floor(e.log10);
  let mantissa = (10 ** (e.log10 - exponent)).toFixed(1);
  if (mantissa === '10.0') [mantissa, exponent] = ['1.0', exponent + 1];
  const about = e.value.length <= SHORT_DIGITS ? { grouped: countDisplay(e.value).grouped } : { mantissa, exponent };
  const guarantee = `within a factor ${1 + e.epsilon} of the exact count with probability at least ${Math.round((1 - e.delta) * 1000) / 1000}`;
  return { ...about, guarantee, method: e.method };
}

export interface ExplanationLine {
  line?: number;
  text: string;
}

export interface AnomalyEntry {
  name: string;
  /** Empty with `tree` true when the tree alone causes it. */
  explanation: ExplanationLine[];
  tree: boolean;
}

/** "Line 14: Diesel => !Turbo" → a link target and the constraint's text. */
export function explanationLine(raw: string): ExplanationLine {
  const match = /^Line (\d+): ([\s\S]*)$/.exec(raw);
  return match ? { line: Number(match[1]), text: match[2]! } : { text: raw };
}

/** null when the list was not computed (out of time): unknown, which is not the same as none. */
function entries(names: string[] | null, explanations: Record<string, string[]>, reasons: Record<string, 'tree'> | undefined): AnomalyEntry[] | null {
  if (names === null) return null;
  return names.map((name) => {
    const lines = Object.hasOwn(explanations, name) ? explanations[name]! : [];
    return { name, explanation: lines.map(explanationLine), tree: reasons?.[name] === 'tree' || (Object.hasOwn(explanations, name) && lines.length === 0) };
  });
}

export function factLabel(result: AnalysisResult) {
  const m = result.metrics;
  return {
    satisfiable: result.satisfiable,
    count: result.configurations === null ? null : countDisplay(result.configurations),
    countStatus: result.configurations_status,
    estimate: result.configurations === null && result.configurations_estimate ? estimateDisplay(result.configurations_estimate) : null,
    booleanOnly: result.boolean_only,
    ignoredConstraints: result.ignored_constraints,
    /** Which constraints were left out, where and why (the label names them beside the count). */
    ignored: result.ignored ?? [],
    timeouts: result.timeouts ?? [],
    metrics: [
      ['Features', m.features],
      ['Leaf features', m.leaf_features],
      ['Abstract features', m.abstract_features],
      ['Compound features', m.compound_features],
      ['Depth', m.depth],
      ['Groups (or / alternative / cardinality)', `${m.groups.or} / ${m.groups.alternative} / ${m.groups.cardinality}`],
      ['Constraints (simple / complex)', `${m.constraints} (${m.simple_constraints} / ${m.complex_constraints})`],
      ['Features in constraints', m.features_in_constraints],
      ['Attributes', m.attributes],
      ['Typed features', m.typed_features],
      // "boolean" alone would claim a purely Boolean analysis of a model whose constraints were partly left out.
      ['Language level', result.ignored_constraints > 0 ? `${m.language_level} (${result.ignored_constraints} constraint${result.ignored_constraints === 1 ? '' : 's'} left out, listed above)` : m.language_level],
    ] as [string, string | number][],
    core: result.core?.slice(0, LABEL_LIST_LIMIT) ?? null,
    variantCount: result.variant?.length ?? null,
    atomicSets: result.atomic_sets?.length ?? null,
    dead: entries(result.dead?.slice(0, LABEL_LIST_LIMIT) ?? null, result.explanations?.dead ?? {}, result.reasons),
    falseOptional: entries(result.false_optional?.slice(0, LABEL_LIST_LIMIT) ?? null, result.explanations?.false_optional ?? {}, result.reasons),
    /** How many each list has in all (the lists above stop at LABEL_LIST_LIMIT). */
    totals: { core: result.core?.length ?? null, dead: result.dead?.length ?? null, falseOptional: result.false_optional?.length ?? null },
    // Explanations out of time (null) explain nothing: the label lists them among the timeouts.
    voidExplanation: result.satisfiable === false && result.explanations !== null
      ? { explanation: result.explanations.void.map(explanationLine), tree: result.reasons?.void === 'tree' || result.explanations.void.length === 0 }
      : null,
  };
}

export type FactLabel = ReturnType<typeof factLabel>;
