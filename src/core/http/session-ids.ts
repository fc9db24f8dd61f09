// New sessions, made ahead of need. A new session costs two HMACs (its cookie's signature and
// its derived CSRF secret, http/session-store.ts) and a CSRF token before its first answer can
// be sent; for a visitor who comes once (a crawler, a first visit) that is most of the answer's
// work. The pool makes them in small batches on a later turn of the event loop: a first visit
// takes one whose signed id and token come with it (the early 404 uses them as they are) and
// already sit in their caches (the session plugin finds them there). The work is the same; it
// leaves the path of the answer that waits for it.
import { randomBytes } from 'node:crypto';

/** Random bytes drawn many ids at a time: one draw from the system per 128 ids. */
const ID_BYTES = 24;
let idBytes = randomBytes(0);
let idBytesAt = 0;

/** A new session id: 24 random bytes, base64url (what @fastify/session makes by default). */
export function newSessionId(): string {
  if (idBytesAt + ID_BYTES > idBytes.length) {
    idBytes = randomBytes(ID_BYTES * 128);
    idBytesAt = 0;
  }
  idBytesAt += ID_BYTES;
  return idBytes.toString('base64url', idBytesAt - ID_BYTES, idBytesAt);
}

/** A new session as its first answer needs it, made ahead: its id and what `prepare` adds. */
export interface PreparedSession {
  sid: string;
}

/** What the app's pool prepares: the id, its signed cookie value and the session's first CSRF token. */
export interface NewSession extends PreparedSession {
  signed: string;
  csrfToken: string;
}

export class SessionIdPool<T extends PreparedSession> {
  private readonly ready: T[] = [];
  private refilling = false;

  /** `prepare` makes what a new session with this id will need, and puts it into the caches. */
  constructor(private readonly prepare: (sid: string) => T, private readonly size = 256, private readonly batch = 32) {}

  /** A session never handed out before, prepared. */
  take(): T {
    const session = this.ready.pop() ?? this.make();
    if (!this.refilling && this.ready.length < this.size / 4) {
      this.refilling = true;
      setImmediate(this.refill);
    }
    return session;
  }

  private make(): T {
    return this.prepare(newSessionId());
  }

  /** One batch per turn, so that answers waiting meanwhile are not held up by a whole refill. */
  private readonly refill = (): void => {
    for (let i = 0; i < this.batch && this.ready.length < this.size; i++) this.ready.push(this.make());
    if (this.ready.length < this.size) setImmediate(this.refill);
    else this.refilling = false;
  };
}
