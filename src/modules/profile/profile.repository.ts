import type { DbOrTrx } from '../../core/db/connect.ts';
import { insertAndGetId } from '../../core/db/connect.ts';
import type { UserProfileTable } from './profile.tables.ts';

export type ProfileChanges = Partial<Pick<UserProfileTable, 'name' | 'surname' | 'orcid' | 'affiliation'>>;

export function insertProfile(db: DbOrTrx, values: { user_id: number; name: string; surname: string }) {
  return insertAndGetId(db, 'user_profile', { ...values, orcid: null, affiliation: null });
}

export function findByUserId(db: DbOrTrx, userId: number) {
  return db.selectFrom('user_profile').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export function findById(db: DbOrTrx, id: number) {
  return db.selectFrom('user_profile').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateProfile(db: DbOrTrx, id: number, changes: ProfileChanges): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('user_profile').set(changes).where('id', '=', id).execute();
}
