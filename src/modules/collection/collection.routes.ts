// Collections' pages and API (extensions section 13): GET /collections (mine), POST /collections
// (title, description, tags), GET /collection/<id>/ with facts.csv, facts.json, citations.bib and
// download?format=… (the cart's zip), POST /collection/<id>/add and /remove (field `file_id` or
// `dataset_id`), POST /collection/<id>/add-cart (the user's cart), POST /collection/<id>/publish and
// /new-version, POST /explore/save (the search fields and `title`), GET /api/v1/collections/<id>.
// CSRF is checked by the global guard on every POST.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ModuleContext } from '../../core/modules.ts';
import { badRequest, badField, HttpError } from '../../core/http/errors.ts';
import { wantsJson } from '../../core/http/error-pages.ts';
import { withFinalSlash } from '../../core/http/canonical-address.ts';
import { flash } from '../../core/http/context.ts';
import { formFields } from '../../core/http/forms.ts';
import { CART_FORMATS, UNAVAILABLE_FORMATS, formatsOrPageError, sendZip, type CartFormat } from '../cart/index.ts';
import { parseFileId } from '../hubfile/index.ts';
import { MAX_COLLECTION_FILES, type MemberRef } from './collection.service.ts';
import { factsCsv } from './collection.members.ts';
import { collectionApiRoutes } from './collection.api.ts';
import { collectionIdOf } from './collection.http.ts';
import { firstMembers, pickerRoutes, refusedPickerForm } from './collection.picker.ts';

const loginRequired = { config: { loginRequired: true } };

/** `file_id` or `dataset_id` of a form; 400 naming the fields when neither is a valid id. */
function memberRef(body: unknown): MemberRef {
  const fields = formFields(body);
  const fileId = parseFileId(fields.file_id);
  if (fileId !== undefined) return { fileId };
  const datasetId = parseFileId(fields.dataset_id);
  if (datasetId !== undefined) return { datasetId };
  throw badField('file_id', 'Give file_id (a file id) or dataset_id (a dataset id).');
}

/** Back to a page of this site only (never `//host`), else the collection. */
function returnPath(raw: string | undefined, fallback: string): string {
  return raw !== undefined && /^\/(?![/\\])[^\s]*$/.test(raw) ? raw : fallback;
}

async function collectionPage(ctx: ModuleContext, request: FastifyRequest, reply: FastifyReply, formatError?: string) {
  const service = ctx.services.collection;
  const viewerId = request.user?.id ?? null;
  const collection = await service.get(collectionIdOf(request), viewerId);
  const [members, citations] = await Promise.all([service.memberFacts(collection.id, viewerId), service.citationsOf(collection.id, viewerId)]);
  const formats = Object.entries(CART_FORMATS).map(([value, f]) => ({ value, label: f.label, unavailable: UNAVAILABLE_FORMATS[value as CartFormat] ?? null }));
  const datasets = new Set(members.map((m) => m.dataset_id)).size;
  // A published collection's page is its DOI's landing page (/doi/<doi>/ redirects here): it shows
  // the DOI's QR code as a dataset's DOI page does (extensions section 8), drawn by citation.
  const qrSvg = collection.doi && ctx.isEnabled('citation') ? ctx.services.citation.doiQrSvg(collection.doi) : null;
  return reply.code(formatError ? 400 : 200).header('cache-control', 'no-store').page('collection/views/collection.njk', {
    formatError,
    title: collection.title, collection, members, citations, formats, datasets, maxFiles: MAX_COLLECTION_FILES, qrSvg,
    owner: collection.userId === viewerId, queryText: collection.query === null ? null : JSON.stringify(collection.query, null, 2),
  });
}

async function changeMembers(ctx: ModuleContext, request: FastifyRequest, reply: FastifyReply, action: 'add' | 'remove') {
  const id = collectionIdOf(request);
  const ref = memberRef(request.body);
  const service = ctx.services.collection;
  if (action === 'add') {
    const { added, total } = await service.add(id, request.user!.id, ref);
    flash(request, 'success', `${added} file${added === 1 ? '' : 's'} added (${total} in the collection).`);
  } else {
    const { removed } = await service.remove(id, request.user!.id, ref);
    flash(request, 'success', `${removed} file${removed === 1 ? '' : 's'} removed.`);
  }
  return reply.redirect(returnPath(formFields(request.body).return_to, `/collection/${id}/`), 303);
}

async function addCart(ctx: ModuleContext, request: FastifyRequest, reply: FastifyReply) {
  const id = collectionIdOf(request);
  const { added } = await ctx.services.collection.addCart(id, request.user!.id);
  flash(request, 'success', `${added} file${added === 1 ? '' : 's'} of your cart added.`);
  return reply.redirect(`/collection/${id}/`, 303);
}

function pageRoutes(app: FastifyInstance, ctx: ModuleContext) {
  const service = ctx.services.collection;
  const listPage = async (request: FastifyRequest, reply: FastifyReply, status: number, form: { errors?: unknown; values?: Record<string, string | undefined> } = {}) =>
    reply.code(status).header('cache-control', 'no-store').page('collection/views/collections.njk', { title: 'Collections', collections: await service.listMine(request.user!.id), ...form });
  app.get('/collections', loginRequired, (request, reply) => listPage(request, reply, 200));
  app.post('/collections', loginRequired, async (request, reply) => {
    const fields = formFields(request.body);
    const input = { title: fields.title, description: fields.description, tags: fields.tags };
    try {
      const id = await service.create(request.user!.id, input, firstMembers(fields));
      return reply.redirect(`/collection/${id}/`, 303);
    } catch (error) {
      // A person's form comes back as typed, each reason under its field (a title of spaces passes
      // the browser's `required`); a script asking for JSON keeps the error's JSON.
      const errors = error instanceof HttpError && error.status === 400 ? error.body?.errors : undefined;
      if (!errors || wantsJson(request)) throw error;
      // The picker's form (it carries the member to add) comes back as the picker, the member kept.
      if (firstMembers(fields) !== undefined) return refusedPickerForm(ctx, request, reply, fields, errors);
      return listPage(request, reply, 400, { errors, values: input });
    }
  });
  // The canonical address ends with a slash (as the DOI and model pages, which redirect the same way):
  // a typed or shared /collection/7 reaches the page instead of a 404.
  app.get('/collection/:id', (request, reply) => reply.redirect(withFinalSlash(request.url), 301));
  app.get('/collection/:id/', (request, reply) => collectionPage(ctx, request, reply));
  app.post('/collection/:id/add', loginRequired, (request, reply) => changeMembers(ctx, request, reply, 'add'));
  app.post('/collection/:id/remove', loginRequired, (request, reply) => changeMembers(ctx, request, reply, 'remove'));
  app.post('/collection/:id/add-cart', loginRequired, (request, reply) => addCart(ctx, request, reply));
  app.post('/explore/save', loginRequired, async (request, reply) => {
    const body = request.body && typeof request.body === 'object' ? request.body as Record<string, unknown> : {};
    const id = await service.saveSearch(request.user!.id, body);
    flash(request, 'success', 'The search is saved as a collection: its members stay as they were found.');
    return reply.redirect(`/collection/${id}/`, 303);
  });
  app.post('/collection/:id/publish', loginRequired, async (request, reply) => {
    const id = collectionIdOf(request);
    const { doi } = await service.publish(id, request.user!.id);
    flash(request, 'success', `The collection is published with the DOI ${doi}.`);
    return reply.redirect(`/collection/${id}/`, 303);
  });
  app.post('/collection/:id/new-version', loginRequired, async (request, reply) => {
    const next = await service.newVersion(collectionIdOf(request), request.user!.id);
    flash(request, 'success', next.created ? 'A new version is open: change its members, then publish it.' : 'The newer version of this collection exists already: here it is.');
    return reply.redirect(`/collection/${next.id}/`, 303);
  });
}

function downloadRoutes(app: FastifyInstance, ctx: ModuleContext) {
  const service = ctx.services.collection;
  const visible = (request: FastifyRequest) => service.get(collectionIdOf(request), request.user?.id ?? null);
  const attachment = (reply: FastifyReply, type: string, name: string) =>
    reply.header('content-type', type).header('content-disposition', `attachment; filename="${name}"`).header('cache-control', 'no-store');
  app.get('/collection/:id/facts.csv', async (request, reply) => {
    const c = await visible(request);
    return attachment(reply, 'text/csv; charset=utf-8', `collection-${c.id}-facts.csv`).send(factsCsv(await service.memberFacts(c.id, request.user?.id ?? null)));
  });
  app.get('/collection/:id/facts.json', async (request, reply) => {
    const c = await visible(request);
    const members = await service.memberFacts(c.id, request.user?.id ?? null);
    return attachment(reply, 'application/json; charset=utf-8', `collection-${c.id}-facts.json`).send(JSON.stringify({ collection: c.id, title: c.title, members }, null, 2));
  });
  app.get('/collection/:id/citations.bib', async (request, reply) => {
    const c = await visible(request);
    const entries = (await service.citationsOf(c.id, request.user?.id ?? null)).map((x) => x.bibtex);
    // Keys told apart, as in the zip's CITATION.bib (citationsOf gives no BibTeX without the citation module).
    const bib = ctx.isEnabled('citation') ? ctx.services.citation.bibliography(entries) : '';
    return attachment(reply, 'application/x-bibtex; charset=utf-8', `collection-${c.id}.bib`).send(bib);
  });
  app.get('/collection/:id/download', async (request, reply) => {
    const c = await visible(request);
    const asked = formatsOrPageError(request);
    if ('pageError' in asked) return collectionPage(ctx, request, reply, asked.pageError);
    const { formats } = asked;
    const entries = await service.memberEntries(c.id, request.user?.id ?? null);
    if (entries.length === 0) throw badRequest('This collection is empty: add models or datasets first.');
    return sendZip(ctx, request, reply, entries, formats, { root: `collection_${c.id}`, fileName: `collection-${c.id}.zip` });
  });
}

export async function collectionRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  pageRoutes(app, ctx);
  pickerRoutes(app, ctx);
  downloadRoutes(app, ctx);
  await collectionApiRoutes(app, ctx);
}
