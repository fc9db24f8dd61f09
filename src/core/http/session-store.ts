// Sessions live in the database so that several instances share them (decisions section 3).
import type { SessionStore } from '@fastify/session';
import type { Session } from 'fastify';
import type { Db } from '../db/connect.ts';
import { isUniqueViolation } from '../db/connect.ts';

const DAY = 24 * 60 * 60 * 1000;

export class DatabaseSessionStore implements SessionStore {
  private sweptAt = 0;

  constructor(private readonly db: Db) {}

  set(sid: string, session: Session, callback: (err?: unknown) => void): void {
    this.save(sid, session).then(() => callback(), callback);
  }

  get(sid: string, callback: (err: unknown, result?: Session | null) => void): void {
    this.load(sid).then((s) => callback(null, s), (e) => callback(e));
  }

  destroy(sid: string, callback: (err?: unknown) => void): void {
    this.db.deleteFrom('session').where('sid', '=', sid).execute().then(() => callback(), callback);
  }

  private async load(sid: string): Promise<Session | null> {
    const row = await this.db.selectFrom('session').select(['data', 'expires_at']).where('sid', '=', sid).executeTakeFirst();
    if (!row || row.expires_at < new Date().toISOString()) return null;
    return JSON.parse(row.data) as Session;
  }

  private async save(sid: string, session: Session): Promise<void> {
    const expires = session.cookie?.expires ? new Date(session.cookie.expires) : new Date(Date.now() + 30 * DAY);
    const values = { data: JSON.stringify(session), expires_at: expires.toISOString() };
    const updated = await this.db.updateTable('session').set(values).where('sid', '=', sid).executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      try {
        await this.db.insertInto('session').values({ sid, ...values }).execute();
      } catch (error) {
        // Another request of the same visitor inserted it first: ours is newer.
        if (!isUniqueViolation(error)) throw error;
        await this.db.updateTable('session').set(values).where('sid', '=', sid).execute();
      }
    }
    await this.sweep();
  }

  /** Removes expired sessions at most once an hour, piggybacking on writes. */
  private async sweep(): Promise<void> {
    const now = Date.now();
    if (now - this.sweptAt < 60 * 60 * 1000) return;
    this.sweptAt = now;
    await this.db.deleteFrom('session').where('expires_at', '<', new Date(now).toISOString()).execute();
  }
}
