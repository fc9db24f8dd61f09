import type { DbOrTrx } from '../../core/db/connect.ts';
import { insertAndGetId } from '../../core/db/connect.ts';
import type { AccountTokenTable } from './auth.tables.ts';

export function findUserByEmail(db: DbOrTrx, email: string) {
  return db.selectFrom('user').selectAll().where('email', '=', email).executeTakeFirst();
}

export function findUserById(db: DbOrTrx, id: number) {
  return db.selectFrom('user').select(['id', 'email', 'created_at', 'credentials_changed_at']).where('id', '=', id).executeTakeFirst();
}

export function findPasswordHash(db: DbOrTrx, id: number) {
  return db.selectFrom('user').select(['id', 'email', 'password']).where('id', '=', id).executeTakeFirst();
}

export function insertUser(db: DbOrTrx, values: { email: string; password: string; created_at: string }) {
  return insertAndGetId(db, 'user', values);
}

export async function updatePassword(db: DbOrTrx, id: number, password: string, changedAt: string): Promise<void> {
  await db.updateTable('user').set({ password, credentials_changed_at: changedAt }).where('id', '=', id).execute();
}

export async function updateEmail(db: DbOrTrx, id: number, email: string): Promise<void> {
  await db.updateTable('user').set({ email }).where('id', '=', id).execute();
}

export async function countUsers(db: DbOrTrx): Promise<number> {
  const row = await db.selectFrom('user').select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The times of the subject's latest failures since `since`, newest first, at most `limit`. */
export async function latestAttemptsSince(db: DbOrTrx, subject: string, since: string, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('login_attempt').select('attempted_at')
    .where('subject', '=', subject).where('attempted_at', '>=', since)
    .orderBy('attempted_at', 'desc').limit(limit).execute();
  return rows.map((r) => r.attempted_at);
}

export async function insertAttempts(db: DbOrTrx, subjects: string[], at: string): Promise<void> {
  await db.insertInto('login_attempt').values(subjects.map((subject) => ({ subject, attempted_at: at }))).execute();
}

export async function deleteAttempts(db: DbOrTrx, subjects: string[]): Promise<void> {
  await db.deleteFrom('login_attempt').where('subject', 'in', subjects).execute();
}

export async function deleteAttemptsBefore(db: DbOrTrx, before: string): Promise<void> {
  await db.deleteFrom('login_attempt').where('attempted_at', '<', before).execute();
}

export function insertToken(db: DbOrTrx, values: Omit<AccountTokenTable, 'id' | 'used_at'>) {
  return insertAndGetId(db, 'account_token', { ...values, used_at: null });
}

/** A token that is unused and not expired at `now`. */
export function findUsableToken(db: DbOrTrx, tokenHash: string, purpose: AccountTokenTable['purpose'], now: string) {
  return db.selectFrom('account_token').selectAll()
    .where('token_hash', '=', tokenHash).where('purpose', '=', purpose)
    .where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
}

/** Marks the token used if it still is usable; true when this call claimed it (one use even under concurrency). */
export async function claimToken(db: DbOrTrx, id: number, now: string): Promise<boolean> {
  const result = await db.updateTable('account_token').set({ used_at: now })
    .where('id', '=', id).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Ends the user's other unused tokens of one purpose (a reset link is void once the password was reset). */
export async function voidTokens(db: DbOrTrx, userId: number, purpose: AccountTokenTable['purpose'], now: string): Promise<void> {
  await db.updateTable('account_token').set({ used_at: now })
    .where('user_id', '=', userId).where('purpose', '=', purpose).where('used_at', 'is', null).execute();
}

/**
 * Takes the write lock on a user's row until the transaction ends (a no-op update locks the row
 * on PostgreSQL and MariaDB; SQLite has one writer at a time anyway).
 */
export async function lockUserRow(trx: DbOrTrx, userId: number): Promise<void> {
  await trx.updateTable('user').set({ id: userId }).where('id', '=', userId).execute();
}

export async function countTokensSince(db: DbOrTrx, userId: number, purpose: AccountTokenTable['purpose'], since: string): Promise<number> {
  const row = await db.selectFrom('account_token').select((eb) => eb.fn.countAll().as('count'))
    .where('user_id', '=', userId).where('purpose', '=', purpose).where('created_at', '>=', since).executeTakeFirstOrThrow();
  return Number(row.count);
}
