// View and download counting with deduplication cookies, shared by the dataset and file
// routes (specification: dataset Download rules, hubfile rules 1 to 3): the cookie is reused
// when the visitor has it and set only when absent, for two years, path /; the record is
// written once the response was built (a route onSend hook, GET answered 200), so an answer
// that failed or was refused is never counted.
import { randomUUID } from 'node:crypto';
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
  const value = randomUUID();
  let setCookie = trackingCookies.get(name);
  if (setCookie === undefined) trackingCookies.set(name, setCookie = fixedCookie(name, TRACKING_COOKIE_OPTIONS));
  // Secure in production, elsewhere whenever the visitor came over HTTPS (cookie-security.ts).
  setCookie(request, reply, value);
  return value;
}

type Recorder = (cookie: string) => Promise<unknown>;

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
    // The executor turns a throw of the recorder into a rejection like its own.
    new Promise<unknown>((resolve) => resolve(record(trackingCookie(request, reply, cookieName)))).then(() => done(null, payload), (error: unknown) => {
      // A failed count must not cost the visitor the page or the file.
      request.log.error({ err: error }, `could not record (${cookieName})`);
      done(null, payload);
    });
  };
}
