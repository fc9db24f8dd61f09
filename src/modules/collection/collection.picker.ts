// "Add to a collection" from a model page, a DOI page or the cart (extensions section 13):
// GET /collection/add?file_id=…|dataset_id=…|cart=1 lists the user's open collections, each with
// its Add button, and a form making a new one with it (POST /collections with the same field).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ModuleContext } from '../../core/modules.ts';
import { badField } from '../../core/http/errors.ts';
import { formFields } from '../../core/http/forms.ts';
import { parseFileId } from '../hubfile/index.ts';
import type { MemberRef } from './collection.service.ts';

/** `file_id`, `dataset_id` or `cart=1` of a query or form; undefined when none is given, 400 when one is malformed. */
export function firstMembers(fields: Record<string, string>): MemberRef | 'cart' | undefined {
  if (fields.cart === '1') return 'cart';
  for (const [key, make] of [['file_id', (id: number) => ({ fileId: id })], ['dataset_id', (id: number) => ({ datasetId: id })]] as const) {
    if (fields[key] === undefined || fields[key] === '') continue;
    const id = parseFileId(fields[key]);
    if (id === undefined) throw badField(key, `${key} must be an id.`);
    return make(id);
  }
  return undefined;
}

/** Back to a page of this site only (never `//host`). */
export const safeReturn = (raw: string | undefined) => (raw !== undefined && /^\/(?![/\\])[^\s]*$/.test(raw) ? raw : undefined);

async function pickerPage(ctx: ModuleContext, request: FastifyRequest, fields: Record<string, string>) {
  const userId = request.user!.id;
  const ref = firstMembers(fields);
  if (ref === undefined) throw badField('file_id', 'Name what to add: file_id, dataset_id or cart=1.');
  const service = ctx.services.collection;
  const what = ref === 'cart'
    ? { label: 'the files of your cart', files: (await ctx.services.cart.userFileIds(userId)).length }
    : await service.describeRef(ref, userId);
  const open = (await service.listMine(userId)).filter((c) => c.doi === null);
  const hidden = ref === 'cart' ? { name: 'cart', value: '1' } : 'fileId' in ref ? { name: 'file_id', value: String(ref.fileId) } : { name: 'dataset_id', value: String(ref.datasetId) };
  return { title: 'Add to a collection', what, collections: open, hidden, cart: ref === 'cart', returnTo: safeReturn(fields.return_to) ?? null };
}

/**
 * The picker again for its refused "New collection with it" form (POST /collections with the member
 * field): the member kept, the title and description as typed, each reason under its field.
 */
export async function refusedPickerForm(ctx: ModuleContext, request: FastifyRequest, reply: FastifyReply, fields: Record<string, string>, errors: unknown) {
  const page = await pickerPage(ctx, request, fields);
  return reply.code(400).header('cache-control', 'no-store').page('collection/views/picker.njk', { ...page, errors, values: { title: fields.title, description: fields.description } });
}

export function pickerRoutes(app: FastifyInstance, ctx: ModuleContext): void {
  app.get('/collection/add', { config: { loginRequired: true } }, async (request, reply) =>
    reply.header('cache-control', 'no-store').page('collection/views/picker.njk', await pickerPage(ctx, request, formFields(request.query))));
}
