// Queries on the review module's own table.
import { sql } from 'kysely';
import { insertAndGetId, type DbOrTrx } from '../../core/db/connect.ts';
import { nowIso } from '../../core/db/database.ts';

export interface ReviewLinkRow { id: number; dataset_id: number; expires_on: string; created_at: string; revoked_at: string | null; views: number }

const toRow = (r: any): ReviewLinkRow => ({ ...r, id: Number(r.id), dataset_id: Number(r.dataset_id), views: Number(r.views) });
const COLUMNS = ['id', 'dataset_id', 'expires_on', 'created_at', 'revoked_at', 'views'] as const;

export function insertLink(db: DbOrTrx, datasetId: number, tokenHash: string, expiresOn: string): Promise<number> {
  return insertAndGetId(db, 'review_link', { dataset_id: datasetId, token_hash: tokenHash, expires_on: expiresOn, created_at: nowIso() });
}

export async function findByTokenHash(db: DbOrTrx, tokenHash: string): Promise<ReviewLinkRow | undefined> {
  const row = await db.selectFrom('review_link').select(COLUMNS).where('token_hash', '=', tokenHash).executeTakeFirst();
  return row && toRow(row);
}

export async function linksOf(db: DbOrTrx, datasetId: number): Promise<ReviewLinkRow[]> {
  return (await db.selectFrom('review_link').select(COLUMNS).where('dataset_id', '=', datasetId).orderBy('id', 'desc').execute()).map(toRow);
}

export async function revoke(db: DbOrTrx, datasetId: number, linkId: number): Promise<boolean> {
  const result = await db.updateTable('review_link').set({ revoked_at: nowIso() })
    .where('id', '=', linkId).where('dataset_id', '=', datasetId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function countView(db: DbOrTrx, linkId: number): Promise<void> {
  await db.updateTable('review_link').set({ views: sql`views + 1` }).where('id', '=', linkId).execute();
}
