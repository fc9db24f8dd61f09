// The statistics service (extensions section 8): the hub's figures, kept between requests. The
// corpus figures come from the analysis module's stored results and move only when datasets or
// analyses change: the kept document is rebuilt when a dataset is saved or deleted on this
// instance, when the analyses' change stamp moves (any instance), and after a minute at most for
// the view and download counts, which move with every visit and are not worth a rebuild each.
// Once a document exists, requests never wait for a rebuild: they get the kept one while the new
// one is built (about a second at 100 000 datasets), and the next request gets the new one.
import type { ModuleContext } from '../../core/modules.ts';
import type { CorpusCounts } from '../analysis/index.ts';
import { buildStatistics, type Statistics } from './statistics.figures.ts';

export const KEPT_MS = 60_000;

interface Kept { stats: Statistics; stamp: string; builtAt: number; generation: number }

/** The corpus without the analysis module: every module works without it, and so do the hub's own figures. */
const NO_ANALYSES: CorpusCounts = {
  models: 0, analysed: 0, features: [], constraints: [], depth: [], configurationDigits: [], languageLevels: {}, withDead: 0, void: 0,
};

export function createStatisticsService(ctx: ModuleContext, clock: () => number = Date.now) {
  let kept: Kept | undefined;
  let building: Promise<Statistics> | undefined;
  // Raised by the dataset events: a document built from reads before the event is not current.
  let generation = 0;
  const analysisOn = ctx.isEnabled('analysis');

  async function build(stamp: string): Promise<Statistics> {
    const startedAt = generation;
    const dataset = ctx.services.dataset;
    const hub = await dataset.statistics();
    const corpus = analysisOn ? await ctx.services.analysis.corpusCounts(dataset.unpublishedDatasetIds()) : NO_ANALYSES;
    const monthly = await dataset.monthlyActivity();
    const now = clock();
    const stats = buildStatistics(
      { datasets: hub.synchronizedDatasets, views: hub.datasetViews, downloads: hub.datasetDownloads }, corpus, monthly, new Date(now),
    );
    kept = { stats, stamp, builtAt: now, generation: startedAt };
    return stats;
  }

  function rebuild(stamp: string): Promise<Statistics> {
    // Requests arriving during a build share it.
    building ??= build(stamp).finally(() => { building = undefined; });
    return building;
  }

  return {
    /** Marks the kept figures stale (a dataset was saved or deleted). */
    datasetsChanged(): void {
      generation++;
    },

    async current(): Promise<Statistics> {
      const stamp = analysisOn ? await ctx.services.analysis.corpusStamp() : '';
      if (kept && kept.stamp === stamp && kept.generation === generation && clock() - kept.builtAt < KEPT_MS) return kept.stats;
      const next = rebuild(stamp);
      if (!kept) return next;
      next.catch((error) => ctx.log.error({ err: error }, 'the statistics could not be rebuilt'));
      return kept.stats;
    },

    /** Resolves once no rebuild is under way (tests and the benchmark wait for the new figures with it). */
    async settled(): Promise<void> {
      await building?.catch(() => undefined);
    },
  };
}

export type StatisticsService = ReturnType<typeof createStatisticsService>;
