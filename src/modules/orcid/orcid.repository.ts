// Queries on the orcid module's own tables: the links and the first sign-ins' claims.
import { isUniqueViolation, type DbOrTrx } from '../../core/db/connect.ts';
import type { OrcidAccountTable, OrcidClaimTable } from './orcid.tables.ts';

export type OrcidLink = OrcidAccountTable;

const toLink = (row: OrcidAccountTable): OrcidLink => ({
  ...row, user_id: Number(row.user_id), created_account: Number(row.created_account), address_confirmed: Number(row.address_confirmed),
});

export async function findByOrcid(db: DbOrTrx, orcid: string): Promise<OrcidLink | undefined> {
  const row = await db.selectFrom('orcid_account').selectAll().where('orcid', '=', orcid).executeTakeFirst();
  return row && toLink(row);
}

export async function findByUser(db: DbOrTrx, userId: number): Promise<OrcidLink | undefined> {
  const row = await db.selectFrom('orcid_account').selectAll().where('user_id', '=', userId).executeTakeFirst();
  return row && toLink(row);
}

export async function insertLink(db: DbOrTrx, link: OrcidLink): Promise<void> {
  await db.insertInto('orcid_account').values(link).execute();
}

export async function deleteLink(db: DbOrTrx, userId: number): Promise<void> {
  await db.deleteFrom('orcid_account').where('user_id', '=', userId).execute();
}

/** Removes the account's link if it was made with an unconfirmed address; answers the iD removed. */
export async function deleteUnconfirmedLink(db: DbOrTrx, userId: number): Promise<string | undefined> {
  const link = await findByUser(db, userId);
  if (!link || link.address_confirmed !== 0) return undefined;
  const result = await db.deleteFrom('orcid_account').where('user_id', '=', userId).where('address_confirmed', '=', 0).executeTakeFirst();
  return Number(result.numDeletedRows) === 1 ? link.orcid : undefined;
}

export type OrcidClaim = OrcidClaimTable;

export async function findClaim(db: DbOrTrx, orcid: string): Promise<OrcidClaim | undefined> {
  const row = await db.selectFrom('orcid_claim').selectAll().where('orcid', '=', orcid).executeTakeFirst();
  return row && { ...row, sends: Number(row.sends) };
}

/** The claim behind a link while it is usable (not replaced, not expired at `now`). */
export function findUsableClaim(db: DbOrTrx, tokenHash: string, now: string): Promise<OrcidClaim | undefined> {
  return db.selectFrom('orcid_claim').selectAll().where('token_hash', '=', tokenHash).where('expires_at', '>', now).executeTakeFirst();
}

/** A first claim of the iD; false when another one was written meanwhile (the primary key decides). */
export async function insertClaim(db: DbOrTrx, claim: OrcidClaim): Promise<boolean> {
  try {
    await db.insertInto('orcid_claim').values(claim).execute();
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/**
 * Replaces the iD's claim if it still is the one read (its token); false when another
 * submission replaced it meanwhile. A row update, so racing writers cannot both pass.
 */
export async function replaceClaim(db: DbOrTrx, previousTokenHash: string, claim: OrcidClaim): Promise<boolean> {
  const { orcid, ...values } = claim;
  const result = await db.updateTable('orcid_claim').set(values)
    .where('orcid', '=', orcid).where('token_hash', '=', previousTokenHash).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Removes the claim behind a link if it still is usable; true for the one caller that took it. */
export async function takeClaim(db: DbOrTrx, tokenHash: string, now: string): Promise<boolean> {
  const result = await db.deleteFrom('orcid_claim').where('token_hash', '=', tokenHash).where('expires_at', '>', now).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function deleteClaimOf(db: DbOrTrx, orcid: string): Promise<void> {
  await db.deleteFrom('orcid_claim').where('orcid', '=', orcid).execute();
}

/** Claims whose link and sending window are both over hold nothing anybody can use. */
export async function deleteClaimsBefore(db: DbOrTrx, before: string): Promise<void> {
  await db.deleteFrom('orcid_claim').where('expires_at', '<', before).where('window_start', '<', before).execute();
}
