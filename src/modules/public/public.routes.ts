// The landing page `public.index` at `/` (decisions section 3): public statistics counted in
// the database and the latest synchronized datasets. The landing module requires nothing, so
// each figure is shown only when the module that owns it is enabled.
import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '../../core/modules.ts';

const LATEST = 6;

export async function publicRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  // Browsers, feed readers and bookmarks ask /favicon.ico whatever the page links (issue 10).
  app.get('/favicon.ico', async (_request, reply) => reply.redirect('/static/favicon.svg', 301));

  app.get('/', async (_request, reply) => {
    let statistics: Record<string, number> | null = null;
    let latest: unknown[] = [];
    if (ctx.isEnabled('dataset')) {
      const dataset = ctx.services.dataset;
      const [datasets, models, files, recent] = await Promise.all([
        dataset.statistics(),
        ctx.isEnabled('featuremodel') ? ctx.services.featuremodel.countAll() : Promise.resolve(0),
        ctx.isEnabled('hubfile') ? ctx.services.hubfile.totals() : Promise.resolve({ views: 0, downloads: 0 }),
        dataset.latestSynchronized(LATEST),
      ]);
      statistics = {
        ...datasets,
        featureModels: models,
        fileViews: files.views,
        fileDownloads: files.downloads,
      };
      latest = recent;
    }
    return reply.page('public/views/index.njk', { title: 'Home', statistics, latest });
  });
}
