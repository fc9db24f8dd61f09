// Authentication service (specification, auth; extensions section 5): accounts, credentials,
// login throttling, password reset and email change by emailed single-use links.
// It never sees the request or the session: routes turn its answers into session changes.
import { randomBytes } from 'node:crypto';
import type { ModuleContext } from '../../core/modules.ts';
import { bindOperations } from '../../core/operations.ts';
import { nowIso } from '../../core/db/database.ts';
import { isUniqueViolation, type Db } from '../../core/db/connect.ts';
import type { Transaction } from 'kysely';
import type { Database } from '../../core/db/database.ts';
import type { Config } from '../../core/config.ts';
import { hasControlCharacters } from '../../core/http/forms.ts';
import * as repo from './auth.repository.ts';
import { normalizeEmail, readEmail } from './email-address.ts';
import { describeAll, passwordWasReset, type SignInMethods } from './sign-in-methods.ts';
import { DUMMY_HASH, hashPassword, verifyPassword } from './password.ts';
import { emailChangeEmail, emailChangedNotice, passwordResetEmail } from './auth.emails.ts';
import { lockedFor, recordFailure, RESET_REQUEST_WINDOW_MS, sha256, throttleSubjects } from './login-throttle.ts';

export interface AuthUser {
  id: number;
  email: string;
  created_at: string;
  /** When a reset or change last set the password; sessions logged in before it are over. */
  credentials_changed_at: string | null;
}

export interface SignupInput {
  email: string;
  password: string;
  name: string;
  surname: string;
}

export type LoginResult =
  | { ok: true; user: AuthUser }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'throttled'; retryAfterMs: number };

/** Why a password check refused (login, and the current password of the account pages). */
export type PasswordRefusal = Exclude<LoginResult, { ok: true }>;

export class EmailInUseError extends Error {
  constructor(readonly email: string) {
    super(`${email} in use`);
  }
}

/** A reset or confirmation link that was used already, expired, or never existed. */
export class InvalidTokenError extends Error {
  constructor() {
    super('This link is no longer valid: it was used already or has expired.');
  }
}

/** Reset and confirmation links are valid one hour (extensions section 5). */
export const TOKEN_LIFETIME_MS = 60 * 60 * 1000;
/** At most this many reset emails per account and hour: the form cannot be used to flood a mailbox. */
export const MAX_RESET_EMAILS_PER_HOUR = 3;
/**
 * At most this many reset requests per network address and hour, whatever accounts they name
 * (issue 26): the form cannot be used to mail many people's inboxes from one place.
 */
export const MAX_RESET_REQUESTS_PER_ADDRESS_HOUR = 10;

/** An address that readEmail refuses, given to an operation that would store it. */
export class InvalidEmailError extends Error {}

/** The canonical address, or InvalidEmailError with readEmail's message. */
function storableEmail(input: string): string {
  const read = readEmail(input);
  if (!read.ok) throw new InvalidEmailError(read.message);
  return read.email;
}

/** What the operations work with: the module context, and when old failed logins were last swept (once an hour at most). */
interface AuthDeps {
  ctx: ModuleContext;
  failures: { sweptAt: number };
  /** The other ways into an account, added by the modules that give them (ORCID). */
  signInMethods: SignInMethods[];
}

/** Registers another way into accounts, so that a password reset names it (extensions section 11). */
export function addSignInMethods(d: AuthDeps, methods: SignInMethods): void {
  d.signInMethods.push(methods);
}

function siteUrl(config: Config): string {
  return `${config.env === 'production' ? 'https' : 'http'}://${config.domain}`;
}

/** No stored email has control characters, and PostgreSQL cannot even compare text holding U+0000. */
async function findUserByEmail(db: Db, normalized: string) {
  return hasControlCharacters(normalized) ? undefined : repo.findUserByEmail(db, normalized);
}

function publicUser(user: AuthUser): AuthUser {
  return { id: user.id, email: user.email, created_at: user.created_at, credentials_changed_at: user.credentials_changed_at };
}

/** A new random token: the link carries it, the database keeps its hash. */
function tokenRow(userId: number, purpose: 'reset' | 'email', newEmail: string | null) {
  const token = randomBytes(32).toString('base64url');
  const now = Date.now();
  const row = {
    user_id: userId, purpose, token_hash: sha256(token), new_email: newEmail,
    created_at: new Date(now).toISOString(), expires_at: new Date(now + TOKEN_LIFETIME_MS).toISOString(),
  };
  return { token, row };
}

async function issueToken(d: AuthDeps, userId: number, purpose: 'reset' | 'email', newEmail: string | null): Promise<string> {
  const { token, row } = tokenRow(userId, purpose, newEmail);
  await repo.insertToken(d.ctx.db, row);
  return token;
}

/**
 * A reset token unless the account had its hourly share already. The count and the insert
 * run under a lock on the user's row, so requests racing each other (the form answers before
 * this runs) or arriving at other instances cannot all pass the check.
 */
async function issueResetTokenWithinLimit(d: AuthDeps, userId: number): Promise<string | undefined> {
  return d.ctx.db.transaction().execute(async (trx) => {
    await repo.lockUserRow(trx, userId);
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000).toISOString();
    if (await repo.countTokensSince(trx, userId, 'reset', hourAgo) >= MAX_RESET_EMAILS_PER_HOUR) return undefined;
    const { token, row } = tokenRow(userId, 'reset', null);
    await repo.insertToken(trx, row);
    return token;
  });
}

/** The usable token behind a link, or undefined (used, expired, unknown or malformed). */
async function usableToken(d: AuthDeps, token: string, purpose: 'reset' | 'email') {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return undefined;
  return repo.findUsableToken(d.ctx.db, sha256(token), purpose, nowIso());
}

/** Ends the unused reset and email-change links of an account (its credentials changed). */
async function voidPendingLinks(trx: Transaction<Database>, userId: number, now: string): Promise<void> {
  await repo.voidTokens(trx, userId, 'reset', now);
  await repo.voidTokens(trx, userId, 'email', now);
}

/** Checks an account's password against the same throttle as the login form. */
async function checkPassword(d: AuthDeps, userId: number, password: string, remoteAddress: string): Promise<{ ok: true } | PasswordRefusal> {
  const user = await repo.findPasswordHash(d.ctx.db, userId);
  if (!user) return { ok: false, reason: 'invalid' };
  const subjects = throttleSubjects(user.email, remoteAddress);
  const retryAfterMs = await lockedFor(d, subjects);
  if (retryAfterMs > 0) return { ok: false, reason: 'throttled', retryAfterMs };
  if (await verifyPassword(password, user.password)) return { ok: true };
  await recordFailure(d, subjects);
  return { ok: false, reason: 'invalid' };
}

export async function isEmailAvailable(d: AuthDeps, email: string): Promise<boolean> {
  return !(await findUserByEmail(d.ctx.db, normalizeEmail(email)));
}

/** Creates the user and its profile in one transaction; neither row survives a failure of the other. */
export async function createWithProfile(d: AuthDeps, input: SignupInput): Promise<AuthUser> {
  const password = await hashPassword(input.password);
  return d.ctx.db.transaction().execute((trx) => insertWithProfile(d, trx, { ...input, password }));
}

/**
 * The same in the caller's transaction, so that what else it writes stands or falls with the
 * account (ORCID's first sign-in: the account and its link). `password` is the plain password.
 */
export async function createWithProfileIn(d: AuthDeps, trx: Transaction<Database>, input: SignupInput): Promise<AuthUser> {
  return insertWithProfile(d, trx, { ...input, password: await hashPassword(input.password) });
}

/** The rows of a new account; the address's unique key decides between racing sign-ups (EmailInUseError). */
async function insertWithProfile(d: AuthDeps, trx: Transaction<Database>, input: SignupInput): Promise<AuthUser> {
  const email = storableEmail(input.email);
  const created_at = nowIso();
  let id: number;
  try {
    id = await repo.insertUser(trx, { email, password: input.password, created_at });
  } catch (error) {
    if (isUniqueViolation(error)) throw new EmailInUseError(email);
    throw error;
  }
  await d.ctx.services.profile.createForNewUser(trx, id, { name: input.name, surname: input.surname });
  return { id, email, created_at, credentials_changed_at: null };
}

/** Checks the credentials; `remoteAddress` forms the throttled pair with the email. */
export async function login(d: AuthDeps, emailInput: string, password: string, remoteAddress: string): Promise<LoginResult> {
  const email = normalizeEmail(emailInput);
  const subjects = throttleSubjects(email, remoteAddress);
  const retryAfterMs = await lockedFor(d, subjects);
  if (retryAfterMs > 0) return { ok: false, reason: 'throttled', retryAfterMs };
  const user = await findUserByEmail(d.ctx.db, email);
  const valid = await verifyPassword(password, user?.password ?? DUMMY_HASH);
  if (!user || !valid) {
    await recordFailure(d, subjects);
    return { ok: false, reason: 'invalid' };
  }
  // A successful login clears the pair (the account's count only ages out).
  await repo.deleteAttempts(d.ctx.db, [subjects.pair]);
  return { ok: true, user: publicUser(user) };
}

export async function getUser(d: AuthDeps, id: number): Promise<AuthUser | undefined> {
  return repo.findUserById(d.ctx.db, id);
}

export async function getUserByEmail(d: AuthDeps, email: string): Promise<AuthUser | undefined> {
  const user = await findUserByEmail(d.ctx.db, normalizeEmail(email));
  return user && publicUser(user);
}

export async function countUsers(d: AuthDeps): Promise<number> {
  return repo.countUsers(d.ctx.db);
}

/**
 * Counts one reset request from `remoteAddress`; false once the address made
 * MAX_RESET_REQUESTS_PER_ADDRESS_HOUR in the last hour (the request is then not counted).
 */
export async function allowResetRequest(d: AuthDeps, remoteAddress: string): Promise<boolean> {
  const subject = `reset-from:${sha256(remoteAddress)}`;
  const since = new Date(Date.now() - RESET_REQUEST_WINDOW_MS).toISOString();
  const recent = await repo.latestAttemptsSince(d.ctx.db, subject, since, MAX_RESET_REQUESTS_PER_ADDRESS_HOUR);
  if (recent.length >= MAX_RESET_REQUESTS_PER_ADDRESS_HOUR) return false;
  await repo.insertAttempts(d.ctx.db, [subject], nowIso());
  return true;
}

/**
 * Emails a reset link when the address has an account; does nothing visible otherwise,
 * so the caller answers the same either way (and need not wait for this).
 */
export async function requestPasswordReset(d: AuthDeps, emailInput: string): Promise<void> {
  const user = await findUserByEmail(d.ctx.db, normalizeEmail(emailInput));
  if (!user) return;
  const token = await issueResetTokenWithinLimit(d, user.id);
  if (token === undefined) {
    d.ctx.log.warn({ userId: user.id }, 'password reset email not sent: hourly limit reached');
    return;
  }
  // The mailbox's owner learns every way into the account: one linked by someone else shows here.
  const methods = await describeAll(d.signInMethods, user.id);
  await d.ctx.services.mail.send(passwordResetEmail(user.email, `${siteUrl(d.ctx.config)}/reset-password/${token}`, methods));
}

/** Whether a reset link can still be used (the form is shown only then). */
export async function isResetTokenUsable(d: AuthDeps, token: string): Promise<boolean> {
  return (await usableToken(d, token, 'reset')) !== undefined;
}

/**
 * Sets the password through a reset link: one use, within the hour. Ends every session
 * logged in before (the caller logs the person in afresh) and clears the failed logins.
 */
export async function resetPassword(d: AuthDeps, token: string, newPassword: string, remoteAddress: string): Promise<AuthUser> {
  const row = await usableToken(d, token, 'reset');
  if (!row) throw new InvalidTokenError();
  const hash = await hashPassword(newPassword);
  const user = await d.ctx.db.transaction().execute(async (trx) => {
    const now = nowIso();
    if (!(await repo.claimToken(trx, row.id, now))) throw new InvalidTokenError();
    await repo.updatePassword(trx, row.user_id, hash, now);
    // Every link asked for before ends: other reset links, an email change started by whoever had the session.
    await voidPendingLinks(trx, row.user_id, now);
    await passwordWasReset(d.signInMethods, trx, row.user_id);
    return repo.findUserById(trx, row.user_id);
  });
  if (!user) throw new InvalidTokenError();
  // The person proved they hold the mailbox: earlier failures of the account and of their pair no longer count.
  const subjects = throttleSubjects(user.email, remoteAddress);
  await repo.deleteAttempts(d.ctx.db, [subjects.account, subjects.pair]);
  return user;
}

/**
 * Changes the password of a logged-in account after checking the current one. Answers the
 * moment of the change: sessions logged in before it end, the caller keeps its own.
 */
export async function changePassword(d: AuthDeps, userId: number, currentPassword: string, newPassword: string, remoteAddress: string)
  : Promise<{ ok: true; changedAt: string } | PasswordRefusal> {
  const checked = await checkPassword(d, userId, currentPassword, remoteAddress);
  if (!checked.ok) return checked;
  const hash = await hashPassword(newPassword);
  const changedAt = nowIso();
  // Like the sessions, the links asked for before the change end with it.
  await d.ctx.db.transaction().execute(async (trx) => {
    await repo.updatePassword(trx, userId, hash, changedAt);
    await voidPendingLinks(trx, userId, changedAt);
  });
  return { ok: true, changedAt };
}

/**
 * Starts an email change: after the current password, a link goes to the new address;
 * the address changes only once that link is opened (confirmEmailChange).
 */
export async function requestEmailChange(d: AuthDeps, userId: number, currentPassword: string, newEmailInput: string, remoteAddress: string)
  : Promise<{ ok: true; email: string } | PasswordRefusal> {
  const email = storableEmail(newEmailInput);
  const checked = await checkPassword(d, userId, currentPassword, remoteAddress);
  if (!checked.ok) return checked;
  if (await findUserByEmail(d.ctx.db, email)) throw new EmailInUseError(email);
  const token = await issueToken(d, userId, 'email', email);
  await d.ctx.services.mail.send(emailChangeEmail(email, `${siteUrl(d.ctx.config)}/confirm-email/${token}`));
  return { ok: true, email };
}

/** A confirmation link opened in a session of another account than the one that asked. */
export class OtherAccountsLinkError extends Error {
  constructor() {
    super('This link confirms an address for another account: log in as the account that asked for the change, then open it again. Nothing changed.');
  }
}

/**
 * Applies the email change behind a confirmation link (one use, within the hour), opened by
 * `userId`, who must be the account that asked (extensions section 11): the mailbox's owner who
 * opens a link someone else asked for gives their address to nobody.
 */
export async function confirmEmailChange(d: AuthDeps, token: string, userId: number): Promise<AuthUser> {
  const row = await usableToken(d, token, 'email');
  if (!row || !row.new_email) throw new InvalidTokenError();
  if (row.user_id !== userId) throw new OtherAccountsLinkError();
  const newEmail = row.new_email;
  try {
    const { user, oldEmail } = await d.ctx.db.transaction().execute(async (trx) => {
      const now = nowIso();
      if (!(await repo.claimToken(trx, row.id, now))) throw new InvalidTokenError();
      const before = await repo.findUserById(trx, row.user_id);
      await repo.updateEmail(trx, row.user_id, newEmail);
      // Reset links went to the old address: once the account moved, that mailbox opens no way in.
      await repo.voidTokens(trx, row.user_id, 'reset', now);
      return { user: await repo.findUserById(trx, row.user_id), oldEmail: before?.email };
    });
    if (!user) throw new InvalidTokenError();
    // The old address hears of the change; a failed notice does not undo it.
    if (oldEmail && oldEmail !== user.email) {
      d.ctx.services.mail.send(emailChangedNotice(oldEmail, user.email, `${siteUrl(d.ctx.config)}/login`))
        .catch((error: unknown) => d.ctx.log.error({ err: error }, 'email change notice failed'));
    }
    return user;
  } catch (error) {
    // Another account took the address since the link was sent; the link stays unused.
    if (isUniqueViolation(error)) throw new EmailInUseError(newEmail);
    throw error;
  }
}

export function createAuthService(ctx: ModuleContext) {
  const deps: AuthDeps = { ctx, failures: { sweptAt: 0 }, signInMethods: [] };
  return bindOperations(deps, {
    isEmailAvailable, createWithProfile, createWithProfileIn, login, getUser, getUserByEmail, countUsers, requestPasswordReset, allowResetRequest, isResetTokenUsable,
    resetPassword, changePassword, requestEmailChange, confirmEmailChange, addSignInMethods,
  });
}

export type AuthService = ReturnType<typeof createAuthService>;
