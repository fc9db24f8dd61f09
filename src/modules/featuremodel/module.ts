import { defineModule } from '../../core/modules.ts';
import { createFeatureModelService } from './featuremodel.service.ts';
import './featuremodel.tables.ts';

// Coupling rule 3: dataset, featuremodel and hubfile each use the other two, deployed with auth.
export const featuremodelModule = defineModule({
  name: 'featuremodel',
  requires: ['dataset', 'hubfile', 'auth'],
  createService: (ctx) => createFeatureModelService(ctx),
  hasData: (ctx) => ctx.services.featuremodel.hasData(),
});
