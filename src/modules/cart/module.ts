import { defineModule, type HubEventPayloads } from '../../core/modules.ts';
import { createCartService } from './cart.service.ts';
import { carryVisitorCart, cartRoutes, type SignedIn } from './cart.routes.ts';
import './cart.tables.ts';

// Auth's event by name: an import of auth would need auth among `requires`, and without auth
// nobody signs in. Auth declares the name and its payload in HubEventPayloads, which keeps this
// name in step with auth's.
const signedIn = 'auth.signedIn' satisfies keyof HubEventPayloads;

// The cart (extensions section 8): files from any dataset, downloaded as one zip in chosen
// formats. Files, datasets and conversions come from their modules' services; citations from the
// citation module when it is enabled.
export const cartModule = defineModule({
  name: 'cart',
  requires: ['dataset', 'hubfile', 'modeltool'],
  createService: (ctx) => {
    const service = createCartService(ctx);
    ctx.events.on(signedIn, (event: SignedIn) => carryVisitorCart(service, event));
    return service;
  },
  routes: cartRoutes,
  nav: { label: 'Cart', path: '/cart', order: 40, icon: 'cart' },
});
