// View and download counting with deduplication cookies, shared by the dataset and file
// routes (specification: dataset Download rules, hubfile rules 1 to 3): the cookie is reused
// when the visitor has it and set only when absent, for two years, path /; the record is
// written once the response was built (a route onSend hook, GET answered 200), so an answer
// that failed or was refused is never counted.
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import { fixedCookie } from './cookie-security.ts';

export const TRACKING_COOKIE_MAX_AGE = 63072000;

/** Cookie values we issue are UUIDs; anything else a client sends is replaced (the column holds 64 characters). */
const COOKIE_VALUE = /^[A-Za-z0-9-]{8,64}$/;

const TRACKING_COOKIE_OPTIONS = { maxAge: TRACKING_COOKIE_MAX_AGE, path: '/', httpOnly: true, sameSite: 'lax' as const };
const trackingCookies = new Map<string, ReturnType<typeof fixedCookie>>();

export function trackingCookie(request: FastifyRequest, reply: FastifyReply, name: string): string {
  const existing = request.cookies[name];
  if (existing && COOKIE_VALUE.test(existing)) return existing;
  const value = timeOrderedUuid();
  let setCookie = trackingCookies.get(name);
  if (setCookie === undefined) trackingCookies.set(name, setCookie = fixedCookie(name, TRACKING_COOKIE_OPTIONS));
  // Secure in production, elsewhere whenever the visitor came over HTTPS (cookie-security.ts).
  setCookie(request, reply, value);
  return value;
}

/** Random bytes drawn for many values at a time: one draw from the system per 256 values. */
let randomPool = Buffer.alloc(0);
let randomAt = 0;

/**
 * A new cookie value: a UUID in version 7's layout, its first 48 bits the time in milliseconds and
 * 74 random bits after them. Each record's unique index holds (dataset, user, cookie): values that
 * grow with time go in at the index's end, where random ones (version 4) fall on a random page of
 * an ever larger index, each first visit then dirtying a page of its own in the database's log
 * (a quarter of a first visit's cost on SQLite, measured). The random bits keep values unguessable.
 */
export function timeOrderedUuid(now = Date.now()): string {
  if (randomAt + 10 > randomPool.length) {
    randomPool = randomBytes(10 * 256);
    randomAt = 0;
  }
  const random = randomPool.toString('hex', randomAt, randomAt + 10);
  randomAt += 10;
  const time = now.toString(16).padStart(12, '0');
  // Version 7 in the 13th digit; the variant's two bits (10) in the 17th.
  const variant = ((parseInt(random[3]!, 16) & 0x3) | 0x8).toString(16);
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(0, 3)}-${variant}${random.slice(4, 7)}-${random.slice(7, 19)}`;
}

/** Writes the record; a value that is no promise means nothing was left to write (a record known to exist). */
type Recorder = (cookie: string) => unknown;

const pending = new WeakMap<FastifyRequest, Recorder>();

/** Marks the response as countable; the record is written by `recordWhenBuilt` if it goes out as 200. */
export function countOnSuccess(request: FastifyRequest, record: Recorder): void {
  pending.set(request, record);
}

export function recordWhenBuilt(cookieName: string): onSendHookHandler {
  // Callback style: the answers with nothing to record pass without a promise made.
  return function onSend(request, reply, payload, done) {
    const record = pending.get(request);
    if (!record || reply.statusCode !== 200 || request.method !== 'GET') return done(null, payload);
    pending.delete(request);
    // A failed count must not cost the visitor the page or the file.
    const failed = (error: unknown) => {
      request.log.error({ err: error }, `could not record (${cookieName})`);
      done(null, payload);
    };
    let written: unknown;
    try {
      written = record(trackingCookie(request, reply, cookieName));
    } catch (error) {
      return failed(error);
    }
    if (!(written instanceof Promise)) return done(null, payload);
    written.then(() => done(null, payload), failed);
  };
}
