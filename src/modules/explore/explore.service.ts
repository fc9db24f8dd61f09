// Explore service (specification, explore): the search over synchronized datasets and
// the upkeep of its index from the dataset module's events. Each operation is an exported function
// taking the module context first; the factory binds them and subscribes to the events.
import { sql } from 'kysely';
import type { ModuleContext } from '../../core/modules.ts';
import { bindOperations } from '../../core/operations.ts';
import { badRequest } from '../../core/http/errors.ts';
import { isPublicationType } from '../../core/publication-types.ts';
import { normalizeText, queryWords, searchText, COLUMN_SEPARATOR } from './explore.normalize.ts';
import * as repo from './explore.repository.ts';
import { MAX_TERMS, parseSearchBody } from './explore.routes.ts';

export interface SearchRequest {
  query: string;
  publicationType: string;
  tags: string[];
  sorting: 'newest' | 'oldest';
  limit: number | null;
  offset: number;
  /** The `models` object of the body, unchecked (extensions section 1, search by model characteristics). */
  models?: unknown;
}

export interface SearchDocument {
  id: number;
  revision: number;
  synchronized: boolean;
  featureModelCount: number;
  createdAt: string;
  publicationType: string;
  tags: string[];
  texts: string[];
}

/** Documents are fetched and written in batches of this many datasets. */
const BATCH = 500;

export function indexRow(doc: SearchDocument): repo.IndexRow {
  return {
    dataset_id: doc.id,
    // Explore rule 4: only synchronized datasets with at least one feature model appear.
    searchable: doc.synchronized && doc.featureModelCount > 0 ? 1 : 0,
    created_at: doc.createdAt,
    publication_type: doc.publicationType,
    tags_norm: doc.tags.map(normalizeText).filter(Boolean).join(COLUMN_SEPARATOR),
    search_text: searchText(doc.texts),
    revision: doc.revision,
  };
}

/** Rewrites the index rows of these datasets from the dataset module, in batches. */
export async function indexDatasets(ctx: ModuleContext, datasetIds: number[]): Promise<void> {
  for (let i = 0; i < datasetIds.length; i += BATCH) {
    const batch = datasetIds.slice(i, i + BATCH);
    const docs: SearchDocument[] = await ctx.services.dataset.getSearchDocuments(batch);
    await repo.upsertRows(ctx.db, docs.map(indexRow));
    // A dataset the dataset module no longer knows has been deleted in between.
    const found = new Set(docs.map((d) => d.id));
    await repo.deleteRows(ctx.db, batch.filter((id) => !found.has(id)));
  }
}

export async function search(ctx: ModuleContext, request: SearchRequest): Promise<object[]> {
  // Model filters come from the analysis module's service, which keeps its tables to itself:
  // it hands back a condition that this query embeds, so the search stays one query.
  const analysis = ctx.isEnabled('analysis') ? ctx.services.analysis : undefined;
  let models = null;
  if (request.models !== undefined && request.models !== null) {
    if (!analysis) throw badRequest('"models": search by model characteristics needs the analysis module, which is not enabled on this hub');
    models = analysis.parseModelFilter(request.models);
  }
  const publicationType = request.publicationType !== 'any' && isPublicationType(request.publicationType) ? request.publicationType : null;
  const ids = await repo.searchIds(ctx.db, {
    words: queryWords(request.query),
    publicationType,
    tags: request.tags.map(normalizeText).filter(Boolean),
    sorting: request.sorting,
    limit: request.limit,
    offset: request.offset,
    condition: models && analysis ? analysis.datasetCondition(models, sql.ref('explore_search.dataset_id')) : null,
  });
  if (ids.length === 0) return [];
  // One batched call builds every result object, whatever the number of ids (no N+1).
  const results = await ctx.services.dataset.listSearchResults(ids);
  if (!analysis) return results;
  // Per dataset, its models (those that matched, when filtered), in one more query.
  const perDataset = await analysis.searchModels(ids, models);
  return results.map((r) => ({ ...r, models: perDataset.get(r.id) ?? [] }));
}

/**
 * Brings the index in line with the datasets: indexes the ones it lacks (all of them when
 * it is empty, e.g. after the migration), the ones whose revision moved since their row was
 * built (edited while explore was disabled, or by an instance without it), and drops the
 * ones that are gone. Run at startup; two id lists compared when nothing is missing.
 */
/**
 * A search given as the JSON body of POST /explore, read by its rules (parseSearchBody): the API's
 * search (extensions section 3) calls this, so the rules stay explore's and the api module needs
 * no import of explore, which it does not require (coupling rule 7).
 */
export function searchBody(ctx: ModuleContext, body: unknown): Promise<object[]> {
  return search(ctx, parseSearchBody(body));
}

export async function syncIndex(ctx: ModuleContext): Promise<{ added: number; updated: number; removed: number }> {
  const [all, indexed] = await Promise.all([ctx.services.dataset.allDatasetRevisions(), repo.indexedRevisions(ctx.db)]);
  const existing = new Set(all.map((d) => d.id));
  const missing = all.filter((d) => !indexed.has(d.id)).map((d) => d.id);
  const stale = all.filter((d) => indexed.has(d.id) && indexed.get(d.id) !== d.revision).map((d) => d.id);
  const gone = [...indexed.keys()].filter((id) => !existing.has(id));
  await indexDatasets(ctx, [...missing, ...stale]);
  await repo.deleteRows(ctx.db, gone);
  return { added: missing.length, updated: stale.length, removed: gone.length };
}

/** Rebuilds every row from the dataset module. */
export async function rebuildIndex(ctx: ModuleContext): Promise<number> {
  const all = await ctx.services.dataset.allDatasetIds();
  await indexDatasets(ctx, all);
  return all.length;
}

export function createExploreService(ctx: ModuleContext) {
  // Every write of a dataset's searchable content or state reaches the index at once
  // (dataset service contract); the index is a table, so every instance sees it.
  ctx.events.on('dataset.saved', async ({ datasetId }: { datasetId: number }) => indexDatasets(ctx, [datasetId]));
  ctx.events.on('dataset.deleted', async ({ datasetId }: { datasetId: number }) => repo.deleteRows(ctx.db, [datasetId]));
  // maxTerms: the most words and tags of one search, for the API's description of the body.
  return { ...bindOperations(ctx, { search, searchBody, syncIndex, indexDatasets, rebuildIndex }), maxTerms: MAX_TERMS };
}

export type ExploreService = ReturnType<typeof createExploreService>;
