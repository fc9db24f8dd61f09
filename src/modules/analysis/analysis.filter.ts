// The `models` object of POST /explore (extensions section 1, "Search by model
// characteristics"), checked at the edge: a value of the wrong type, a min above its max, an
// unknown language level or an unknown field is a bad value (400 {"message"}).
import { badRequest } from '../../core/http/errors.ts';
import { normalizeText } from '../../core/text.ts';

export const LANGUAGE_LEVELS = ['boolean', 'arithmetic', 'type'] as const;

export interface IntRange { min?: number; max?: number }
/** Bounds as exact decimal strings without leading zeros. */
export interface CountRange { min?: string; max?: string }

export interface ModelFilter {
  features?: IntRange;
  constraints?: IntRange;
  depth?: IntRange;
  configurations?: CountRange;
  satisfiable?: boolean;
  has_dead?: boolean;
  language_level?: (typeof LANGUAGE_LEVELS)[number];
  /** Normalized (accents, case, punctuation folded like explore's text). */
  feature?: string;
}

const MAX_INT = 2_147_483_647;
/** Longest count bound: far beyond any model's count, short enough to stay a cheap parameter. */
const MAX_DIGITS = 100_000;
const FIELDS = ['features', 'constraints', 'depth', 'configurations', 'satisfiable', 'has_dead', 'language_level', 'feature'];

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Each field in the words of the explore form, so that a message reads the same on the page and
 * to a script ("Configurations at least must be ...", not "models.configurations.min must be ...").
 */
const LABELS: Record<string, string> = {
  features: 'Features', constraints: 'Constraints', depth: 'Tree depth', configurations: 'Configurations',
  satisfiable: 'Satisfiable', has_dead: 'Dead features', language_level: 'Language level', feature: 'Feature name contains',
};
const BOUND_WORDS = { min: 'at least', max: 'at most' } as const;

function rangeOf<T>(name: string, raw: unknown, value: (bound: string, v: unknown) => T, above: (a: T, b: T) => boolean): { min?: T; max?: T } | undefined {
  if (raw === undefined || raw === null) return undefined;
  const label = LABELS[name]!;
  if (!isObject(raw)) throw badRequest(`${label} must be given as a range such as {"min": 1, "max": 10}`);
  const unknown = Object.keys(raw).filter((k) => k !== 'min' && k !== 'max');
  if (unknown.length > 0) throw badRequest(`${label}: "${unknown[0]}" is not a bound (a range has only "min" and "max")`);
  const range: { min?: T; max?: T } = {};
  if (raw.min !== undefined && raw.min !== null) range.min = value(`${label} ${BOUND_WORDS.min}`, raw.min);
  if (raw.max !== undefined && raw.max !== null) range.max = value(`${label} ${BOUND_WORDS.max}`, raw.max);
  if (range.min !== undefined && range.max !== undefined && above(range.min, range.max)) {
    throw badRequest(`${label}: the min is above the max`);
  }
  return range.min === undefined && range.max === undefined ? undefined : range;
}

function wholeNumber(name: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > MAX_INT) throw badRequest(`${name} must be a whole number from 0 to ${MAX_INT}`);
  return v;
}

/** A count bound: a decimal string ("1000") or a power of ten ("1e30"), as an exact decimal string. */
export function countBound(name: string, v: unknown): string {
  if (typeof v !== 'string') throw badRequest(`${name} must be a number written as text: a decimal number such as 1000 or a power of ten such as 1e30`);
  const text = v.trim();
  let digits: string;
  const power = /^1[eE]\+?(\d{1,6})$/.exec(text);
  if (power) {
    const exponent = Number(power[1]);
    if (exponent >= MAX_DIGITS) throw badRequest(`${name} is too large`);
    digits = `1${'0'.repeat(exponent)}`;
  } else if (/^\d+$/.test(text)) {
    digits = text.replace(/^0+(?=\d)/, '');
    if (digits.length > MAX_DIGITS) throw badRequest(`${name} is too large`);
  } else {
    throw badRequest(`${name} must be a decimal number such as 1000 or a power of ten such as 1e30`);
  }
  return digits;
}

/** Compares two exact decimal strings without leading zeros. */
export function compareCounts(a: string, b: string): number {
  return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
}

/** The filter, or null when none was given (a missing, null or empty `models`). */
export function parseModelFilter(raw: unknown): ModelFilter | null {
  if (raw === undefined || raw === null) return null;
  if (!isObject(raw)) throw badRequest('The model characteristics must be an object such as {"features": {"min": 10}}');
  const unknown = Object.keys(raw).filter((k) => !FIELDS.includes(k));
  if (unknown.length > 0) throw badRequest(`"${unknown[0]}" is not a model characteristic; they are ${FIELDS.join(', ')}`);
  const filter: ModelFilter = {};
  for (const name of ['features', 'constraints', 'depth'] as const) {
    const range = rangeOf(name, raw[name], wholeNumber, (a, b) => a > b);
    if (range) filter[name] = range;
  }
  const counts = rangeOf('configurations', raw.configurations, countBound, (a, b) => compareCounts(a, b) > 0);
  if (counts) filter.configurations = counts;
  for (const name of ['satisfiable', 'has_dead'] as const) {
    const value = raw[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'boolean') throw badRequest(`${LABELS[name]} must be yes (true) or no (false)`);
    filter[name] = value;
  }
  const level = raw.language_level;
  if (level !== undefined && level !== null) {
    if (typeof level !== 'string' || !(LANGUAGE_LEVELS as readonly string[]).includes(level)) {
      throw badRequest(`Language level must be one of ${LANGUAGE_LEVELS.join(', ')}`);
    }
    filter.language_level = level as ModelFilter['language_level'];
  }
  const feature = raw.feature;
  if (feature !== undefined && feature !== null) {
    if (typeof feature !== 'string') throw badRequest('Feature name contains must be text');
    if (feature.length > 200) throw badRequest('Feature name contains may hold at most 200 characters');
    // A name made only of punctuation folds to nothing, like a blank text query: no condition.
    const folded = normalizeText(feature);
    if (folded) filter.feature = folded;
  }
  return Object.keys(filter).length > 0 ? filter : null;
}
