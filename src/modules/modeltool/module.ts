import { defineModule } from '../../core/modules.ts';
import { projectPath } from '../../core/config.ts';
import { createModeltoolService } from './modeltool.service.ts';
import { modeltoolRoutes } from './modeltool.routes.ts';

// It reads stored files only through the hubfile service; it has no page of its own.
export const modeltoolModule = defineModule({
  name: 'modeltool',
  requires: ['hubfile'],
  createService: (ctx) => createModeltoolService(ctx),
  routes: modeltoolRoutes,
  assets: projectPath('src/modules/modeltool/assets'),
  scripts: ['js/scripts.js'],
});
