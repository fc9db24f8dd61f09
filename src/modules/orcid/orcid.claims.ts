// ORCID first sign-in (extensions section 11): the address asked for is confirmed by a link
// before an account holds it. requestAccount keeps the proven iD's claim (one per iD, the latest
// address replacing the last) and mails the link; confirmAccount, when the link is opened in the
// browser that proved the iD, makes the account and its link in one transaction. Until then the
// address belongs to nobody. Unique keys decide races: the claim's primary key between
// submissions, the user's email and orcid_account's iD between a confirmation and anything else.
import { createHash, randomBytes } from 'node:crypto';
import type { ModuleContext } from '../../core/modules.ts';
import { isUniqueViolation } from '../../core/db/connect.ts';
import { nowIso } from '../../core/db/database.ts';
import { EmailInUseError } from '../auth/index.ts';
import { composeMessage, type MailMessage } from '../mail/index.ts';
import type { OrcidIdentity } from './orcid.client.ts';
import * as repo from './orcid.repository.ts';

/** A link works one hour, as the account emails' do (extensions section 5). */
export const CLAIM_LIFETIME_MS = 60 * 60 * 1000;
/** At most this many links per iD and hour: a proven iD cannot make the hub mail everybody. */
export const MAX_CLAIM_EMAILS_PER_HOUR = 5;

/** Why an account cannot be made for this iD (already linked, or linked meanwhile). */
export class OrcidAccountError extends Error {}

/** A refusal of the email step or of a link, with the status its page answers. */
export class OrcidClaimError extends Error {
  constructor(message: string, readonly status: 400 | 409 | 429 | 503) {
    super(message);
  }
}

export const LINK_NOT_USABLE = 'This link is no longer valid: it was used already, a newer one was sent for the same ORCID iD, or it has expired.';
export const OTHER_BROWSER = 'Open this link in the browser where you signed in with ORCID. If that is not this browser, sign in with ORCID here first, then open the link again.';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export function claimEmail(to: string, orcid: string, url: string): MailMessage {
  return composeMessage(to, 'Confirm your email to create your UVL Hub account', [
    `Someone signed in to UVL Hub with the ORCID iD ${orcid} and gave this address for a new account.`,
    `Opening the link creates an account with this address that signs in with that ORCID iD. It works once, within one hour, in the browser where the ORCID sign-in was made.`,
  ], { label: 'Confirm and create my account', url },
  `If this ORCID iD is not yours, ignore this email: no account is made, and you can still sign up with this address.`);
}

/** The email step: the claim kept (or refused) and its link mailed to the address. */
export async function requestAccount(ctx: ModuleContext, identity: OrcidIdentity, email: string, names: { name: string; surname: string }, siteUrl: string): Promise<void> {
  if (await repo.findByOrcid(ctx.db, identity.orcid)) throw new OrcidAccountError('This ORCID iD already signs in to an account.');
  // An address with an account is its owner's: they link the iD from their profile after logging in.
  if (!(await ctx.services.auth.isEmailAvailable(email))) throw new EmailInUseError(email);
  const now = Date.now();
  const existing = await repo.findClaim(ctx.db, identity.orcid);
  const inWindow = existing !== undefined && Date.parse(existing.window_start) > now - CLAIM_LIFETIME_MS;
  if (inWindow && existing.sends >= MAX_CLAIM_EMAILS_PER_HOUR) {
    throw new OrcidClaimError('Too many addresses were given for this ORCID iD in the last hour. Please open the link already sent, or try again later.', 429);
  }
  const token = randomBytes(32).toString('base64url');
  const claim: repo.OrcidClaim = {
    orcid: identity.orcid, email, name: names.name, surname: names.surname, token_hash: sha256(token),
    sends: inWindow ? existing.sends + 1 : 1, window_start: inWindow ? existing.window_start : new Date(now).toISOString(),
    expires_at: new Date(now + CLAIM_LIFETIME_MS).toISOString(),
  };
  if (!existing) await repo.deleteClaimsBefore(ctx.db, new Date(now - CLAIM_LIFETIME_MS).toISOString());
  const written = existing ? await repo.replaceClaim(ctx.db, existing.token_hash, claim) : await repo.insertClaim(ctx.db, claim);
  if (!written) {
    throw new OrcidClaimError('Another address was given for this ORCID iD at the same moment, so this one was not sent. Please submit it again if it is the one you want.', 409);
  }
  try {
    await ctx.services.mail.send(claimEmail(email, identity.orcid, `${siteUrl}/login/orcid/confirm/${token}`));
  } catch (error) {
    ctx.log.error({ err: error }, 'ORCID confirmation email failed');
    await repo.deleteClaimOf(ctx.db, identity.orcid);
    throw new OrcidClaimError('The confirmation email could not be sent just now. Please try again later.', 503);
  }
}

/**
 * The link opened: in one transaction the claim is taken, the account made and the iD linked.
 * `provenOrcid` is the iD this browser proved at ORCID (the session's): the link alone is not
 * enough, so the address's owner who opens a link someone else asked for makes nothing.
 */
export async function confirmAccount(ctx: ModuleContext, token: string, provenOrcid: string | undefined): Promise<{ userId: number; name: string; orcid: string }> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw new OrcidClaimError(LINK_NOT_USABLE, 400);
  const hash = sha256(token);
  const claim = await repo.findUsableClaim(ctx.db, hash, nowIso());
  if (!claim) throw new OrcidClaimError(LINK_NOT_USABLE, 400);
  if (claim.orcid !== provenOrcid) throw new OrcidClaimError(OTHER_BROWSER, 400);
  const userId = await ctx.db.transaction().execute(async (trx) => {
    const now = nowIso();
    if (!(await repo.takeClaim(trx, hash, now))) throw new OrcidClaimError(LINK_NOT_USABLE, 400);
    // The password is random and never shown: the account signs in with ORCID until its owner sets one (forgot password).
    const user = await ctx.services.auth.createWithProfileIn(trx, {
      email: claim.email, password: randomBytes(32).toString('base64url'), name: claim.name, surname: claim.surname,
    });
    try {
      await repo.insertLink(trx, { user_id: user.id, orcid: claim.orcid, created_account: 1, linked_at: now, address_confirmed: 1 });
    } catch (error) {
      if (isUniqueViolation(error)) throw new OrcidAccountError('This ORCID iD was linked to another account meanwhile; no account was made.');
      throw error;
    }
    return user.id;
  });
  return { userId, name: claim.name, orcid: claim.orcid };
}
