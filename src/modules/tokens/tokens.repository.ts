// Queries on the api_token table.
import type { DbOrTrx } from '../../core/db/connect.ts';
import { insertAndGetId } from '../../core/db/connect.ts';
import type { Selectable } from 'kysely';
import type { ApiTokenTable } from './tokens.tables.ts';

export type TokenRow = Selectable<ApiTokenTable>;

const COLUMNS = ['id', 'user_id', 'name', 'public_id', 'secret_hash', 'scopes', 'created_at', 'expires_at', 'last_used_at', 'revoked_at'] as const;

// Ids as numbers on every dialect (drivers may answer integers as strings).
const toRow = (r: Record<string, unknown>): TokenRow => ({ ...(r as unknown as TokenRow), id: Number(r.id), user_id: Number(r.user_id) });

export async function insertToken(db: DbOrTrx, values: Omit<TokenRow, 'id' | 'last_used_at' | 'revoked_at'>): Promise<number> {
  return insertAndGetId(db, 'api_token', { ...values, last_used_at: null, revoked_at: null });
}

export async function findByPublicId(db: DbOrTrx, publicId: string): Promise<TokenRow | undefined> {
  const row = await db.selectFrom('api_token').select(COLUMNS).where('public_id', '=', publicId).executeTakeFirst();
  return row && toRow(row);
}

export async function listForUser(db: DbOrTrx, userId: number): Promise<TokenRow[]> {
  const rows = await db.selectFrom('api_token').select(COLUMNS).where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  return rows.map(toRow);
}

/** Answers whether a token of this user was revoked now (false: unknown, someone else's, or already revoked). */
export async function revoke(db: DbOrTrx, userId: number, id: number, at: string): Promise<boolean> {
  const result = await db.updateTable('api_token').set({ revoked_at: at })
    .where('id', '=', id).where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Revokes every token of the user not yet revoked (expired ones too: a revoked token says why it ended). */
export async function revokeAll(db: DbOrTrx, userId: number, at: string): Promise<void> {
  await db.updateTable('api_token').set({ revoked_at: at }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
}

export async function touch(db: DbOrTrx, id: number, at: string): Promise<void> {
  await db.updateTable('api_token').set({ last_used_at: at }).where('id', '=', id).execute();
}
