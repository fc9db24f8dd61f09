import { defineModule } from '../../core/modules.ts';
import { projectPath } from '../../core/config.ts';
import { createConfiguratorService } from './configurator.service.ts';
import { configuratorRoutes } from './configurator.routes.ts';
import './configurator.tables.ts';

// The configurator and samples (extensions section 6, "In the hub"). Reads files through hubfile;
// optional: without it the model page shows no configurator and the API has no such routes.
export const configuratorModule = defineModule({
  name: 'configurator',
  requires: ['hubfile', 'dataset', 'featuremodel'],
  createService: (ctx) => createConfiguratorService(ctx),
  routes: configuratorRoutes,
  assets: projectPath('src/modules/configurator/assets'),
});
