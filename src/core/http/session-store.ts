// Sessions live in the database so that several instances share them (decisions section 3).
import type { SessionStore } from '@fastify/session';
import type { Session } from 'fastify';
import { compiledOnce, type Db, type DbOrTrx } from '../db/connect.ts';
import { MysqlAdapter } from 'kysely';

const DAY = 24 * 60 * 60 * 1000;

// Read on every request that carries a session cookie: compiled once.
const loadQuery = compiledOnce((db: DbOrTrx, sid: string) => db.selectFrom('session').select(['data', 'expires_at']).where('sid', '=', sid));

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
    const [row] = (await loadQuery(this.db, sid)).rows;
    if (!row || row.expires_at < new Date().toISOString()) return null;
    return JSON.parse(row.data) as Session;
  }

  private async save(sid: string, session: Session): Promise<void> {
    const expires = session.cookie?.expires ? new Date(session.cookie.expires) : new Date(Date.now() + 30 * DAY);
    const values = { data: JSON.stringify(session), expires_at: expires.toISOString() };
    // One statement whether the row exists or not (a visitor's parallel requests race on it).
    const insert = this.db.insertInto('session').values({ sid, ...values });
    await (this.db.getExecutor().adapter instanceof MysqlAdapter
      ? insert.onDuplicateKeyUpdate(values)
      : insert.onConflict((oc) => oc.column('sid').doUpdateSet(values))).execute();
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
