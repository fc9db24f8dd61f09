import type { DbOrTrx } from '../../core/db/connect.ts';
import { insertAndGetId } from '../../core/db/connect.ts';

export function findUserByEmail(db: DbOrTrx, email: string) {
  return db.selectFrom('user').selectAll().where('email', '=', email).executeTakeFirst();
}

export function findUserById(db: DbOrTrx, id: number) {
  return db.selectFrom('user').select(['id', 'email', 'created_at']).where('id', '=', id).executeTakeFirst();
}

export function insertUser(db: DbOrTrx, values: { email: string; password: string; created_at: string }) {
  return insertAndGetId(db, 'user', values);
}

export async function countUsers(db: DbOrTrx): Promise<number> {
  const row = await db.selectFrom('user').select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function countAttemptsSince(db: DbOrTrx, subject: string, since: string): Promise<number> {
  const row = await db.selectFrom('login_attempt').select((eb) => eb.fn.countAll().as('count'))
    .where('subject', '=', subject).where('attempted_at', '>=', since).executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertAttempts(db: DbOrTrx, subjects: string[], at: string): Promise<void> {
  await db.insertInto('login_attempt').values(subjects.map((subject) => ({ subject, attempted_at: at }))).execute();
}

export async function deleteAttempts(db: DbOrTrx, subject: string): Promise<void> {
  await db.deleteFrom('login_attempt').where('subject', '=', subject).execute();
}

export async function deleteAttemptsBefore(db: DbOrTrx, before: string): Promise<void> {
  await db.deleteFrom('login_attempt').where('attempted_at', '<', before).execute();
}
