// The cart module's public face: the only file other modules import.
import type { CartService } from './cart.service.ts';

export type { CartService, CartEntry } from './cart.service.ts';
export { CART_FORMATS, UNAVAILABLE_FORMATS, type CartFormat } from './cart.zip.ts';
// Collections send their members' zip with the cart's code (extensions section 13).
export { askedFormats, formatsOrPageError, sendZip } from './cart.download.ts';

declare module '../../core/modules.ts' {
  interface ServiceRegistry {
    cart: CartService;
  }
}
