// Login throttling and the reset requests' window (extensions section 5), counted in the
// login_attempt table: the subjects a failure counts against, how long they stay locked, and the
// record of a failure with the hourly sweep of old ones. Split from auth.service.ts.
import { createHash } from 'node:crypto';
import type { ModuleContext } from '../../core/modules.ts';
import { nowIso } from '../../core/db/database.ts';
import { replaceControlCharacters } from '../../core/http/forms.ts';
import * as repo from './auth.repository.ts';

/**
 * Login throttling (extensions section 5, after OWASP's advice): failures count against the
 * pair (account, address) and against the account alone. 10 within 15 minutes lock the pair,
 * so a lab behind one router is not locked out by one person's typos; 50 lock the account
 * from everywhere, which still bounds a guessing attack spread over many addresses.
 */
export const PAIR_MAX_FAILURES = 10;
export const ACCOUNT_MAX_FAILURES = 50;
export const FAILURE_WINDOW_MS = 15 * 60 * 1000;

/** Reset requests per address are counted over an hour (auth.service.ts, allowResetRequest). */
export const RESET_REQUEST_WINDOW_MS = 60 * 60 * 1000;

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The pair (account, address) and the account a failed login counts against. */
export function throttleSubjects(email: string, address: string) {
  const account = `account:${replaceControlCharacters(email, '?')}`.slice(0, 300);
  // The pair is hashed: an email of 256 characters and an IPv6 address would not fit the column.
  const pair = `pair:${sha256(`${email}\n${address}`)}`;
  return { account, pair };
}

/** What throttling works with: the database, and when old failures were last swept (once an hour at most). */
export interface ThrottleDeps {
  ctx: Pick<ModuleContext, 'db'>;
  failures: { sweptAt: number };
}

/** How long the pair or the account stays locked, in ms; 0 when neither is. */
export async function lockedFor(d: ThrottleDeps, subjects: { account: string; pair: string }): Promise<number> {
  const now = Date.now();
  const since = new Date(now - FAILURE_WINDOW_MS).toISOString();
  let remaining = 0;
  for (const [subject, max] of [[subjects.pair, PAIR_MAX_FAILURES], [subjects.account, ACCOUNT_MAX_FAILURES]] as const) {
    const times = await repo.latestAttemptsSince(d.ctx.db, subject, since, max);
    // Locked until the max-th latest failure leaves the window.
    if (times.length >= max) remaining = Math.max(remaining, Date.parse(times[max - 1]!) + FAILURE_WINDOW_MS - now);
  }
  return remaining;
}

export async function recordFailure(d: ThrottleDeps, subjects: { account: string; pair: string }): Promise<void> {
  await repo.insertAttempts(d.ctx.db, [subjects.pair, subjects.account], nowIso());
  // Failures older than the window count for nothing: removed at most once an hour.
  if (Date.now() - d.failures.sweptAt > 60 * 60 * 1000) {
    d.failures.sweptAt = Date.now();
    // The reset requests' rows (same table) count for an hour, longer than failed logins.
    await repo.deleteAttemptsBefore(d.ctx.db, new Date(Date.now() - Math.max(FAILURE_WINDOW_MS, RESET_REQUEST_WINDOW_MS)).toISOString());
  }
}
