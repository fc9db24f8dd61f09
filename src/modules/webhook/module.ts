import { defineModule } from '../../core/modules.ts';
import { webhookRoutes } from './webhook.routes.ts';

// Coupling rule 7: webhook imports nothing from other modules and nothing imports it.
// It is in modules.json's production list only (decisions section 2).
export const webhookModule = defineModule({
  name: 'webhook',
  requires: [],
  routes: webhookRoutes,
});
