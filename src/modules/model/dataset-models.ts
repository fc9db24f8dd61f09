// Each model's facts beside its file on the DOI page, and the dataset's CSV of them (issue 24,
// item 7). The DOI page is kept and reused for anonymous visitors (dataset.doi-page.ts) while
// analyses finish at any time, so the facts are not in its HTML: the model module's script
// (dataset-models.js) fetches them from models.json and shows them in each file's row.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ModuleContext, ServiceRegistry } from '../../core/modules.ts';
import { notFound } from '../../core/http/errors.ts';

/** One model's facts as the analysis service gives them (through the registry: model does not require analysis). */
type ModelFacts = Awaited<ReturnType<ServiceRegistry['analysis']['facts']>>[number];

export const CSV_COLUMNS = ['file_id', 'file_name', 'status', 'features', 'constraints', 'configurations', 'satisfiable', 'core', 'dead', 'false_optional'] as const;

/** A CSV field (RFC 4180): quoted when it holds a comma, quote or line break; a formula's first character is defused. */
function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  let text = String(value);
  // A file name such as "=HYPERLINK(…)" must not run as a formula in a spreadsheet.
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function modelsCsv(models: ModelFacts[]): string {
  const rows = models.map((m) => [m.file_id, m.name, m.status, m.features, m.constraints, m.configurations, m.satisfiable, m.core, m.dead, m.false_optional].map(csvField).join(','));
  return `${[CSV_COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}

export async function datasetModelRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  /** The dataset's models as its visitor may see them (the REST API's rule: 404 for another's unsynchronized one). */
  async function facts(request: FastifyRequest): Promise<{ datasetId: number; models: ModelFacts[] }> {
    const datasetId = Number((request.params as { dataset_id: string }).dataset_id);
    if (!Number.isSafeInteger(datasetId) || datasetId < 1 || datasetId > 2147483647) throw notFound('DataSet not found');
    const dataset = await ctx.services.dataset.apiGet(datasetId, request.user?.id ?? null);
    const files = dataset.files.map((f: { file_id: number; file_name: string }) => ({ id: f.file_id, name: f.file_name }));
    const models: ModelFacts[] = ctx.isEnabled('analysis')
      ? await ctx.services.analysis.facts(files)
      : files.map((f) => ({ file_id: f.id, name: f.name, status: 'pending', features: null, constraints: null, configurations: null, satisfiable: null, core: null, dead: null, false_optional: null }));
    return { datasetId, models };
  }

  app.get('/model/dataset/:dataset_id(^\\d+$)/models.json', { config: { json: true } }, async (request, reply) => {
    const { datasetId, models } = await facts(request);
    // Analyses finish at any time: never a cached answer.
    reply.header('cache-control', 'no-store');
    return { dataset_id: datasetId, analysed: ctx.isEnabled('analysis'), models };
  });

  app.get('/model/dataset/:dataset_id(^\\d+$)/models.csv', { config: { json: true } }, async (request, reply) => {
    const { datasetId, models } = await facts(request);
    return reply.header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="dataset-${datasetId}-models.csv"`)
      .type('text/csv; charset=utf-8').send(modelsCsv(models));
  });
}
