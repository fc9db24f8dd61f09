// The claims of staged files (staging.ts): what an upload holds while it checks and saves them,
// and the ledger in the database that lets exactly one upload hold a file.
import type { DbOrTrx } from '../../../core/db/connect.ts';
import type { StagedOriginal } from './converted-upload.ts';

/** A staged file: its name in the staging area, its key in the store, its size. */
export interface StagedFile {
  name: string;
  /** The file's key in the store. */
  key: string;
  size: number;
  /** Set for a model converted from another format (issue 27): the file as uploaded. */
  original?: StagedOriginal;
}

/**
 * Staged files taken out of the staging area for one upload. Exactly one upload can claim a
 * file (the ledger records it once), so two submits of the same files cannot both use them.
 */
export interface Claim {
  /** The claimed files, in the order asked, at their place inside the claim folder. */
  files: StagedFile[];
  /** Puts the files back in the staging area (the upload was refused or failed). */
  release(): Promise<void>;
  /** Removes the claimed files for good (the dataset was saved with copies of them). */
  discard(): Promise<void>;
  /**
   * Records, inside the transaction that saves the dataset, that the files are used: a process
   * killed after that commit, before `discard`, leaves a claim that is discarded, not put back.
   * Undone (false) inside the transaction that removes the dataset again before a `release`.
   */
  setSaved(within: DbOrTrx, saved: boolean): Promise<void>;
}

/**
 * Where uploads record which staged files they are taking, shared by every instance (the
 * database): `hold` succeeds for exactly one of the claims naming a file. Object stores have
 * neither an atomic rename nor (everywhere) conditional writes, so the store alone cannot decide.
 */
export interface ClaimLedger {
  /** Records the claim of every name, all or none; answers the names other claims hold when it cannot. */
  hold(folder: string, names: string[], claimId: string): Promise<{ ok: true } | { ok: false; held: string[] }>;
  /** Whether the instance holding the claim is gone (issue 37: its claims are free at once, not after STALE_CLAIM_MS). */
  holderGone(claimId: string): Promise<boolean>;
  /** Dates the claim's rows `at` (the claim is still alive). */
  refresh(claimId: string, at: string): Promise<void>;
  free(claimId: string): Promise<void>;
  /** Marks the claim's rows saved or not, in the caller's transaction (the one that saves or removes the dataset). */
  setSaved(claimId: string, within: DbOrTrx, saved: boolean): Promise<void>;
  wasSaved(claimId: string): Promise<boolean>;
  /** Saved claims of the folder not dated since `staleBefore` (their process died before discarding them). */
  staleSaved(folder: string, staleBefore: string): Promise<string[]>;
}

export type ClaimOutcome =
  | { ok: true; claim: Claim }
  /** Names that are not (or no longer) in the staging area: nothing was claimed. */
  | { ok: false; missing: string[] };
