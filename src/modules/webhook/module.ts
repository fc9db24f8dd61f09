import { defineModule } from '../../core/modules.ts';
import { projectPath } from '../../core/config.ts';
import { webhookRoutes } from './webhook.routes.ts';

// Coupling rule 7: webhook imports nothing from other modules and nothing imports it.
// It is in modules.json's production list only (decisions section 2).
export const webhookModule = defineModule({
  name: 'webhook',
  requires: [],
  routes: webhookRoutes,
  // Every feature has an assets route and a script on every page (specification, Endpoints).
  assets: projectPath('src/modules/webhook/assets'),
  scripts: ['js/scripts.js'],
});
