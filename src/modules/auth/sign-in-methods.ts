// The other ways into an account than its password (extensions section 11), added by the modules
// that give them (ORCID): a password reset email names them, and a reset, which proves the
// mailbox, may end one that was made without that proof.
import type { Transaction } from 'kysely';
import type { Database } from '../../core/db/database.ts';

export interface SignInMethods {
  /** The account's ways in that this module gives, each named for a person ("ORCID iD 0000-…"). */
  describe(userId: number): Promise<string[]>;
  /** Runs in the password reset's transaction: a failure undoes the reset. */
  onPasswordReset?(trx: Transaction<Database>, userId: number): Promise<void>;
}

export async function describeAll(methods: readonly SignInMethods[], userId: number): Promise<string[]> {
  return (await Promise.all(methods.map((m) => m.describe(userId)))).flat();
}

export async function passwordWasReset(methods: readonly SignInMethods[], trx: Transaction<Database>, userId: number): Promise<void> {
  for (const m of methods) await m.onPasswordReset?.(trx, userId);
}
