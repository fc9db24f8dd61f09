// Collections (extensions section 13): a signed-in user's models across datasets. Only the owner
// changes a collection, and only until it is published: a published one changes by a new version.
// A collection is private to its owner until published (the page, the zip and the API answer 404
// to anyone else). Files and datasets are reached through their modules' services, the member list
// through the cart's entries, so both lists show a file the same way.
// Each operation is an exported function taking the module context first, bound once below.
import type { ModuleContext } from '../../core/modules.ts';
import { isForeignKeyViolation, type DbOrTrx } from '../../core/db/connect.ts';
import { bindOperations } from '../../core/operations.ts';
import { badRequest, conflict, notFound, type HttpError } from '../../core/http/errors.ts';
import { splitTags } from '../../core/tags.ts';
import { checkedInput, MAX_COLLECTION_FILES, PUBLISHED, publishUnderWay, stalePublishBefore, UNDER_WAY, type CollectionInput } from './collection.rules.ts';
import * as repo from './collection.repository.ts';
import { memberFacts, memberEntries, membersWithHashes, citationsOf } from './collection.members.ts';
import { publishCollection, newVersion } from './collection.publish.ts';
import { publishedCollections } from './collection.listing.ts';
import { saveSearch } from './collection.saved-search.ts';

export { MAX_COLLECTION_FILES, type CollectionInput };

/** What to add or remove: one file, or every file of a dataset. */
export type MemberRef = { fileId: number } | { datasetId: number };

export interface CollectionView {
  id: number;
  userId: number;
  title: string;
  description: string;
  tags: string[];
  query: unknown;
  doi: string | null;
  conceptDoi: string | null;
  version: number;
  createdAt: string;
  publishedAt: string | null;
  /** The newer version's id, when one was started. */
  nextVersionId: number | null;
}

export function viewOf(row: repo.CollectionRow, nextVersionId: number | null = null): CollectionView {
  return {
    id: Number(row.id), userId: Number(row.user_id), title: row.title, description: row.description, tags: splitTags(row.tags),
    query: row.query === null ? null : JSON.parse(row.query), doi: row.doi, conceptDoi: row.concept_doi, version: Number(row.version),
    createdAt: row.created_at, publishedAt: row.published_at, nextVersionId,
  };
}

/** A new collection, with its first members when a file, a dataset or the cart is given (checked before anything is written). */
export async function create(ctx: ModuleContext, userId: number, input: CollectionInput, first?: MemberRef | 'cart'): Promise<number> {
  const fields = checkedInput(input);
  const fileIds = first === undefined ? [] : first === 'cart' ? await cartFileIds(ctx, userId) : await filesOf(ctx, first, userId);
  if (fileIds.length > MAX_COLLECTION_FILES) throw badRequest(`A collection holds at most ${MAX_COLLECTION_FILES} files.`);
  const gone = () => (first === 'cart' ? CART_FILE_GONE() : goneRef(first!));
  return writingMembers(ctx, gone, async (trx) => {
    const id = await repo.insertCollection(trx, { userId, ...fields, query: null });
    await insertAll(trx, id, [...new Set(fileIds)], gone);
    return id;
  });
}

/** 404 for a reference whose file or dataset was deleted after it was found (as for one never there). */
const goneRef = (ref: MemberRef): HttpError =>
  notFound('fileId' in ref ? `There is no file with id ${ref.fileId}.` : `There is no dataset with id ${ref.datasetId}.`);

const CART_FILE_GONE = () => notFound('A file of your cart was deleted meanwhile: add the cart again.');

/** A transaction writing members: `gone` (and nothing kept) when a file was deleted, with its dataset, since it was found. */
async function writingMembers<T>(ctx: ModuleContext, gone: () => HttpError, work: (trx: DbOrTrx) => Promise<T>): Promise<T> {
  try {
    return await ctx.db.transaction().execute(work);
  } catch (error) {
    if (isForeignKeyViolation(error)) throw gone();
    throw error;
  }
}

/**
 * Writes each file (none held yet, nothing else adding to the collection meanwhile): a row not
 * written is one whose file is gone (MariaDB's INSERT IGNORE skips what the foreign key refuses;
 * the others throw, see writingMembers).
 */
async function insertAll(trx: DbOrTrx, id: number, fileIds: number[], gone: () => HttpError): Promise<number> {
  const added = await repo.addMembers(trx, id, fileIds);
  if (added < fileIds.length) throw gone();
  return added;
}

async function cartFileIds(ctx: ModuleContext, userId: number): Promise<number[]> {
  return (await ctx.services.cart.entries(await ctx.services.cart.userFileIds(userId), userId)).map((e) => e.fileId);
}

/** What an "Add to a collection" link names, as the picker shows it: a file's or dataset's name; 404 for one the user cannot see. */
export async function describeRef(ctx: ModuleContext, ref: MemberRef, userId: number): Promise<{ label: string; files: number }> {
  const fileIds = await filesOf(ctx, ref, userId);
  if ('fileId' in ref) return { label: (await ctx.services.hubfile.getVisibleFile(ref.fileId, userId))!.name, files: 1 };
  const [dataset] = await ctx.services.dataset.summariesOf([ref.datasetId]);
  return { label: dataset!.title, files: fileIds.length };
}

export async function listMine(ctx: ModuleContext, userId: number): Promise<(CollectionView & { members: number })[]> {
  const rows = await repo.collectionsOf(ctx.db, userId);
  const counts = await repo.memberCounts(ctx.db, rows.map((r) => Number(r.id)));
  return rows.map((r) => ({ ...viewOf(r), members: counts.get(Number(r.id)) ?? 0 }));
}

/** The collection as the viewer may see it: the owner's always, anyone's once published; else 404. */
export async function get(ctx: ModuleContext, id: number, viewerId: number | null): Promise<CollectionView> {
  const row = await repo.findCollection(ctx.db, id);
  if (!row || (row.doi === null && Number(row.user_id) !== viewerId)) throw notFound(`There is no collection with id ${id}.`);
  const next = await repo.nextVersionOf(ctx.db, id);
  return viewOf(row, next ? Number(next.id) : null);
}

/** The viewer's own collection, still open to changes; 404 for anyone else's, 409 once published. */
export async function editable(ctx: ModuleContext, id: number, userId: number): Promise<repo.CollectionRow> {
  const row = await repo.findCollection(ctx.db, id);
  if (!row || Number(row.user_id) !== userId) throw notFound(`There is no collection with id ${id} among yours.`);
  if (row.doi !== null) throw conflict(PUBLISHED);
  if (publishUnderWay(row)) throw conflict(UNDER_WAY);
  return row;
}

/**
 * Inside the transaction of a change of the members of a collection read editable: 409 as
 * editable's once it was published or a publish claimed it meanwhile; otherwise its row stays
 * locked until the change commits, so a publish claimed meanwhile waits and deposits the members
 * as changed: a change confirmed is never lost, and a published collection's members never change.
 */
async function holdDraft(trx: DbOrTrx, id: number): Promise<void> {
  if (await repo.holdDraft(trx, id, stalePublishBefore())) return;
  const row = await repo.findCollection(trx, id);
  if (!row) throw notFound(`There is no collection with id ${id} among yours.`);
  throw conflict(row.doi !== null ? PUBLISHED : UNDER_WAY);
}

/** The files a reference names that the user may see: the file, or every file of the dataset. */
async function filesOf(ctx: ModuleContext, ref: MemberRef, userId: number): Promise<number[]> {
  if ('fileId' in ref) {
    const file = await ctx.services.hubfile.getVisibleFile(ref.fileId, userId);
    if (!file) throw notFound(`There is no file with id ${ref.fileId}.`);
    return [file.id];
  }
  const [dataset] = await ctx.services.dataset.summariesOf([ref.datasetId]);
  if (!dataset || (dataset.doi === null && dataset.userId !== userId)) throw notFound(`There is no dataset with id ${ref.datasetId}.`);
  const models = await ctx.services.featuremodel.listByDataset(dataset.id);
  return models.flatMap((m) => m.files.map((f) => f.id));
}

/**
 * Adds the files not held yet, within the limit (400 beyond it, nothing added), while the
 * collection is held as a draft; `gone` when a file was deleted (with its dataset) since it was found.
 */
function addFiles(ctx: ModuleContext, id: number, fileIds: number[], gone: () => HttpError): Promise<{ added: number; total: number }> {
  return writingMembers(ctx, gone, async (trx) => {
    await holdDraft(trx, id);
    // Read under the hold: a second tab's change of the same collection has committed or waits.
    const held = new Set(await repo.memberIds(trx, id));
    const fresh = [...new Set(fileIds)].filter((f) => !held.has(f));
    if (held.size + fresh.length > MAX_COLLECTION_FILES) {
      throw badRequest(`A collection holds at most ${MAX_COLLECTION_FILES} files; this one has ${held.size}.`);
    }
    const added = await insertAll(trx, id, fresh, gone);
    return { added, total: held.size + added };
  });
}

export async function add(ctx: ModuleContext, id: number, userId: number, ref: MemberRef): Promise<{ added: number; total: number }> {
  await editable(ctx, id, userId);
  return addFiles(ctx, id, await filesOf(ctx, ref, userId), () => goneRef(ref));
}

/** Every file of the user's cart that they may still see, added at once (the cart's order). */
export async function addCart(ctx: ModuleContext, id: number, userId: number): Promise<{ added: number; total: number }> {
  await editable(ctx, id, userId);
  return addFiles(ctx, id, await cartFileIds(ctx, userId), CART_FILE_GONE);
}

export async function remove(ctx: ModuleContext, id: number, userId: number, ref: MemberRef): Promise<{ removed: number }> {
  await editable(ctx, id, userId);
  const fileIds = 'fileId' in ref ? [ref.fileId] : await filesOf(ctx, ref, userId);
  return ctx.db.transaction().execute(async (trx) => {
    await holdDraft(trx, id);
    return { removed: await repo.removeMembers(trx, id, fileIds) };
  });
}

export function memberIds(ctx: ModuleContext, id: number): Promise<number[]> {
  return repo.memberIds(ctx.db, id);
}

/** `/doi/<doi>/` of a published collection's DOI (or concept DOI) leads to its page. */
export async function landingOf(ctx: ModuleContext, doi: string): Promise<string | undefined> {
  const row = await repo.publishedByDoi(ctx.db, doi);
  return row ? `/collection/${row.id}/` : undefined;
}

export function createCollectionService(ctx: ModuleContext) {
  return bindOperations(ctx, {
    create, describeRef, listMine, get, add, addCart, remove, memberIds,
    memberEntries, memberFacts, membersWithHashes, citationsOf,
    publish: publishCollection, newVersion, publishedCollections, saveSearch, landingOf,
  });
}

export type CollectionService = ReturnType<typeof createCollectionService>;
