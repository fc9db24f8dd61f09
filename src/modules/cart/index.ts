// The cart module's public face: the only file other modules import.
import type { CartService } from './cart.service.ts';

export type { CartService, CartEntry } from './cart.service.ts';
export { CART_FORMATS } from './cart.zip.ts';

declare module '../../core/modules.ts' {
  interface ServiceRegistry {
    cart: CartService;
  }
}
