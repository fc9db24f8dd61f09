import { defineModule } from '../../core/modules.ts';
import { projectPath } from '../../core/config.ts';
import { createModelService } from './model.service.ts';
import { modelRoutes } from './model.routes.ts';

// The model page reads files through hubfile (which brings dataset and featuremodel, coupling
// rule 3). The analysis and modeltool modules are optional: without them the page says that no
// analysis runs, or leaves out the checks and exports.
export const modelModule = defineModule({
  name: 'model',
  requires: ['hubfile', 'dataset', 'featuremodel'],
  createService: (ctx) => createModelService(ctx),
  routes: modelRoutes,
  assets: projectPath('src/modules/model/assets'),
  scripts: ['js/model.js', 'js/dataset-models.js'],
});
