import { defineModule } from '../../core/modules.ts';
import { createCartService } from './cart.service.ts';
import { cartRoutes } from './cart.routes.ts';
import './cart.tables.ts';

// The cart (extensions section 8): files from any dataset, downloaded as one zip in chosen
// formats. Files, datasets and conversions come from their modules' services; citations from the
// citation module when it is enabled.
export const cartModule = defineModule({
  name: 'cart',
  requires: ['dataset', 'hubfile', 'modeltool'],
  createService: (ctx) => createCartService(ctx),
  routes: cartRoutes,
  nav: { label: 'Cart', path: '/cart', order: 40, icon: 'cart' },
});
