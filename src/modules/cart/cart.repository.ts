// Queries on the cart module's own table.
import type { DbOrTrx } from '../../core/db/connect.ts';
import { isUniqueViolation } from '../../core/db/connect.ts';
import { nowIso } from '../../core/db/database.ts';

/** A user's cart, in the order the files were added. */
export async function itemsOf(db: DbOrTrx, userId: number): Promise<{ fileId: number; addedAt: string }[]> {
  const rows = await db.selectFrom('cart_item').select(['file_id', 'added_at']).where('user_id', '=', userId).orderBy('added_at').orderBy('file_id').execute();
  return rows.map((r) => ({ fileId: Number(r.file_id), addedAt: r.added_at }));
}

export async function fileIdsOf(db: DbOrTrx, userId: number): Promise<number[]> {
  return (await itemsOf(db, userId)).map((item) => item.fileId);
}

/** Adds a file unless it is there already (two tabs may add it at once); the time orders the cart. */
export async function addFile(db: DbOrTrx, userId: number, fileId: number, addedAt = nowIso()): Promise<void> {
  try {
    await db.insertInto('cart_item').values({ user_id: userId, file_id: fileId, added_at: addedAt }).execute();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
}

export async function removeFiles(db: DbOrTrx, userId: number, fileIds: number[]): Promise<void> {
  if (fileIds.length === 0) return;
  await db.deleteFrom('cart_item').where('user_id', '=', userId).where('file_id', 'in', fileIds).execute();
}
