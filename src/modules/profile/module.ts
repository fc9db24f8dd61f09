import { defineModule } from '../../core/modules.ts';
import { projectPath } from '../../core/config.ts';
import { createProfileService } from './profile.service.ts';
import { profileRoutes } from './profile.routes.ts';

export const profileModule = defineModule({
  name: 'profile',
  // Coupling rules 1 and 4: profile needs auth, and dataset for its summary page.
  requires: ['auth', 'dataset'],
  createService: (ctx) => createProfileService(ctx),
  routes: profileRoutes,
  assets: projectPath('src/modules/profile/assets'),
  scripts: ['js/scripts.js'],
});
