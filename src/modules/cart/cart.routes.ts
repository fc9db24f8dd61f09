// The cart's routes (extensions section 8): POST /cart/add and /cart/remove (field `file_id`,
// CSRF checked by the global guard), GET /cart and GET /cart/download?format=…(repeatable).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { HubEventPayloads, ModuleContext } from '../../core/modules.ts';
import { badRequest, badField } from '../../core/http/errors.ts';
import { flash } from '../../core/http/context.ts';
import { parseFileId } from '../hubfile/index.ts';
import { MAX_CART_FILES, type CartEntry, type CartService } from './cart.service.ts';
import { CART_FORMATS, UNAVAILABLE_FORMATS, type CartFormat } from './cart.zip.ts';
import { formatsOrPageError, sendZip } from './cart.download.ts';

declare module 'fastify' {
  interface Session {
    /** A visitor's cart: file ids in the order added (a signed-in user's is in cart_item). */
    cart?: number[];
    /** Files of the visitor's cart that did not fit in the account's at sign-in, told once on /cart. */
    cartLeftOut?: number;
  }
}

/** Auth's sign-in event, as auth declares it (cart does not require auth, so imports nothing of it). */
export type SignedIn = HubEventPayloads['auth.signedIn'];

/**
 * Sign-in (auth's `auth.signedIn`): the visitor's cart, kept in the session that has just ended,
 * joins the account's. The signed-in session holds no cart of its own, and logging out ends it,
 * so the next visitor on that browser starts empty.
 */
export async function carryVisitorCart(cart: CartService, { userId, visitor, session }: SignedIn): Promise<void> {
  const fileIds = visitor.cart ?? [];
  if (fileIds.length === 0) return;
  const { leftOut } = await cart.mergeIntoUser(userId, fileIds);
  if (leftOut > 0) session.cartLeftOut = leftOut;
}

/** Where to go back to after a form: a path on this site only (never `//host`), else the cart. */
function returnPath(raw: unknown): string {
  return typeof raw === 'string' && /^\/(?![/\\])[^\s]*$/.test(raw) ? raw : '/cart';
}

/** The cart's file ids: the account's for a signed-in user, the session's for a visitor. */
async function fileIdsOf(cart: CartService, request: FastifyRequest): Promise<number[]> {
  return request.user ? cart.userFileIds(request.user.id) : request.session.cart ?? [];
}

function fileIdField(request: FastifyRequest): number {
  const raw = (request.body as Record<string, unknown> | undefined)?.file_id;
  // A JSON body gives the id as a number ({"file_id": 3}); a form gives text. Only a whole
  // number is read as text, so 3.5, 1e3, -3 or NaN stay bad values with the same answer.
  const id = parseFileId(typeof raw === 'number' && Number.isInteger(raw) ? String(raw) : raw);
  if (id === undefined) throw badField('file_id', 'Give the file to add or remove as file_id, a file id.');
  return id;
}

async function addToCart(cart: CartService, request: FastifyRequest, reply: FastifyReply) {
  const fileId = fileIdField(request);
  const user = request.user;
  const current = await fileIdsOf(cart, request);
  const { fileIds, fileName } = await cart.withFile(current, fileId, user?.id ?? null);
  if (user) await cart.addToUser(user.id, fileId);
  else request.session.cart = fileIds;
  flash(request, 'success', `${fileName} is in your cart (${fileIds.length} file${fileIds.length === 1 ? '' : 's'}).`);
  return reply.redirect(returnPath((request.body as Record<string, unknown>).return_to), 303);
}

async function removeFromCart(cart: CartService, request: FastifyRequest, reply: FastifyReply) {
  const fileId = fileIdField(request);
  const user = request.user;
  if (user) {
    await cart.removeFromUser(user.id, [fileId]);
  } else {
    request.session.cart = (request.session.cart ?? []).filter((id) => id !== fileId);
  }
  return reply.redirect('/cart', 303);
}

async function cartPage(cart: CartService, request: FastifyRequest, reply: FastifyReply, formatError?: string) {
  const entries = await cart.entries(await fileIdsOf(cart, request), request.user?.id ?? null);
  const formats = Object.entries(CART_FORMATS).map(([value, f]) => ({ value, label: f.label, unavailable: UNAVAILABLE_FORMATS[value as CartFormat] ?? null }));
  const leftOut = request.session.cartLeftOut;
  if (leftOut !== undefined) request.session.cartLeftOut = undefined;
  return reply.code(formatError ? 400 : 200).header('cache-control', 'no-store').page('cart/views/cart.njk', { title: 'Cart', entries, formats, leftOut, maxFiles: MAX_CART_FILES, formatError });
}

async function downloadCart(ctx: ModuleContext, request: FastifyRequest, reply: FastifyReply) {
  const asked = formatsOrPageError(request);
  if ('pageError' in asked) return cartPage(ctx.services.cart, request, reply, asked.pageError);
  const { formats } = asked;
  const entries = await ctx.services.cart.entries(await fileIdsOf(ctx.services.cart, request), request.user?.id ?? null);
  if (entries.length === 0) throw badRequest('Your cart is empty: add files from a dataset or model page first.');
  return sendZip(ctx, request, reply, entries, formats, { root: 'cart', fileName: 'cart.zip' });
}

export async function cartRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const cart = ctx.services.cart;
  app.post('/cart/add', (request, reply) => addToCart(cart, request, reply));
  app.post('/cart/remove', (request, reply) => removeFromCart(cart, request, reply));
  app.get('/cart', (request, reply) => cartPage(cart, request, reply));
  app.get('/cart/download', (request, reply) => downloadCart(ctx, request, reply));
}
