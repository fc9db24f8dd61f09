// Queries on the collection module's own tables.
import type { Selectable } from 'kysely';
import type { DbOrTrx } from '../../core/db/connect.ts';
import { inChunks, insertAndGetId, insertUnlessDuplicate } from '../../core/db/connect.ts';
import { nowIso } from '../../core/db/database.ts';
import type { CollectionTable } from './collection.tables.ts';

export type CollectionRow = Selectable<CollectionTable>;

export interface NewCollection {
  userId: number;
  title: string;
  description: string;
  tags: string | null;
  query: string | null;
  previousId?: number | null;
  conceptDoi?: string | null;
  version?: number;
}

export function insertCollection(db: DbOrTrx, c: NewCollection): Promise<number> {
  return insertAndGetId(db, 'collection', {
    user_id: c.userId, title: c.title, description: c.description, tags: c.tags, query: c.query,
    previous_id: c.previousId ?? null, concept_doi: c.conceptDoi ?? null, version: c.version ?? 1, created_at: nowIso(),
  });
}

export function findCollection(db: DbOrTrx, id: number): Promise<CollectionRow | undefined> {
  return db.selectFrom('collection').selectAll().where('id', '=', id).executeTakeFirst();
}

export function collectionsOf(db: DbOrTrx, userId: number): Promise<CollectionRow[]> {
  return db.selectFrom('collection').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

export function publishedCollections(db: DbOrTrx): Promise<CollectionRow[]> {
  return db.selectFrom('collection').selectAll().where('doi', 'is not', null).orderBy('published_at').orderBy('id').execute();
}

/** The published collection with this DOI, or for a concept DOI its newest published version. */
export async function publishedByDoi(db: DbOrTrx, doi: string): Promise<CollectionRow | undefined> {
  return await db.selectFrom('collection').selectAll().where('doi', '=', doi).executeTakeFirst()
    ?? await db.selectFrom('collection').selectAll().where('concept_doi', '=', doi).where('doi', 'is not', null)
      .orderBy('version', 'desc').executeTakeFirst();
}

/** The newer version of a collection, if one was started. */
export function nextVersionOf(db: DbOrTrx, id: number): Promise<CollectionRow | undefined> {
  return db.selectFrom('collection').selectAll().where('previous_id', '=', id).executeTakeFirst();
}

/** The member file ids in the order added. */
export async function memberIds(db: DbOrTrx, collectionId: number): Promise<number[]> {
  const rows = await db.selectFrom('collection_member').select('file_id').where('collection_id', '=', collectionId)
    .orderBy('added_at').orderBy('file_id').execute();
  return rows.map((r) => Number(r.file_id));
}

export async function memberCounts(db: DbOrTrx, collectionIds: number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  for (const chunk of inChunks(collectionIds)) {
    const rows = await db.selectFrom('collection_member').select(['collection_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('collection_id', 'in', chunk).groupBy('collection_id').execute();
    for (const r of rows) counts.set(Number(r.collection_id), Number(r.n));
  }
  return counts;
}

/** Adds the files not there yet (a second tab may add one at once); answers how many were new. */
export async function addMembers(db: DbOrTrx, collectionId: number, fileIds: number[]): Promise<number> {
  let added = 0;
  const base = Date.now();
  // One millisecond apart, so that the members keep the order they were given in.
  for (const [i, fileId] of fileIds.entries()) {
    if (await insertUnlessDuplicate(db, 'collection_member', { collection_id: collectionId, file_id: fileId, added_at: new Date(base + i).toISOString() })) added++;
  }
  return added;
}

export async function removeMembers(db: DbOrTrx, collectionId: number, fileIds: number[]): Promise<number> {
  let removed = 0;
  for (const chunk of inChunks(fileIds)) {
    const result = await db.deleteFrom('collection_member').where('collection_id', '=', collectionId).where('file_id', 'in', chunk).executeTakeFirst();
    removed += Number(result.numDeletedRows);
  }
  return removed;
}

/**
 * Records the DOI and gives the claim back, if the claim is still the one taken at `claimedAt`
 * (a publish that ran past the stale time may have lost it to a newer one); answers whether it was.
 */
export async function recordPublication(db: DbOrTrx, id: number, claimedAt: string, p: { doi: string; conceptDoi: string; depositionId: number | null }): Promise<boolean> {
  const result = await db.updateTable('collection').set({ doi: p.doi, concept_doi: p.conceptDoi, deposition_id: p.depositionId, published_at: nowIso(), publish_claimed_at: null })
    .where('id', '=', id).where('doi', 'is', null).where('publish_claimed_at', '=', claimedAt).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Within a membership change's transaction: answers false when the collection has its DOI or a
 * live publish claim; otherwise locks its row (clearing a dead process's claim) until the commit,
 * so a publish claimed meanwhile waits for the change and reads the members it made.
 */
export async function holdDraft(trx: DbOrTrx, id: number, staleBefore: string): Promise<boolean> {
  const result = await trx.updateTable('collection').set({ publish_claimed_at: null })
    .where('id', '=', id).where('doi', 'is', null)
    .where((eb) => eb.or([eb('publish_claimed_at', 'is', null), eb('publish_claimed_at', '<', staleBefore)]))
    .executeTakeFirst();
  // MariaDB counts rows matched, not only changed, as mysql2 connects with FOUND_ROWS.
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Takes the publish claim of an unpublished collection unless a live one holds it (one taken
 * before `staleBefore` is taken over). Answers the claim's time, which the publish keeps: it
 * finishes or releases only that claim. Undefined when it was not taken.
 */
export async function claimPublish(db: DbOrTrx, id: number, staleBefore: string): Promise<string | undefined> {
  const claimedAt = nowIso();
  const result = await db.updateTable('collection').set({ publish_claimed_at: claimedAt })
    .where('id', '=', id).where('doi', 'is', null)
    .where((eb) => eb.or([eb('publish_claimed_at', 'is', null), eb('publish_claimed_at', '<', staleBefore)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? claimedAt : undefined;
}

/**
 * The draft a publish is about to publish (Zenodo's deposition id), kept until its DOI is recorded;
 * only under the claim taken at `claimedAt` (a newer publish's pending draft is not replaced).
 * Answers whether it was kept.
 */
export async function setPendingDeposition(db: DbOrTrx, id: number, claimedAt: string, depositionId: number): Promise<boolean> {
  const result = await db.updateTable('collection').set({ deposition_id: depositionId })
    .where('id', '=', id).where('doi', 'is', null).where('publish_claimed_at', '=', claimedAt).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives the publish claim back, if it is still the one taken at `claimedAt`; answers whether it was. */
export async function releasePublish(db: DbOrTrx, id: number, claimedAt: string): Promise<boolean> {
  const result = await db.updateTable('collection').set({ publish_claimed_at: null })
    .where('id', '=', id).where('publish_claimed_at', '=', claimedAt).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
