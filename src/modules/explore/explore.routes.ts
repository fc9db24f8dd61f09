// GET /explore (the search page) and POST /explore (the search), specification, explore.
import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '../../core/modules.ts';
import { badRequest } from '../../core/http/errors.ts';
import { ReusablePageCache } from '../../core/http/reusable-page.ts';
import { PUBLICATION_TYPES } from '../../core/publication-types.ts';
import type { SearchRequest } from './explore.service.ts';
import { queryWords } from './explore.normalize.ts';
import { SearchAnswers } from './explore.answers.ts';

/** The address parameters of the model filter panel (GET /explore?features_min=10&…). */
export const MODEL_FILTER_PARAMS = [
  'features_min', 'features_max', 'constraints_min', 'constraints_max', 'depth_min', 'depth_max',
  'configurations_min', 'configurations_max', 'satisfiable', 'has_dead', 'language_level', 'feature',
] as const;

/** Results per request of the page's script ("load more" asks for the next page). */
export const PAGE_SIZE = 20;
/** Largest limit or offset: beyond it the number no longer fits every database's integer. */
const MAX_COUNT = 2_147_483_647;
/**
 * Most distinct query words, and most tags, in one search: each is one condition of the
 * query (a bound parameter on PostgreSQL and MariaDB, which refuse more than 65 535), and
 * tens of thousands of them made one request take seconds.
 */
export const MAX_TERMS = 100;

/**
 * The JSON body of POST /explore, checked at the edge (after readSearchBody). A missing
 * body (undefined or null) is an empty query (specification, explore); fields of the
 * wrong type are refused, unknown publication types and sortings are ignored.
 */
export function parseSearchBody(body: unknown): SearchRequest {
  if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
    throw badRequest('The body must be a JSON object such as {"query": "..."}');
  }
  const fields = (body ?? {}) as Record<string, unknown>;
  const text = (name: string, fallback: string): string => {
    const value = fields[name];
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'string') throw badRequest(`"${name}" must be a string`);
    return value;
  };
  const count = (name: string): number | null => {
    const value = fields[name];
    if (value === undefined || value === null) return null;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_COUNT) {
      throw badRequest(`"${name}" must be a whole number from 0 to ${MAX_COUNT}`);
    }
    return value;
  };
  const tags = fields.tags ?? [];
  if (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string')) throw badRequest('"tags" must be a list of strings');
  if (tags.length > MAX_TERMS) throw badRequest(`"tags" may hold at most ${MAX_TERMS} tags`);
  const query = text('query', '');
  if (queryWords(query).length > MAX_TERMS) throw badRequest(`"query" may hold at most ${MAX_TERMS} different words`);
  return {
    query,
    publicationType: text('publication_type', 'any'),
    tags: tags as string[],
    sorting: text('sorting', 'newest') === 'oldest' ? 'oldest' : 'newest',
    limit: count('limit'),
    offset: count('offset') ?? 0,
    // Checked by the analysis module, which owns what the fields mean (explore service).
    models: fields.models,
  };
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

/**
 * The request body as the search reads it (docs/decisions-taken.md): no body, an empty one,
 * or a body that is not JSON under a non-JSON content type (a form post, plain text) is no
 * JSON body, so an empty query (specification, Errors); a JSON object sent as plain text
 * (what fetch() sends without a content type) is read. Under a JSON content type, malformed
 * JSON answers 400 rather than silently listing everything.
 */
export function readSearchBody(contentType: string | undefined, text: string): unknown {
  if (text.trim() === '') return undefined;
  const declaredJson = JSON_TYPE.test(contentType ?? '');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    if (declaredJson) throw badRequest('The body is not valid JSON');
    return undefined;
  }
  if (!declaredJson && (value === null || typeof value !== 'object' || Array.isArray(value))) return undefined;
  return value;
}

const EXPLORE_TEMPLATE = 'explore/views/index.njk';
/** Explore pages kept rendered, by address (most have none or a shared filter's few parameters). */
const KEPT_EXPLORE_PAGES = 64;
/** Longer addresses (a long query) are rendered each time rather than kept. */
const MAX_KEPT_URL = 512;

/** What the explore page shows: the query and model filters of its address prefill the form. */
function explorePageData(ctx: ModuleContext, params: Record<string, unknown>): Record<string, unknown> {
  const { query } = params;
  // The model filters of a shared address prefill the panel; the script checks nothing more
  // than the search does (a bad value shows the search's message).
  const modelFilters = ctx.isEnabled('analysis')
    ? Object.fromEntries(MODEL_FILTER_PARAMS.map((name) => [name, typeof params[name] === 'string' ? (params[name] as string).slice(0, 200) : '']))
    : null;
  return {
    title: 'Explore',
    modelFilters,
    modelFiltersOpen: modelFilters !== null && Object.values(modelFilters).some((v) => v !== ''),
    modelPages: ctx.isEnabled('model'),
    query: typeof query === 'string' ? query : '',
    publicationTypes: PUBLICATION_TYPES.map(([value, label]) => ({ value, label })),
    pageSize: PAGE_SIZE,
  };
}

export async function exploreRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  // Startup upkeep of the index (issue 5): fills it when empty, catches up on missed writes.
  const synced = await ctx.services.explore.syncIndex();
  if (synced.added + synced.updated + synced.removed > 0) ctx.log.info(synced, 'explore search index brought up to date');

  // In this plugin only: the body is read as text whatever its content type, so that a
  // missing or non-JSON body is an empty query rather than a 415 (readSearchBody).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  // The page depends on its address alone (and on the visitor, when logged in): for visitors who
  // are not, it is rendered once per address and kept, its CSRF token a slot (core/http/reusable-page.ts).
  const kept = new ReusablePageCache(KEPT_EXPLORE_PAGES);
  app.get('/explore', async (request, reply) => {
    const reusable = reply.pageIsReusable() && request.url.length <= MAX_KEPT_URL;
    const keptPage = reusable ? kept.get(request.url) : undefined;
    if (keptPage !== undefined) return reply.sendReusablePage(keptPage);
    const data = explorePageData(ctx, request.query as Record<string, unknown>);
    if (!reusable) return reply.page(EXPLORE_TEMPLATE, data);
    const page = await reply.renderReusablePage(EXPLORE_TEMPLATE, data);
    kept.set(request.url, page);
    return reply.sendReusablePage(page);
  });

  const answers = new SearchAnswers(ctx.db);
  // Read-only: no CSRF token required (decisions section 3).
  app.post('/explore', { config: { csrf: false, json: true } }, async (request, reply) => {
    const text = typeof request.body === 'string' ? request.body : '';
    const search = parseSearchBody(readSearchBody(request.headers['content-type'], text));
    const json = await answers.answer(search, () => ctx.services.explore.search(search));
    return reply.type('application/json; charset=utf-8').send(json);
  });
}
