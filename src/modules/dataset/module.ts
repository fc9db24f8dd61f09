import { defineModule } from '../../core/modules.ts';
import { projectPath } from '../../core/config.ts';
import { createDatasetService } from './dataset.service.ts';
import { datasetRoutes } from './pages/dataset.routes.ts';
import { datasetApiRoutes } from './rest/dataset.api.ts';
import { datasetEditRoutes } from './lifecycle/dataset.edit.routes.ts';
import { datasetVersionRoutes } from './lifecycle/dataset.versions.routes.ts';
import { seedSampleDatasets } from './dataset.seed.ts';

export const datasetModule = defineModule({
  name: 'dataset',
  // Coupling rule 3: dataset, featuremodel and hubfile each use the other two, deployed with auth.
  // The deposit client is not required: it is imported when an upload pushes (rule 6).
  requires: ['auth', 'featuremodel', 'hubfile'],
  createService: (ctx) => createDatasetService(ctx),
  routes: async (app, ctx) => {
    await datasetRoutes(app, ctx);
    await datasetApiRoutes(app, ctx);
    await datasetEditRoutes(app, ctx);
    await datasetVersionRoutes(app, ctx);
  },
  assets: projectPath('src/modules/dataset/assets'),
  scripts: ['js/scripts.js'],
  // Shown to everyone: an anonymous visitor who follows it is asked to log in first.
  nav: { label: 'Upload dataset', path: '/dataset/upload', order: 10, icon: 'cloud-upload' },
  seeders: [{ name: 'dataset.samples', priority: 2, run: seedSampleDatasets }],
  hasData: (ctx) => ctx.services.dataset.hasData(),
});
