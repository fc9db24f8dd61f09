// /statistics, its downloads and GET /api/v1/statistics (extensions section 8).
import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '../../core/modules.ts';
import { errorSchema } from '../../core/http/api-schemas.ts';
import { MEASURES, statisticsCsv } from './statistics.figures.ts';
import { barChartSvg, histogramSvg } from './statistics.plots.ts';

const fiveNumbersSchema = {
  type: 'object',
  description: 'Five-number summary over the analysed models; null when none is analysed yet.',
  properties: Object.fromEntries(['min', 'q1', 'median', 'q3', 'max'].map((k) => [k, { type: ['number', 'null'] }])),
} as const;

const statisticsSchema = {
  tags: ['statistics'],
  summary: 'The hub in figures',
  description: 'Published datasets, their models, views and downloads, and the corpus of analysed models (five-number summaries, histograms, language levels, anomalies).',
  response: {
    200: {
      type: 'object',
      additionalProperties: true,
      required: ['datasets', 'models', 'views', 'downloads', 'features', 'constraints', 'depth', 'configuration_digits', 'language_levels', 'with_dead', 'void'],
      properties: {
        datasets: { type: 'integer' }, models: { type: 'integer' }, analysed_models: { type: 'integer' },
        views: { type: 'integer' }, downloads: { type: 'integer' },
        features: fiveNumbersSchema, constraints: fiveNumbersSchema, depth: fiveNumbersSchema, configuration_digits: fiveNumbersSchema,
        language_levels: { type: 'object', additionalProperties: { type: 'integer' } },
        with_dead: { type: 'integer' }, void: { type: 'integer' },
        histograms: { type: 'object', additionalProperties: { type: 'array', items: { type: 'object', properties: { from: { type: 'integer' }, to: { type: 'integer' }, count: { type: 'integer' } } } } },
        monthly: { type: 'array', items: { type: 'object', properties: { month: { type: 'string' }, datasets: { type: 'integer' }, views: { type: 'integer' }, downloads: { type: 'integer' } } } },
        generated_at: { type: 'string' },
      },
    },
    429: errorSchema,
  },
} as const;

/** The last two years of months on the page (the downloads hold them all). */
const MONTHS_SHOWN = 24;
const SERIES = [
  { key: 'datasets', label: 'Datasets published' },
  { key: 'views', label: 'Dataset views' },
  { key: 'downloads', label: 'Dataset downloads' },
] as const;

export async function statisticsRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const service = ctx.services.statistics;

  app.get('/api/v1/statistics', { schema: statisticsSchema }, async (_request, reply) => {
    return reply.header('cache-control', 'no-cache').send(await service.current());
  });

  app.get('/statistics/statistics.json', async (_request, reply) => {
    const stats = await service.current();
    return reply.header('content-type', 'application/json; charset=utf-8')
      .header('content-disposition', 'attachment; filename="hub-statistics.json"')
      .send(JSON.stringify(stats, null, 2));
  });

  app.get('/statistics/statistics.csv', async (_request, reply) => {
    const stats = await service.current();
    return reply.header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="hub-statistics.csv"')
      .send(statisticsCsv(stats));
  });

  app.get('/statistics', async (_request, reply) => {
    const stats = await service.current();
    const months = stats.monthly.slice(-MONTHS_SHOWN);
    const measures = MEASURES.map((m) => ({
      key: m.key, label: m.label, summary: stats[m.key], bins: stats.histograms[m.key],
      svg: histogramSvg(`Histogram of ${m.label.toLowerCase()}`, stats.histograms[m.key], stats[m.key]),
    }));
    const series = SERIES.map(({ key, label }) => ({
      key, label, svg: barChartSvg(`${label} per month`, months.map((m) => ({ label: m.month, value: m[key] }))),
    }));
    return reply.page('statistics/views/statistics.njk', {
      title: 'Statistics', stats, measures, series, months,
      languageLevels: Object.entries(stats.language_levels).sort((a, b) => b[1] - a[1]),
    });
  });
}
