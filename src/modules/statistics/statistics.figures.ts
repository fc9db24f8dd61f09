// The statistics of extensions section 8 computed from grouped counts: five-number summaries,
// histogram bins, the JSON document and its CSV form. Pure functions, no database.
import type { ServiceRegistry } from '../../core/modules.ts';
import type { MonthlyActivity } from '../dataset/index.ts';

/** The corpus's grouped counts, as the analysis service gives them (through the registry: statistics does not require analysis). */
export type CorpusCounts = Awaited<ReturnType<ServiceRegistry['analysis']['corpusCounts']>>;
type ValueCounts = CorpusCounts['features'];

export interface FiveNumbers { min: number | null; q1: number | null; median: number | null; q3: number | null; max: number | null }
export interface HistogramBin { from: number; to: number; count: number }

export const MEASURES = [
  { key: 'features', label: 'Features' },
  { key: 'constraints', label: 'Constraints' },
  { key: 'depth', label: 'Depth of the feature tree' },
  { key: 'configuration_digits', label: 'Configurations (number of digits)' },
] as const;
export type MeasureKey = (typeof MEASURES)[number]['key'];

export interface Statistics {
  datasets: number;
  models: number;
  analysed_models: number;
  views: number;
  downloads: number;
  features: FiveNumbers;
  constraints: FiveNumbers;
  depth: FiveNumbers;
  configuration_digits: FiveNumbers;
  language_levels: Record<string, number>;
  with_dead: number;
  void: number;
  histograms: Record<MeasureKey, HistogramBin[]>;
  monthly: MonthlyActivity[];
  generated_at: string;
}

/** The value at sorted position `index` (0-based) of the multiset described by `counts`. */
function valueAt(counts: ValueCounts, index: number): number {
  let seen = 0;
  for (const { value, count } of counts) {
    seen += count;
    if (index < seen) return value;
  }
  return counts[counts.length - 1]!.value;
}

/**
 * Quartiles by linear interpolation between closest ranks (position p·(n−1), the default of R and
 * NumPy), so that the figures can be checked against either. Nulls for no values.
 */
export function fiveNumbers(counts: ValueCounts): FiveNumbers {
  const n = counts.reduce((sum, c) => sum + c.count, 0);
  if (n === 0) return { min: null, q1: null, median: null, q3: null, max: null };
  const quantile = (p: number) => {
    const position = p * (n - 1);
    const below = valueAt(counts, Math.floor(position));
    const above = valueAt(counts, Math.ceil(position));
    return below + (above - below) * (position - Math.floor(position));
  };
  return { min: counts[0]!.value, q1: quantile(0.25), median: quantile(0.5), q3: quantile(0.75), max: counts[counts.length - 1]!.value };
}

const MAX_BINS = 20;

/** A bin width of 1, 2 or 5 times a power of ten, so that bin edges read well. */
function niceWidth(span: number): number {
  const raw = span / MAX_BINS;
  if (raw <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const step of [1, 2, 5, 10]) if (step * power >= raw) return step * power;
  return 10 * power;
}

/** Integer bins [from, to] of equal width covering min..max; one bin per value when there are few. */
export function histogram(counts: ValueCounts): HistogramBin[] {
  if (counts.length === 0) return [];
  const min = counts[0]!.value;
  const max = counts[counts.length - 1]!.value;
  const width = niceWidth(max - min + 1);
  const start = Math.floor(min / width) * width;
  const bins: HistogramBin[] = [];
  for (let from = start; from <= max; from += width) bins.push({ from, to: from + width - 1, count: 0 });
  for (const { value, count } of counts) bins[Math.floor((value - start) / width)]!.count += count;
  return bins;
}

export function buildStatistics(
  hub: { datasets: number; views: number; downloads: number },
  corpus: CorpusCounts,
  monthly: MonthlyActivity[],
  now: Date,
): Statistics {
  const measures: Record<MeasureKey, ValueCounts> = {
    features: corpus.features, constraints: corpus.constraints, depth: corpus.depth, configuration_digits: corpus.configurationDigits,
  };
  return {
    datasets: hub.datasets,
    models: corpus.models,
    analysed_models: corpus.analysed,
    views: hub.views,
    downloads: hub.downloads,
    features: fiveNumbers(measures.features),
    constraints: fiveNumbers(measures.constraints),
    depth: fiveNumbers(measures.depth),
    configuration_digits: fiveNumbers(measures.configuration_digits),
    language_levels: corpus.languageLevels,
    with_dead: corpus.withDead,
    void: corpus.void,
    histograms: {
      features: histogram(measures.features), constraints: histogram(measures.constraints),
      depth: histogram(measures.depth), configuration_digits: histogram(measures.configuration_digits),
    },
    monthly,
    generated_at: now.toISOString(),
  };
}

const csvField = (value: string | number | null) => {
  const text = value === null ? '' : String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** One row per figure: `section,key,value` (a long table any spreadsheet can pivot). */
export function statisticsCsv(stats: Statistics): string {
  const rows: [string, string, string | number | null][] = [];
  for (const key of ['datasets', 'models', 'analysed_models', 'views', 'downloads', 'with_dead', 'void'] as const) rows.push(['hub', key, stats[key]]);
  for (const { key } of MEASURES) {
    for (const [name, value] of Object.entries(stats[key])) rows.push([key, name, value]);
  }
  for (const [level, count] of Object.entries(stats.language_levels)) rows.push(['language_levels', level, count]);
  for (const { key } of MEASURES) {
    for (const bin of stats.histograms[key]) rows.push([`histogram:${key}`, bin.from === bin.to ? `${bin.from}` : `${bin.from}-${bin.to}`, bin.count]);
  }
  for (const month of stats.monthly) {
    for (const series of ['datasets', 'views', 'downloads'] as const) rows.push([`monthly:${series}`, month.month, month[series]]);
  }
  return ['section,key,value', ...rows.map((row) => row.map(csvField).join(','))].join('\r\n') + '\r\n';
}
