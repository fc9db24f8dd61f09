// The rate-limit counters, one row per (bucket, minute) in the database, so that every
// instance serving the database counts the same requests (extensions section 3).
import type { DbOrTrx } from '../../core/db/connect.ts';
import { isUniqueViolation } from '../../core/db/connect.ts';
import './api.tables.ts';

/**
 * Counts one request of `bucket` in minute `window` and answers the minute's count so far.
 * An UPDATE that adds one is atomic on every dialect; the first request of a minute inserts
 * the row, and of two first requests racing, the one whose INSERT fails updates instead.
 */
export async function hit(db: DbOrTrx, bucket: string, window: number): Promise<number> {
  for (;;) {
    const updated = await db.updateTable('api_rate_limit').set((eb) => ({ hits: eb('hits', '+', 1) }))
      .where('bucket', '=', bucket).where('window_start', '=', window).executeTakeFirst();
    if (Number(updated.numUpdatedRows) > 0) {
      const row = await db.selectFrom('api_rate_limit').select('hits').where('bucket', '=', bucket).where('window_start', '=', window).executeTakeFirst();
      return Number(row?.hits ?? 1);
    }
    try {
      await db.insertInto('api_rate_limit').values({ bucket, window_start: window, hits: 1 }).execute();
      return 1;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
}

/** Counters of minutes before `window` are of no use any more. */
export async function forgetBefore(db: DbOrTrx, window: number): Promise<void> {
  await db.deleteFrom('api_rate_limit').where('window_start', '<', window).execute();
}
