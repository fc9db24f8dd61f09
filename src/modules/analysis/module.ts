import { defineModule } from '../../core/modules.ts';
import { createAnalysisService } from './analysis.service.ts';
import { analysisRoutes } from './analysis.routes.ts';
import './analysis.tables.ts';

// Optional: with analysis left out of modules.json, datasets, explore and the API work as before
// (without model summaries and model filters). It reads files and datasets through their services.
export const analysisModule = defineModule({
  name: 'analysis',
  requires: ['dataset', 'featuremodel', 'hubfile'],
  createService: (ctx) => {
    const service = createAnalysisService(ctx);
    // Every saved dataset (upload, seeding, API) has its models queued; the dataset module does not know this module.
    ctx.events.on('dataset.saved', async ({ datasetId }: { datasetId: number }) => { await service.enqueueDatasets([datasetId]); });
    ctx.events.on('dataset.deleted', async ({ datasetId }: { datasetId: number }) => service.forgetDataset(datasetId));
    return service;
  },
  routes: analysisRoutes,
});
