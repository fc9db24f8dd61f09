// The statistics service (extensions section 8): the hub's figures, kept between requests. The
// corpus figures come from the analysis module's stored results and move only when datasets or
// analyses change: the kept document is rebuilt when a dataset is saved or deleted on this
// instance, when the analyses' change stamp moves (any instance), and after a minute at most for
// the view and download counts, which move with every visit and are not worth a rebuild each.
// A hub's figures are current: they are kept for KEEP_FACTOR times as long as their rebuild took
// (a tenth of a second on a small hub; a dataset saved or deleted, or an analysis, ends that at
// once), and a rebuild that the last one says is quick (under WAIT_FOR_BUILD_MS, a hub of some ten
// thousand datasets) is waited for, so that a dataset just published is counted in the next
// answer. The factor bounds the share of the server's time that requests for the figures can
// take by asking again and again. Only a large hub, whose rebuild takes long (about a second at
// 100 000 datasets), keeps its figures for up to KEPT_MS and answers the kept ones while the new
// ones are built, so that no request waits for it.
// Each operation is an exported function taking StatisticsDeps first, bound once below.
import type { ModuleContext } from '../../core/modules.ts';
import { bindOperations } from '../../core/operations.ts';
import { buildStatistics, type CorpusCounts, type Statistics } from './statistics.figures.ts';

export const KEPT_MS = 60_000;
/** A rebuild that took less than this last time is waited for. */
export const WAIT_FOR_BUILD_MS = 500;
/** Kept figures are answered for this many times their rebuild's duration (KEPT_MS at most). */
export const KEEP_FACTOR = 20;

export interface Kept { stats: Statistics; stamp: string; builtAt: number; generation: number; buildMs: number }

/** The corpus without the analysis module: every module works without it, and so do the hub's own figures. */
const NO_ANALYSES: CorpusCounts = {
  models: 0, analysed: 0, features: [], constraints: [], depth: [], configurationDigits: [], languageLevels: {}, withDead: 0, void: 0,
};

/** What the operations share: the context, the clock, and the kept document with its rebuild. */
export interface StatisticsDeps {
  ctx: ModuleContext;
  clock: () => number;
  analysisOn: boolean;
  kept?: Kept;
  building?: Promise<Statistics>;
  /** Raised by the dataset events: a document built from reads before the event is not current. */
  generation: number;
}

async function build(d: StatisticsDeps, stamp: string): Promise<Statistics> {
  const startedAt = d.generation;
  const began = d.clock();
  const dataset = d.ctx.services.dataset;
  const hub = await dataset.statistics();
  const corpus = d.analysisOn ? await d.ctx.services.analysis.corpusCounts(dataset.unpublishedDatasetIds()) : NO_ANALYSES;
  const monthly = await dataset.monthlyActivity();
  const now = d.clock();
  const stats = buildStatistics(
    { datasets: hub.synchronizedDatasets, views: hub.datasetViews, downloads: hub.datasetDownloads }, corpus, monthly, new Date(now),
  );
  d.kept = { stats, stamp, builtAt: now, generation: startedAt, buildMs: now - began };
  return stats;
}

function rebuild(d: StatisticsDeps, stamp: string): Promise<Statistics> {
  // Requests arriving during a build share it.
  d.building ??= build(d, stamp).finally(() => { d.building = undefined; });
  return d.building;
}

/** Marks the kept figures stale (a dataset was saved or deleted). */
export function datasetsChanged(d: StatisticsDeps): void {
  d.generation++;
}

export async function current(d: StatisticsDeps): Promise<Statistics> {
  const stamp = d.analysisOn ? await d.ctx.services.analysis.corpusStamp() : '';
  const kept = d.kept;
  if (kept && kept.stamp === stamp && kept.generation === d.generation && d.clock() - kept.builtAt < keptFor(kept)) return kept.stats;
  const next = rebuild(d, stamp);
  if (!kept || kept.buildMs < WAIT_FOR_BUILD_MS) return next;
  next.catch((error) => d.ctx.log.error({ err: error }, 'the statistics could not be rebuilt'));
  return kept.stats;
}

/** How long kept figures are answered without a rebuild: briefly when a rebuild is quick. */
function keptFor(kept: Kept): number {
  return Math.min(KEPT_MS, KEEP_FACTOR * kept.buildMs);
}

/** Resolves once no rebuild is under way (tests and the benchmark wait for the new figures with it). */
export async function settled(d: StatisticsDeps): Promise<void> {
  await d.building?.catch(() => undefined);
}

export function createStatisticsService(ctx: ModuleContext, clock: () => number = Date.now) {
  const d: StatisticsDeps = { ctx, clock, analysisOn: ctx.isEnabled('analysis'), generation: 0 };
  return bindOperations(d, { datasetsChanged, current, settled });
}

export type StatisticsService = ReturnType<typeof createStatisticsService>;
