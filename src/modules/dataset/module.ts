import { defineModule } from '../../core/modules.ts';
import { projectPath } from '../../core/config.ts';
import { createDatasetService } from './dataset.service.ts';
import { stagingRoutes } from './staging/staging.routes.ts';
import { uploadRoutes } from './publication/upload.routes.ts';
import { datasetDownloadRoutes, datasetListRoutes } from './pages/dataset.routes.ts';
import { doiPageRoutes } from './pages/doi-page.routes.ts';
import { datasetApiFlowRoutes, datasetApiRoutes } from './rest/dataset.api.ts';
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
    // In the order the routes were registered when they were one file.
    await stagingRoutes(app, ctx);
    await uploadRoutes(app, ctx);
    await datasetListRoutes(app, ctx);
    await doiPageRoutes(app, ctx);
    await datasetDownloadRoutes(app, ctx);
    await datasetApiRoutes(app, ctx);
    await datasetApiFlowRoutes(app, ctx);
    await datasetEditRoutes(app, ctx);
    await datasetVersionRoutes(app, ctx);
  },
  assets: projectPath('src/modules/dataset/assets'),
  scripts: ['js/scripts.js'],
  // Shown to everyone: an anonymous visitor who follows it is asked to log in first.
  nav: { label: 'Upload dataset', path: '/dataset/upload', order: 10, icon: 'cloud-upload' },
  userMenu: [{ label: 'My datasets', path: '/dataset/list', order: 10, icon: 'collection' }],
  seeders: [{ name: 'dataset.samples', priority: 2, run: seedSampleDatasets }],
  hasData: (ctx) => ctx.services.dataset.hasData(),
});
