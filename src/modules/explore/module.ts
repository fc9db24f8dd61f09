import { defineModule } from '../../core/modules.ts';
import { projectPath } from '../../core/config.ts';
import { createExploreService } from './explore.service.ts';
import { exploreRoutes } from './explore.routes.ts';
import './explore.tables.ts';

// Coupling rule 7: disabling explore removes its page and navigation entry, nothing else.
export const exploreModule = defineModule({
  name: 'explore',
  requires: ['dataset'],
  createService: (ctx) => createExploreService(ctx),
  routes: exploreRoutes,
  assets: projectPath('src/modules/explore/assets'),
  scripts: ['js/scripts.js'],
  nav: { label: 'Explore', path: '/explore', order: 20, icon: 'search' },
});
