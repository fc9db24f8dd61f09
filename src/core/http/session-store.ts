// Sessions live in the database so that several instances share them (decisions section 3).
//
// An anonymous visitor's session holds nothing but its CSRF secret, and that secret is derived
// from the (signed) session id with the server's key, so such a session needs no row: it lives in
// its cookie alone. A first visit then writes nothing and a returning anonymous visitor reads one
// missing row, instead of an insert per visitor. A row is written as soon as the session holds
// anything else (a login, a flash message), and removed when it holds nothing else again.
//
// A returning anonymous visitor need not even read that missing row: the answer that leaves a
// session without a row also sets a hint cookie (ANONYMOUS_HINT_COOKIE), and the answer that
// writes its row removes the hint. A request with the hint is served the anonymous session
// without a query. The hint only ever saves a lookup: without it (lost, never set, a session
// older than the hint) the row is looked up; a client that forges it merely logs itself out.
import { createHmac } from 'node:crypto';
import type { SessionStore } from '@fastify/session';
import type { Session } from 'fastify';
import { compiledOnce, type Db, type DbOrTrx } from '../db/connect.ts';
import { MysqlAdapter } from 'kysely';
import { Signer } from '@fastify/cookie';
import { LruMap } from '../lru-map.ts';

const DAY = 24 * 60 * 60 * 1000;

// Read on every request that carries a session cookie: compiled once.
const loadQuery = compiledOnce((db: DbOrTrx, sid: string) => db.selectFrom('session').select(['data', 'expires_at']).where('sid', '=', sid));

/** Where @fastify/csrf-protection keeps the secret in the session. */
export const CSRF_SESSION_KEY = '_csrf';

/** Present (value "1") while the visitor's session has no row. */
export const ANONYMOUS_HINT_COOKIE = 'session_anonymous';

/** What the last write of a session in this request left: a row, or none. */
export type SessionWrite = 'row' | 'rowless';

export class DatabaseSessionStore implements SessionStore {
  private sweptAt = 0;
  private readonly csrfKey: Buffer;
  /** New sessions given their derived secret in this request: no row exists for them. */
  private readonly rowless = new WeakSet<object>();
  /** Sessions written in this request, and whether a row was left. */
  private readonly writes = new WeakMap<object, SessionWrite>();
  /** Session ids whose request carried the hint: their next load reads no row. */
  private readonly hinted = new Set<string>();
  /** Session ids looked up without a hint and found without a row: their answer sets the hint. */
  private readonly foundRowless = new Set<string>();

  constructor(private readonly db: Db, secretKey: string) {
    this.csrfKey = createHmac('sha256', secretKey).update('anonymous session CSRF secret').digest();
  }

  /** Derived secrets of recent sessions: the same HMAC is otherwise computed on each of their requests. */
  private readonly derivedSecrets = new LruMap<string, string>(10_000);

  /** The CSRF secret of the session with this id when nothing else is stored for it. */
  anonymousCsrfSecret(sid: string): string {
    return this.derivedSecrets.getOrMake(sid, this.deriveSecret);
  }

  /** The secret of an id never seen before (http/session-ids.ts), kept for its session's requests. */
  prepareAnonymousCsrfSecret(sid: string): string {
    return this.derivedSecrets.makeNew(sid, this.deriveSecret);
  }

  private readonly deriveSecret = (sid: string): string => createHmac('sha256', this.csrfKey).update(sid).digest('base64url').slice(0, 24);

  /** Gives a session that has no CSRF secret yet the derived one. */
  deriveCsrfSecret(session: Session & { sessionId?: string }): void {
    const data = session as unknown as Record<string, unknown>;
    if (!session.sessionId || data[CSRF_SESSION_KEY] !== undefined) return;
    data[CSRF_SESSION_KEY] = this.anonymousCsrfSecret(session.sessionId);
  }

  /** A session made for this request (it carried no cookie of it): no row can exist for it. */
  markNew(session: Session): void {
    this.rowless.add(session);
  }

  /** Whether the session holds nothing but its derived CSRF secret. */
  private isAnonymous(sid: string, session: Session): boolean {
    const data = session as unknown as Record<string, unknown>;
    for (const key in data) {
      if (key === 'cookie' || data[key] === undefined) continue;
      if (key !== CSRF_SESSION_KEY || data[key] !== this.anonymousCsrfSecret(sid)) return false;
    }
    return true;
  }

  /** The request carried the hint for this session id (checked before the plugin loads the session). */
  expectNoRow(sid: string): void {
    this.hinted.add(sid);
  }

  /** Forgets what the request's load left behind for this session id (once its answer is sent). */
  forgetHint(sid: string): void {
    this.hinted.delete(sid);
    this.foundRowless.delete(sid);
  }

  /** Whether the session has a row after this request ('row', 'rowless'), or whether it is unknown. */
  writeOf(session: (Session & { sessionId?: string }) | undefined): SessionWrite | undefined {
    if (!session) return undefined;
    const written = this.writes.get(session);
    if (written !== undefined) return written;
    return session.sessionId !== undefined && this.foundRowless.delete(session.sessionId) ? 'rowless' : undefined;
  }

  set(sid: string, session: Session, callback: (err?: unknown) => void): void {
    // A new session that showed no page has no secret yet; its row holds the derived one all the same.
    this.deriveCsrfSecret(session as Session & { sessionId?: string });
    const anonymous = this.isAnonymous(sid, session);
    if (anonymous && this.rowless.has(session)) {
      // A new session that holds nothing but its secret: nothing to write, no turn to wait for.
      this.writes.set(session, 'rowless');
      return callback();
    }
    const write = !anonymous ? this.save(sid, session)
      // A session that was logged out in place (its user removed) loses its row.
      : this.db.deleteFrom('session').where('sid', '=', sid).execute().then(() => {});
    write.then(() => {
      this.writes.set(session, anonymous ? 'rowless' : 'row');
      callback();
    }, callback);
  }

  get(sid: string, callback: (err: unknown, result?: Session | null) => void): void {
    this.load(sid).then((s) => callback(null, s), (e) => callback(e));
  }

  destroy(sid: string, callback: (err?: unknown) => void): void {
    this.db.deleteFrom('session').where('sid', '=', sid).execute().then(() => callback(), callback);
  }

  private async load(sid: string): Promise<Session | null> {
    if (this.hinted.delete(sid)) return { [CSRF_SESSION_KEY]: this.anonymousCsrfSecret(sid) } as unknown as Session;
    const [row] = (await loadQuery(this.db, sid)).rows;
    // No row: the anonymous session of a cookie this server signed (the plugin checked the signature).
    if (!row) this.foundRowless.add(sid);
    if (!row) return { [CSRF_SESSION_KEY]: this.anonymousCsrfSecret(sid) } as unknown as Session;
    if (row.expires_at < new Date().toISOString()) return null;
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

/**
 * The session cookie's signer (@fastify/session takes any object with sign and unsign) that
 * remembers what it signed and the cookies it verified: a returning visitor's cookie is otherwise
 * checked, and its id signed again, with an HMAC each on every request. Only valid answers are
 * kept, under the exact cookie text.
 */
export class RememberingSigner {
  private readonly signer: Signer;
  private readonly verified = new LruMap<string, ReturnType<Signer['unsign']>>(10_000);

  constructor(secret: string) {
    this.signer = new Signer(secret);
  }

  /** Signed ids of recent sessions: @fastify/session signs the id each time it builds a session. */
  private readonly signed = new LruMap<string, string>(10_000);

  sign(value: string): string {
    return this.signed.getOrMake(value, this.signWithKey);
  }

  /**
   * Signs an id made ahead of its session (http/session-ids.ts) and remembers both ways: the
   * session's first answer signs the id, and the visitor's return verifies the cookie.
   */
  prepare(value: string): string {
    const signed = this.signed.makeNew(value, this.signWithKey);
    this.verified.set(signed, { valid: true, renew: false, value });
    return signed;
  }

  private readonly signWithKey = (value: string): string => this.signer.sign(value);

  unsign(signed: string): ReturnType<Signer['unsign']> {
    const known = this.verified.get(signed);
    if (known !== undefined) return known;
    const answer = this.signer.unsign(signed);
    if (answer.valid && !answer.renew) this.verified.set(signed, answer);
    return answer;
  }
}
