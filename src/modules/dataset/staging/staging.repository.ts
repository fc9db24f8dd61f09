// The claim ledger of staging (staging.ts): rows of staged_claim, one per staged file an upload is
// taking; the primary key (folder, name) lets exactly one claim hold a file.
import type { Db } from '../../../core/db/connect.ts';
import { isDeadlock, isUniqueViolation } from '../../../core/db/connect.ts';
import { STALE_CLAIM_MS, type ClaimLedger } from './staging.ts';
import type { StagingInstances } from './instances.ts';

/** `instances`: this instance, named in its claims, and which others are gone (their claims are free at once). */
export function claimLedger(db: Db, instances?: StagingInstances): ClaimLedger {
  /** The holders among the folder's unsaved claims whose instance is gone. */
  const goneHolders = async (folder: string) => {
    if (!instances) return [];
    const rows = await db.selectFrom('staged_claim').select('instance_id').distinct()
      .where('folder', '=', folder).where('instance_id', 'is not', null).where('saved_at', 'is', null).execute();
    return [...await instances.gone(rows.map((r) => r.instance_id!))];
  };
  return {
    async hold(folder, names, claimId) {
      // Before the first claim naming this instance: a claim whose instance has no row is free.
      await instances?.register();
      const now = new Date();
      const staleBefore = new Date(now.getTime() - STALE_CLAIM_MS).toISOString();
      const gone = await goneHolders(folder);
      // A saved claim's rows stay until its files are discarded (recoverStale): without them its
      // files would be put back into the staging area beside the dataset that holds them.
      await db.deleteFrom('staged_claim').where('folder', '=', folder).where('saved_at', 'is', null)
        .where((eb) => (gone.length > 0 ? eb.or([eb('claimed_at', '<', staleBefore), eb('instance_id', 'in', gone)]) : eb('claimed_at', '<', staleBefore)))
        .execute();
      if (names.length === 0) return { ok: true };
      // One statement, all rows or none; names come sorted, so concurrent claims lock rows in one order.
      const insert = db.insertInto('staged_claim')
        .values(names.map((name) => ({ folder, name, claim_id: claimId, claimed_at: now.toISOString(), instance_id: instances?.id ?? null })));
      for (let attempt = 1; ; attempt++) {
        try {
          await insert.execute();
          return { ok: true };
        } catch (error) {
          if (isDeadlock(error) && attempt < 5) continue;
          // Another claim holds one of the names: the one case where the insert fails.
          if (!isUniqueViolation(error) && !isDeadlock(error)) throw error;
          const rows = await db.selectFrom('staged_claim').select('name')
            .where('folder', '=', folder).where('name', 'in', names).execute();
          return { ok: false, held: rows.map((r) => r.name) };
        }
      }
    },
    async refresh(claimId, at) {
      await db.updateTable('staged_claim').set({ claimed_at: at }).where('claim_id', '=', claimId).execute();
    },
    async holderGone(claimId) {
      const row = await db.selectFrom('staged_claim').select('instance_id').where('claim_id', '=', claimId).where('instance_id', 'is not', null).executeTakeFirst();
      return row !== undefined && instances !== undefined && (await instances.gone([row.instance_id!])).size > 0;
    },
    async free(claimId) {
      await db.deleteFrom('staged_claim').where('claim_id', '=', claimId).execute();
    },
    async setSaved(claimId, within, saved) {
      await within.updateTable('staged_claim').set({ saved_at: saved ? new Date().toISOString() : null }).where('claim_id', '=', claimId).execute();
    },
    async wasSaved(claimId) {
      return (await db.selectFrom('staged_claim').select('name').where('claim_id', '=', claimId).where('saved_at', 'is not', null).executeTakeFirst()) !== undefined;
    },
    async staleSaved(folder, staleBefore) {
      const rows = await db.selectFrom('staged_claim').select('claim_id').distinct()
        .where('folder', '=', folder).where('saved_at', 'is not', null).where('claimed_at', '<', staleBefore).execute();
      return rows.map((r) => r.claim_id);
    },
  };
}
