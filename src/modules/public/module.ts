import { defineModule } from '../../core/modules.ts';
import { publicRoutes } from './public.routes.ts';

export const publicModule = defineModule({
  name: 'public',
  requires: [],
  routes: publicRoutes,
});
