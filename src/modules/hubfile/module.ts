import { defineModule } from '../../core/modules.ts';
import { projectPath } from '../../core/config.ts';
import { createHubfileService } from './hubfile.service.ts';
import { hubfileRoutes } from './hubfile.routes.ts';
import './hubfile.tables.ts';

// Coupling rule 3: dataset, featuremodel and hubfile each use the other two, deployed with auth.
export const hubfileModule = defineModule({
  name: 'hubfile',
  requires: ['dataset', 'featuremodel', 'auth'],
  createService: (ctx) => createHubfileService(ctx),
  routes: hubfileRoutes,
  assets: projectPath('src/modules/hubfile/assets'),
  scripts: ['js/scripts.js'],
});
