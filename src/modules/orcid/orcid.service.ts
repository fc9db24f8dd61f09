// ORCID accounts (extensions sections 8 and 11): which account an ORCID iD signs in to, creating
// one at the first sign-in once its address is confirmed (orcid.claims.ts), linking an iD to an
// existing account and unlinking it. Accounts and profiles are made and read through the auth and
// profile services; this module owns only the links and the claims. Each operation is an exported
// function taking the module context first, bound once below.
import type { ModuleContext } from '../../core/modules.ts';
import { bindOperations } from '../../core/operations.ts';
import { nowIso, type Database } from '../../core/db/database.ts';
import type { Transaction } from 'kysely';
import { isUniqueViolation } from '../../core/db/connect.ts';

import { createOrcidClient } from './orcid.client.ts';
import * as repo from './orcid.repository.ts';
import { confirmAccount, OrcidAccountError, requestAccount } from './orcid.claims.ts';

export { OrcidAccountError };

export interface OrcidStatus {
  orcid: string | null;
  /** Whether unlinking leaves a way to sign in: the account has a password its owner knows. */
  canUnlink: boolean;
}

/** An account made by ORCID sign-in has a random password nobody knows until a reset or change sets one. */
async function hasPassword(ctx: ModuleContext, link: repo.OrcidLink): Promise<boolean> {
  if (link.created_account === 0) return true;
  const user = await ctx.services.auth.getUser(link.user_id);
  return !!user?.credentials_changed_at && user.credentials_changed_at >= link.linked_at;
}

/** The profile's ORCID field shows the proven iD when it was empty. */
async function fillProfileOrcid(ctx: ModuleContext, userId: number, orcid: string): Promise<void> {
  const profile = await ctx.services.profile.getByUserId(userId);
  if (profile && !profile.orcid) await ctx.services.profile.updateProfile(profile.id, { orcid });
}

/** The account this iD signs in to, if any. */
export async function userIdFor(ctx: ModuleContext, orcid: string): Promise<number | undefined> {
  return (await repo.findByOrcid(ctx.db, orcid))?.user_id;
}

/** First sign-in, the link opened: the account made and linked (orcid.claims.ts), its profile showing the iD. */
export async function confirmFirstSignIn(ctx: ModuleContext, token: string, provenOrcid: string | undefined) {
  const created = await confirmAccount(ctx, token, provenOrcid);
  await fillProfileOrcid(ctx, created.userId, created.orcid);
  return created;
}

/** Links the iD to a signed-in account (refused when another account has it, or this one has another). */
export async function link(ctx: ModuleContext, userId: number, orcid: string): Promise<void> {
  const owner = await repo.findByOrcid(ctx.db, orcid);
  if (owner && owner.user_id !== userId) throw new OrcidAccountError('This ORCID iD already signs in to another account.');
  if (owner) return;
  if (await repo.findByUser(ctx.db, userId)) throw new OrcidAccountError('Your account is linked to another ORCID iD: unlink it first.');
  try {
    await repo.insertLink(ctx.db, { user_id: userId, orcid, created_account: 0, linked_at: nowIso(), address_confirmed: 1 });
  } catch (error) {
    if (isUniqueViolation(error)) throw new OrcidAccountError('This ORCID iD was just linked to an account.');
    throw error;
  }
  // A first sign-in's link waiting for this iD can no longer make an account.
  await repo.deleteClaimOf(ctx.db, orcid);
  await fillProfileOrcid(ctx, userId, orcid);
}

export async function status(ctx: ModuleContext, userId: number): Promise<OrcidStatus> {
  const found = await repo.findByUser(ctx.db, userId);
  return { orcid: found?.orcid ?? null, canUnlink: found ? await hasPassword(ctx, found) : false };
}

/** Unlinks, only when the account keeps a password (else it could never sign in again). */
export async function unlink(ctx: ModuleContext, userId: number): Promise<void> {
  const found = await repo.findByUser(ctx.db, userId);
  if (!found) return;
  if (!(await hasPassword(ctx, found))) {
    throw new OrcidAccountError('Your account has no password yet, so ORCID is its only way in: set a password (Forgot password) before unlinking.');
  }
  await repo.deleteLink(ctx.db, userId);
}

/** The account's link as a password reset email names it (extensions section 11). */
export async function describeLink(ctx: ModuleContext, userId: number): Promise<string[]> {
  const found = await repo.findByUser(ctx.db, userId);
  if (!found) return [];
  return [found.address_confirmed === 0
    ? `ORCID iD ${found.orcid}, linked when a first ORCID sign-in made this account without confirming this address: `
      + 'choosing a new password unlinks it (link it again from your profile if it is yours)'
    : `ORCID iD ${found.orcid} (Sign in with ORCID)`];
}

/**
 * In a password reset's transaction: the reset proves the mailbox, which the first sign-in of an
 * earlier version never asked for, so an iD it linked may be anybody's and is unlinked.
 */
export async function unlinkUnconfirmed(ctx: ModuleContext, trx: Transaction<Database>, userId: number): Promise<void> {
  const orcid = await repo.deleteUnconfirmedLink(trx, userId);
  if (orcid) ctx.log.info({ userId, orcid }, 'ORCID iD linked without a confirmed address unlinked by a password reset');
}

export function createOrcidService(ctx: ModuleContext) {
  const settings = ctx.config.orcid;
  return {
    /** Null when ORCID_CLIENT_ID and ORCID_CLIENT_SECRET are not set: no button, no routes answer. */
    client: settings ? createOrcidClient(settings) : undefined,
    ...bindOperations(ctx, { userIdFor, requestAccount, confirmFirstSignIn, link, status, unlink, describeLink, unlinkUnconfirmed }),
  };
}

export type OrcidService = ReturnType<typeof createOrcidService>;
