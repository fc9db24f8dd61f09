import fastifyMultipart from '@fastify/multipart';
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
    // The routes that read multipart bodies (staging, the upload and edit forms, the API's file
    // upload) have the multipart plugin in a scope of their own: its two hooks, run on every
    // request of the scope they are in, cost every other page (a DOI page, explore) 2-3 µs of a
    // request's 60-100, measured on a bare Fastify server.
    await app.register(async (uploads) => {
      await uploads.register(fastifyMultipart, { limits: { fileSize: ctx.config.maxUploadBytes, files: 1, fields: 50 } });
      await stagingRoutes(uploads, ctx);
      await uploadRoutes(uploads, ctx);
      await datasetApiFlowRoutes(uploads, ctx);
      await datasetEditRoutes(uploads, ctx);
    });
    await datasetListRoutes(app, ctx);
    await doiPageRoutes(app, ctx);
    await datasetDownloadRoutes(app, ctx);
    await datasetApiRoutes(app, ctx);
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
