// Saved search (extensions section 13): explore's current result kept as a collection that records
// the query and filters and freezes the member list as found at that moment; datasets published
// later that match the query do not join it. The search is explore's (through its service, when
// enabled): the members are the models a model filter matched, else every model of each dataset.
import type { ModuleContext } from '../../core/modules.ts';
import { badRequest, notFound, badField } from '../../core/http/errors.ts';
import * as repo from './collection.repository.ts';
import { checkedInput, MAX_COLLECTION_FILES } from './collection.rules.ts';

const SEARCH_FIELDS = ['query', 'publication_type', 'tags', 'sorting', 'limit', 'offset', 'models'] as const;

/**
 * The `models` object from the flat fields of explore's filter panel (`features_min`, …), as the
 * explore page's script builds it; undefined when none is set.
 */
export function modelsFromPanel(body: Record<string, unknown>): Record<string, unknown> | undefined {
  const value = (name: string) => (typeof body[name] === 'string' ? (body[name] as string).trim() : '');
  const models: Record<string, unknown> = {};
  for (const field of ['features', 'constraints', 'depth']) {
    const range: Record<string, unknown> = {};
    for (const end of ['min', 'max']) {
      const raw = value(`${field}_${end}`);
      if (raw !== '') range[end] = /^\d+$/.test(raw) ? Number(raw) : raw;
    }
    if (Object.keys(range).length > 0) models[field] = range;
  }
  const counts: Record<string, string> = {};
  if (value('configurations_min')) counts.min = value('configurations_min');
  if (value('configurations_max')) counts.max = value('configurations_max');
  if (Object.keys(counts).length > 0) models.configurations = counts;
  for (const flag of ['satisfiable', 'has_dead']) if (value(flag)) models[flag] = value(flag) === 'true';
  for (const text of ['language_level', 'feature']) if (value(text)) models[text] = value(text);
  return Object.keys(models).length > 0 ? models : undefined;
}

/** The search fields of the body, as explore reads them; a form's `tags` (comma separated), `models` (JSON text) and filter panel too. */
export function searchOf(body: Record<string, unknown>): Record<string, unknown> {
  const search: Record<string, unknown> = {};
  for (const field of SEARCH_FIELDS) if (body[field] !== undefined && body[field] !== '') search[field] = body[field];
  if (typeof search.tags === 'string') search.tags = search.tags.split(',').map((t) => t.trim()).filter((t) => t !== '');
  if (typeof search.models === 'string') {
    try {
      search.models = JSON.parse(search.models);
    } catch {
      throw badField('models', '"models" must be the JSON object of the model filters.');
    }
  }
  if (search.models === undefined) {
    const panel = modelsFromPanel(body);
    if (panel) search.models = panel;
  }
  for (const field of ['limit', 'offset']) if (typeof search[field] === 'string' && /^\d+$/.test(search[field] as string)) search[field] = Number(search[field]);
  return search;
}

/** Runs the search now and keeps its models as a new collection of the user's; answers its id. */
export async function saveSearch(ctx: ModuleContext, userId: number, body: Record<string, unknown>): Promise<number> {
  if (!ctx.isEnabled('explore')) throw notFound('Search is not enabled on this hub.');
  const input = checkedInput({ title: String(body.title ?? ''), description: String(body.description ?? ''), tags: '' });
  const search = searchOf(body);
  const results = await ctx.services.explore.searchBody(search) as { id: number; models?: { file_id: number }[] }[];
  const fileIds: number[] = [];
  for (const result of results) {
    if (search.models !== undefined && result.models) fileIds.push(...result.models.map((m) => m.file_id));
    else for (const model of await ctx.services.featuremodel.listByDataset(result.id)) fileIds.push(...model.files.map((f) => f.id));
  }
  const unique = [...new Set(fileIds)];
  if (unique.length > MAX_COLLECTION_FILES) throw badRequest(`The search found ${unique.length} models; a collection holds at most ${MAX_COLLECTION_FILES}. Narrow it.`);
  return ctx.db.transaction().execute(async (trx) => {
    const id = await repo.insertCollection(trx, { userId, ...input, query: JSON.stringify({ ...search, saved_at: new Date().toISOString() }) });
    await repo.addMembers(trx, id, unique);
    return id;
  });
}
