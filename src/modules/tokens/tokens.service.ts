// Personal access tokens (extensions section 3): made for a user with a name, scopes and an
// expiry, shown once, stored as a hash, found by their public part and checked in constant time.
// Each operation is an exported function taking the module context first, bound once below.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FieldErrors } from '../../core/http/forms.ts';
import { charCount, hasControlCharacters } from '../../core/http/forms.ts';
import { unauthorized } from '../../core/http/errors.ts';
import { nowIso } from '../../core/db/database.ts';
import type { DbOrTrx } from '../../core/db/connect.ts';
import type { ModuleContext } from '../../core/modules.ts';
import { bindOperations } from '../../core/operations.ts';
import * as repo from './tokens.repository.ts';

export const SCOPES = ['read', 'write'] as const;
export type Scope = (typeof SCOPES)[number];
export const MAX_EXPIRY_DAYS = 365;
const MAX_NAME = 100;
const DAY_MS = 24 * 60 * 60 * 1000;
/** last_used_at is written at most once a minute per token, not on every request. */
const TOUCH_EVERY_MS = 60 * 1000;
const TOKEN_PATTERN = /^hub_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

export interface TokenView {
  id: number;
  name: string;
  /** `hub_<public id>`: enough to recognise a token, useless to authenticate. */
  prefix: string;
  scopes: Scope[];
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  state: 'active' | 'expired' | 'revoked';
}

export interface TokenRequest {
  name: string;
  scopes: Scope[];
  expiresInDays: number;
}

export interface Authenticated {
  userId: number;
  tokenId: number;
  scopes: Scope[];
}

const hashOf = (secret: string) => createHash('sha256').update(secret).digest('hex');

function parseScopes(text: string): Scope[] {
  return text.split(' ').filter((s): s is Scope => (SCOPES as readonly string[]).includes(s));
}

function view(row: repo.TokenRow, now: string): TokenView {
  return {
    id: row.id,
    name: row.name,
    prefix: `hub_${row.public_id}`,
    scopes: parseScopes(row.scopes),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
    state: row.revoked_at ? 'revoked' : row.expires_at <= now ? 'expired' : 'active',
  };
}

/** Reads the creation form: `name`, `scopes` (repeated), `expires_in_days`. */
export function readTokenForm(body: unknown): { ok: true; value: TokenRequest } | { ok: false; errors: FieldErrors; values: Record<string, unknown> } {
  const fields = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => { (errors[field] ??= []).push(message); };
  const name = typeof fields.name === 'string' ? fields.name.trim() : '';
  if (name === '') add('name', 'Give the token a name, e.g. the script or CI job that uses it.');
  else if (charCount(name) > MAX_NAME) add('name', `Field cannot be longer than ${MAX_NAME} characters.`);
  else if (hasControlCharacters(name)) add('name', 'Field contains characters that are not allowed.');
  const rawScopes = fields.scopes === undefined ? [] : Array.isArray(fields.scopes) ? fields.scopes : [fields.scopes];
  const scopes = [...new Set(rawScopes)];
  if (scopes.length === 0) add('scopes', 'Choose at least one scope.');
  else if (!scopes.every((s) => typeof s === 'string' && (SCOPES as readonly string[]).includes(s))) add('scopes', 'Scopes are "read" and "write".');
  const daysText = typeof fields.expires_in_days === 'string' ? fields.expires_in_days.trim() : '';
  const days = /^\d{1,3}$/.test(daysText) ? Number(daysText) : NaN;
  if (!(days >= 1 && days <= MAX_EXPIRY_DAYS)) add('expires_in_days', `The token expires after 1 to ${MAX_EXPIRY_DAYS} days.`);
  if (Object.keys(errors).length > 0) return { ok: false, errors, values: { name, scopes, expires_in_days: daysText } };
  return { ok: true, value: { name, scopes: SCOPES.filter((s) => scopes.includes(s)), expiresInDays: days } };
}

const refused = (message: string) => unauthorized(message, { message });

/** Makes a token; the answer is the only place its text ever appears. */
export async function create(ctx: ModuleContext, userId: number, request: TokenRequest): Promise<{ token: string; view: TokenView }> {
  const publicId = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  const now = new Date();
  const createdAt = now.toISOString();
  const row = {
    user_id: userId,
    name: request.name,
    public_id: publicId,
    secret_hash: hashOf(secret),
    scopes: request.scopes.join(' '),
    created_at: createdAt,
    expires_at: new Date(now.getTime() + request.expiresInDays * DAY_MS).toISOString(),
  };
  const id = await repo.insertToken(ctx.db, row);
  return { token: `hub_${publicId}_${secret}`, view: view({ ...row, id, last_used_at: null, revoked_at: null }, createdAt) };
}

export async function list(ctx: ModuleContext, userId: number): Promise<TokenView[]> {
  const now = nowIso();
  return (await repo.listForUser(ctx.db, userId)).map((row) => view(row, now));
}

/** False when the user has no such active token. */
export async function revoke(ctx: ModuleContext, userId: number, tokenId: number): Promise<boolean> {
  return repo.revoke(ctx.db, userId, tokenId, nowIso());
}

/**
 * The account's active tokens as a password reset email names them (extensions section 11: the
 * email lists the ways into the account): a token is one, and the reset ends it.
 */
export async function describeActive(ctx: ModuleContext, userId: number): Promise<string[]> {
  const now = nowIso();
  return (await repo.listForUser(ctx.db, userId)).filter((row) => view(row, now).state === 'active')
    .map((row) => `the API token "${row.name}" (it ends when you choose a new password)`);
}

/**
 * Runs in a password reset's transaction: every token of the account ends. A reset says that
 * someone else may have had the password, and with it the power to make tokens that would
 * otherwise keep the account open to them after the recovery.
 */
export async function revokeAllOnReset(_ctx: ModuleContext, trx: DbOrTrx, userId: number): Promise<void> {
  await repo.revokeAll(trx, userId, nowIso());
}

/**
 * The token's owner and scopes, or 401 (unknown, malformed, revoked or expired). The hash
 * of the presented secret is compared with the stored one in constant time.
 */
export async function authenticate(ctx: ModuleContext, token: string): Promise<Authenticated> {
  const match = TOKEN_PATTERN.exec(token);
  const row = match ? await repo.findByPublicId(ctx.db, match[1]!) : undefined;
  const presented = Buffer.from(hashOf(match?.[2] ?? ''), 'hex');
  const stored = Buffer.from(row?.secret_hash ?? '0'.repeat(64), 'hex');
  const equal = presented.length === stored.length && timingSafeEqual(presented, stored);
  if (!row || !equal) throw refused('The token is not valid.');
  if (row.revoked_at) throw refused('The token was revoked.');
  const now = nowIso();
  if (row.expires_at <= now) throw refused('The token has expired.');
  if (!row.last_used_at || Date.parse(now) - Date.parse(row.last_used_at) >= TOUCH_EVERY_MS) await repo.touch(ctx.db, row.id, now);
  return { userId: row.user_id, tokenId: row.id, scopes: parseScopes(row.scopes) };
}

export function createTokensService(ctx: ModuleContext) {
  return bindOperations(ctx, { create, list, revoke, authenticate, describeActive, revokeAllOnReset });
}

export type TokensService = ReturnType<typeof createTokensService>;
