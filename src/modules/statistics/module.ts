import { defineModule } from '../../core/modules.ts';
import { projectPath } from '../../core/config.ts';
import { createStatisticsService } from './statistics.service.ts';
import { statisticsRoutes } from './statistics.routes.ts';

// The hub in figures (extensions section 8): computed from the analysis module's stored results
// and the dataset module's counts, both read through their services. Without the analysis module
// (optional everywhere) the page shows the hub's own figures and no models.
export const statisticsModule = defineModule({
  name: 'statistics',
  requires: ['dataset'],
  createService: (ctx) => {
    const service = createStatisticsService(ctx);
    ctx.events.on('dataset.saved', () => service.datasetsChanged());
    ctx.events.on('dataset.deleted', () => service.datasetsChanged());
    return service;
  },
  routes: statisticsRoutes,
  assets: projectPath('src/modules/statistics/assets'),
  nav: { label: 'Statistics', path: '/statistics', order: 30, icon: 'bar-chart' },
});
