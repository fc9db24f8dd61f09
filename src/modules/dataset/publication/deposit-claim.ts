// The deposit claim (ds_meta_data.deposit_claimed_at): one deposit of a dataset at a time
// (deposit.ts takes it), and no change of an unsynchronized dataset's files or metadata while a
// deposit of it runs: the record would miss what the hub then shows under its DOI.
import { conflict } from '../../../core/http/errors.ts';
import type { DbOrTrx } from '../../../core/db/connect.ts';
import * as depositRepo from '../deposit.repository.ts';

/**
 * A deposit claim older than this belongs to a process that died in the middle of a deposit (a
 * live one finishes or fails well within it: the client's slowest step, one file's upload, gives
 * up after 5 minutes): the next publish takes it over.
 */
export const STALE_DEPOSIT_CLAIM_MS = 30 * 60 * 1000;

export const staleClaimsBefore = (): string => new Date(Date.now() - STALE_DEPOSIT_CLAIM_MS).toISOString();

/**
 * Thrown by a publish's onDraft when its claim is no longer the one it took (it ran past
 * STALE_DEPOSIT_CLAIM_MS and a newer publish took it over, or a change cleared it as a dead
 * process's): the draft is not recorded, and the deposit client discards it.
 */
export class DepositClaimLost extends Error {
  constructor() {
    super('The deposit claim of the dataset was taken over by a newer publish.');
  }
}

/**
 * The 409 of a publish that lost its claim while it ran: it stored nothing. A record Zenodo
 * published for it (`doi`), kept as the dataset's pending deposition, is settled by the publish in
 * charge or the next one.
 */
export function takenOverMessage(doi: string | null): string {
  const minutes = STALE_DEPOSIT_CLAIM_MS / 60_000;
  const settled = doi === null ? '' : ` Zenodo published its record (${doi}): the publish now under way, or the next one, stores its DOI.`;
  return `This publish took more than ${minutes} minutes, and another publish or change of this dataset took over meanwhile: it stored nothing. Reload the dataset to see where it stands.${settled}`;
}

const UNDER_WAY = 'A publish of this dataset is under way: wait for its answer before changing the dataset.';
const PUBLISHED_MEANWHILE = 'The dataset was published meanwhile: reload it; its files are fixed now, and its metadata are edited with its record.';

/**
 * Inside the transaction of a change of a dataset read unsynchronized: 409 while a deposit of it
 * runs or once one gave it its DOI; otherwise its metadata row stays locked until the change
 * commits, so a deposit claimed meanwhile waits for it and deposits what it made.
 */
export async function holdAgainstDeposit(trx: DbOrTrx, row: { meta_id: number; dataset_doi: string | null }): Promise<void> {
  if (row.dataset_doi !== null) return;
  if (await depositRepo.holdAgainstDeposit(trx, row.meta_id, staleClaimsBefore())) return;
  const message = (await depositRepo.doiOfMeta(trx, row.meta_id)) !== null ? PUBLISHED_MEANWHILE : UNDER_WAY;
  throw conflict(message, { message });
}
