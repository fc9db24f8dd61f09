// The dataset's deposit bookkeeping on its metadata row: the deposit claim (one deposit at a
// time, and changes held off while one runs) and the deposition a publish left pending.
import type { DbOrTrx } from '../../core/db/connect.ts';

/**
 * Records the deposition a publish is about to publish (before its publish step is sent); null
 * once Zenodo confirmed it did not publish it (its draft discarded, or gone). Only under the
 * deposit claim taken at `claimedAt`: a publish that lost its claim to a newer one neither
 * replaces nor clears that one's pending deposition. Answers whether it was written.
 */
export async function setPendingDeposition(db: DbOrTrx, metaId: number, claimedAt: string, depositionId: number | null): Promise<boolean> {
  const result = await db.updateTable('ds_meta_data').set({ pending_deposition_id: depositionId })
    .where('id', '=', metaId).where('deposit_claimed_at', '=', claimedAt).executeTakeFirst();
  // MariaDB counts rows matched, not only changed (FOUND_ROWS): an unchanged id still answers true.
  return Number(result.numUpdatedRows) === 1;
}

/** The DOI stored on a dataset's metadata row; null when it has none (yet). */
export async function doiOfMeta(db: DbOrTrx, metaId: number): Promise<string | null> {
  const row = await db.selectFrom('ds_meta_data').select('dataset_doi').where('id', '=', metaId).executeTakeFirst();
  return row?.dataset_doi ?? null;
}

/** The deposition an earlier publish was about to publish and never saw stored; null when none. */
export async function pendingDeposition(db: DbOrTrx, metaId: number): Promise<number | null> {
  const row = await db.selectFrom('ds_meta_data').select('pending_deposition_id').where('id', '=', metaId).executeTakeFirst();
  // PostgreSQL answers BIGINT as a string.
  return row?.pending_deposition_id === null || row?.pending_deposition_id === undefined ? null : Number(row.pending_deposition_id);
}

/**
 * Claims the deposit of an unsynchronized dataset: one conditional UPDATE that only one request
 * wins; a claim taken before `staleBefore` belongs to a process that died and is taken over.
 * Answers the claim's time (to release it), or undefined when another publish holds it or the
 * dataset has a DOI.
 */
export async function claimDeposit(db: DbOrTrx, metaId: number, staleBefore: string): Promise<string | undefined> {
  const claimedAt = new Date().toISOString();
  const result = await db.updateTable('ds_meta_data').set({ deposit_claimed_at: claimedAt })
    .where('id', '=', metaId).where('dataset_doi', 'is', null)
    .where((eb) => eb.or([eb('deposit_claimed_at', 'is', null), eb('deposit_claimed_at', '<', staleBefore)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? claimedAt : undefined;
}

/**
 * Within a change's transaction: answers false when the dataset has its DOI by now or a deposit
 * claim newer than `staleBefore` is taken; otherwise locks the row (and clears a stale claim,
 * whose process died) until the commit.
 */
export async function holdAgainstDeposit(trx: DbOrTrx, metaId: number, staleBefore: string): Promise<boolean> {
  const result = await trx.updateTable('ds_meta_data').set({ deposit_claimed_at: null })
    .where('id', '=', metaId).where('dataset_doi', 'is', null)
    .where((eb) => eb.or([eb('deposit_claimed_at', 'is', null), eb('deposit_claimed_at', '<', staleBefore)]))
    .executeTakeFirst();
  // MariaDB counts rows matched, not only changed, as mysql2 connects with FOUND_ROWS.
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Within the transaction of work done under the deposit claim taken at `claimedAt`: answers whether
 * the claim is still that one (past the stale time a publish may have taken it over), and if so
 * locks the row until the commit, so that no publish takes it over before the work is committed.
 */
export async function holdOwnClaim(trx: DbOrTrx, metaId: number, claimedAt: string): Promise<boolean> {
  const result = await trx.updateTable('ds_meta_data').set({ deposit_claimed_at: claimedAt })
    .where('id', '=', metaId).where('deposit_claimed_at', '=', claimedAt).executeTakeFirst();
  // MariaDB counts rows matched, not only changed (FOUND_ROWS): the unchanged value still answers true.
  return Number(result.numUpdatedRows) === 1;
}

/** Gives the deposit claim back, if it is still the one taken at `claimedAt`; answers whether it was. */
export async function releaseDeposit(db: DbOrTrx, metaId: number, claimedAt: string): Promise<boolean> {
  const result = await db.updateTable('ds_meta_data').set({ deposit_claimed_at: null })
    .where('id', '=', metaId).where('deposit_claimed_at', '=', claimedAt).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
