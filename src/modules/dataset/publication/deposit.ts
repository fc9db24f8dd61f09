// The push to the deposit repository (specification, States) and the removal of a dataset's rows
// and files. The deposit client is loaded only here and in the edit (coupling rule 6).
import { giveBackStaged, relatedIdentifiersOf } from '../staging/import-sources.ts';
import { isUniqueViolation } from '../../../core/db/connect.ts';
import { conflict, HttpError } from '../../../core/http/errors.ts';
import { pauseHere } from '../../../core/test-pause.ts';
import * as repo from '../dataset.repository.ts';
import * as depositRepo from '../deposit.repository.ts';
import type { DatasetSummary, UploadOutcome } from '../dataset.types.ts';
import { contentChanged, publicUrl, type DatasetDeps, type DepositModule } from '../dataset.deps.ts';
import { depositRequest } from '../lifecycle/dataset.edit.ts';
import { previousDeposition, recordConceptDoi } from '../lifecycle/dataset.versions.ts';
import { summary } from '../pages/dataset.parts.ts';
import type { Claim } from '../staging/claims.ts';
import { DepositClaimLost, staleClaimsBefore, takenOverMessage } from './deposit-claim.ts';

// Types only, through the dynamic import's type: nothing of the deposit module loads with this file.
type DepositRepository = ReturnType<DepositModule['createDepositRepository']>;
type DepositRequest = Parameters<DepositRepository['publish']>[0];
type DepositResult = Awaited<ReturnType<DepositRepository['publish']>>;

export type PushOutcome = Exclude<UploadOutcome, { status: 'invalid' }>;
/**
 * `removed`: the dataset is gone (removed meanwhile, or after the failure under `removeOnFailure`);
 * `unsettled`: kept after the failure, as Zenodo may have published it (`removeOnFailure` only).
 */
export type DepositOutcome = { ok: true; doi: string }
  | { ok: false; reason: string; unavailable?: true; removed?: true; unsettled?: true; busy?: true; takenOver?: true };
/** The deposit under the claim: a failure may come with the record Zenodo published but whose DOI was not stored (the claim lost). */
type ClaimedOutcome = { ok: true; doi: string } | { ok: false; reason: string; unstored?: DepositResult; unavailable?: true };

const BUSY = 'Another publish of this dataset is under way: wait for its answer (the dataset then has its DOI).';

/** The push as the upload form and the API answer it: ok with the DOI, or partial with the reason. */
export async function pushOutcome(d: DatasetDeps, datasetId: number): Promise<PushOutcome> {
  const pushed = await push(d, datasetId);
  if (!pushed.ok && pushed.busy) throw await busyAnswer(d, datasetId);
  if (!pushed.ok && pushed.takenOver) throw conflict(pushed.message, { message: pushed.message });
  if (!pushed.ok) return { status: 'partial', datasetId, message: pushed.message };
  return { status: 'ok', datasetId, doi: pushed.doi, url: publicUrl(d.ctx.config, pushed.doi) };
}

/** The 409 of a claim lost to another publish, which may have given the dataset its DOI by now. */
async function busyAnswer(d: DatasetDeps, datasetId: number): Promise<HttpError> {
  const doi = (await repo.findById(d.ctx.db, datasetId))?.dataset_doi ?? null;
  return doi === null ? conflict(BUSY, { message: BUSY }) : alreadyPublished(d, doi);
}

/**
 * Runs `work` under the dataset's deposit claim (given the claim's time, which its writes name),
 * given back after it if it is still this one; undefined, without running it, while another claim
 * holds (issue 26: one deposit per dataset, the database decides). `kept` tells whether the claim
 * was still this one's at the end: one that ran past STALE_DEPOSIT_CLAIM_MS may have lost it.
 */
async function withDepositClaim<T>(d: DatasetDeps, row: repo.DatasetRow, work: (claimedAt: string) => Promise<T>): Promise<{ value: T; kept: boolean } | undefined> {
  const claimedAt = await depositRepo.claimDeposit(d.ctx.db, row.meta_id, staleClaimsBefore());
  if (claimedAt === undefined) return undefined;
  // A failed release is only logged (the claim goes stale); the work's outcome is answered as if it was kept.
  const release = () => depositRepo.releaseDeposit(d.ctx.db, row.meta_id, claimedAt)
    .catch((e) => (d.ctx.log.warn({ err: e, datasetId: row.id }, 'a deposit claim could not be released'), true));
  let value: T;
  try {
    value = await work(claimedAt);
  } catch (error) {
    await release();
    throw error;
  }
  return { value, kept: await release() };
}

/**
 * Stores the DOI Zenodo gave and the concept DOI in one transaction (a process killed between
 * them left a published first version without its concept DOI, which only its next version would
 * have brought: crash tests), then tells the dataset's readers. Only under the claim taken at
 * `claimedAt`: answers false, storing nothing, when a newer publish took it over.
 */
async function storeDeposit(d: DatasetDeps, row: repo.DatasetRow, claimedAt: string, result: DepositResult, conceptDoi: string | null): Promise<boolean> {
  const stored = await d.ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.setDeposit(trx, row.meta_id, claimedAt, result.doi, result.depositionId))) return false;
    await pauseHere('deposit:after-doi');
    await recordConceptDoi(d, row, conceptDoi, trx);
    return true;
  });
  if (stored) await contentChanged(d, row.id);
  return stored;
}

/** The 409 of a publish of a dataset that has its DOI. */
export function alreadyPublished(d: DatasetDeps, doi: string): HttpError {
  const message = 'The dataset is already published.';
  return conflict(message, { message, doi, url: publicUrl(d.ctx.config, doi) });
}

/** The push (specification, States): success stores the DOI; any failure leaves the dataset unsynchronized. */
async function push(d: DatasetDeps, datasetId: number): Promise<{ ok: true; doi: string } | { ok: false; message: string; busy?: true; takenOver?: true }> {
  const saved = 'The dataset was saved, but it could not be published';
  const pushed = await depositDataset(d, datasetId);
  if (pushed.ok) return pushed;
  if (pushed.busy) return { ok: false, message: pushed.reason, busy: true };
  if (pushed.takenOver) return { ok: false, message: pushed.reason, takenOver: true };
  if (pushed.unavailable) return { ok: false, message: `${saved}: ${pushed.reason}. It stays unsynchronized.` };
  if (pushed.removed) return { ok: false, message: `${saved}: ${pushed.reason}.` };
  return { ok: false, message: `${saved} (${pushed.reason}). It stays unsynchronized; you can find it in your datasets.` };
}

/**
 * The deposit of a saved dataset: a first publish, or a new version of the previous version's
 * deposition. With `removeOnFailure` (a new version uploaded with the form, whose staged files
 * those are), a failed deposit removes the dataset before its claim is given back, so that no
 * other publish of it (another tab, the API) starts between the failure and the removal: that
 * one answers 409 as during a publish; one that took the claim over meanwhile keeps the dataset.
 */
export async function depositDataset(d: DatasetDeps, datasetId: number, options: { removeOnFailure?: Pick<Claim, 'setSaved'> } = {}): Promise<DepositOutcome> {
  const dataset = await summary(d, datasetId);
  const row = await repo.findById(d.ctx.db, datasetId);
  if (!dataset || !row) return { ok: false, reason: 'it was removed meanwhile', removed: true };
  const claimed = await withDepositClaim(d, row, async (claimedAt) => {
    const outcome = await loadAndDeposit(d, dataset, row, claimedAt);
    if (outcome.ok || outcome.unstored || !options.removeOnFailure) return { outcome };
    await d.step('version:failed-before-removal', row.id);
    const staged = options.removeOnFailure;
    return { outcome, removal: await removeDataset(d, row, { staged, depositClaimedAt: claimedAt, keepIfPending: true }) };
  });
  if (claimed === undefined) return { ok: false, reason: BUSY, busy: true };
  const { value: { outcome, removal }, kept } = claimed;
  // Once its DOI is stored no publish can take the claim over: an ok outcome always kept it.
  if (outcome.ok) return outcome;
  // Its claim went with its row, so giving it back found nothing: not a claim lost to another publish.
  if (removal === 'removed') return { ok: false, reason: outcome.reason, removed: true };
  if (!kept) return await afterLostClaim(d, row, outcome.unstored ?? null);
  return { ok: false, reason: outcome.reason, ...(removal === 'pending' && { unsettled: true as const }), ...(outcome.unavailable && { unavailable: true as const }) };
}

/**
 * The deposit module loaded under the claim: one that cannot be loaded is a failed deposit like
 * any other (rule 6: only the push fails), after which a new version is removed under the claim.
 */
async function loadAndDeposit(d: DatasetDeps, dataset: DatasetSummary, row: repo.DatasetRow, claimedAt: string): Promise<ClaimedOutcome> {
  let deposit: DepositModule;
  try {
    deposit = await d.loadDeposit();
  } catch (error) {
    d.ctx.log.error({ err: error }, 'the deposit module could not be loaded');
    return { ok: false, reason: 'the deposit service is not available', unavailable: true };
  }
  return await depositClaimed(d, deposit, dataset, row, claimedAt);
}

/**
 * The answer of a publish whose claim went while it ran (past STALE_DEPOSIT_CLAIM_MS a newer
 * publish took it over, or a change cleared it as a dead process's): it stored nothing, and the
 * newer publish is in charge. A record Zenodo published for it had its deposition recorded as
 * pending under its claim (onDraft), so the publish in charge, or the next, settles it and stores
 * its DOI rather than depositing a second record, as after a lost answer. Answers that DOI once
 * the dataset has it, the usual 409 once it has another; otherwise a 409 saying so. Logged.
 */
async function afterLostClaim(d: DatasetDeps, row: repo.DatasetRow, record: DepositResult | null): Promise<DepositOutcome> {
  const doi = (await repo.findById(d.ctx.db, row.id))?.dataset_doi ?? null;
  if (record && doi === record.doi) return { ok: true, doi };
  const handedOver = record !== null && doi === null && await depositRepo.pendingDeposition(d.ctx.db, row.meta_id) === record.depositionId;
  const facts = { datasetId: row.id, doi: record?.doi ?? null, depositionId: record?.depositionId ?? null, datasetDoi: doi };
  if (record && !handedOver) d.ctx.log.error(facts, 'a publish that lost its deposit claim had a record published that the dataset does not name');
  else d.ctx.log.warn(facts, 'a publish lost its deposit claim to a newer one and stored nothing');
  if (doi !== null) return { ok: false, reason: BUSY, busy: true };
  return { ok: false, reason: takenOverMessage(handedOver ? record.doi : null), takenOver: true };
}

/** The deposit itself, under the dataset's claim taken at `claimedAt`: every write it makes names that claim. */
async function depositClaimed(d: DatasetDeps, deposit: DepositModule, dataset: DatasetSummary, row: repo.DatasetRow, claimedAt: string): Promise<ClaimedOutcome> {
  const { ctx } = d;
  const datasetId = row.id;
  try {
    const repository = deposit.createDepositRepository(ctx.config);
    const request: DepositRequest = {
      ...depositRequest(dataset, (name) => ctx.services.hubfile.openByName(dataset.userId, dataset.id, name)),
      relatedIdentifiers: await relatedIdentifiersOf(ctx.db, dataset.id),
      // Recorded only under this publish's claim; one that lost it publishes nothing more (the
      // deposit client discards the draft).
      onDraft: async (depositionId) => {
        if (!(await depositRepo.setPendingDeposition(ctx.db, row.meta_id, claimedAt, depositionId))) throw new DepositClaimLost();
      },
    };
    const result = await publishOnce(d, repository, request, row, claimedAt);
    await pauseHere('deposit:after-publish');
    // The fake keeps no state: without an answer, a concept first published there gets the fake's concept DOI.
    const conceptDoi = result.conceptDoi ?? (row.concept_doi === null && repository.kind === 'fake' ? deposit.fakeConceptDoi(row.concept_id) : null);
    if (!(await storeDeposit(d, row, claimedAt, result, conceptDoi))) return { ok: false, reason: 'its deposit claim was taken over', unstored: result };
    return { ok: true, doi: result.doi };
  } catch (error) {
    const known = error instanceof deposit.DepositError;
    ctx.log.warn({ err: error, datasetId }, 'deposit push failed');
    let reason = 'the deposit repository failed unexpectedly';
    // The client's messages are sentences; inside the parentheses their full stop would double up.
    if (known) reason = error.message.replace(/\.$/, '');
    else if (isUniqueViolation(error)) reason = 'the DOI it was given already belongs to another dataset';
    return { ok: false, reason };
  }
}

/**
 * One record per dataset: a deposition an earlier publish left pending (recorded by onDraft, its
 * DOI never stored: a killed process, a lost answer) is asked for first, and its DOI answered if
 * the deposit published it. Otherwise (none pending, a draft discarded, gone) a fresh first
 * publish or new version of the previous version's deposition.
 */
async function publishOnce(d: DatasetDeps, repository: DepositRepository, request: DepositRequest, row: repo.DatasetRow, claimedAt: string): Promise<DepositResult> {
  const pending = await depositRepo.pendingDeposition(d.ctx.db, row.meta_id);
  const settled = pending === null ? null : await repository.settlePending(pending);
  if (settled) {
    d.ctx.log.info({ datasetId: row.id, depositionId: settled.depositionId }, 'an earlier publish had been published: its DOI is stored');
    return settled;
  }
  const previous = await previousDeposition(d, row);
  let drafted: number | null = null;
  const tracked: DepositRequest = { ...request, onDraft: async (id) => { drafted = id; await request.onDraft?.(id); } };
  try {
    return previous === null ? await repository.publish(tracked) : await repository.newVersion(previous, tracked);
  } catch (error) {
    // What failed may be only the answer: asked at once, a record Zenodo did publish gives its DOI
    // now rather than at the next publish. If Zenodo answers that it did not publish it, the
    // recorded id goes (removeDataset's keepIfPending then tells a failure Zenodo confirmed from
    // one it could not); if Zenodo cannot tell either, the id stays for the next publish to
    // settle. A draft refused for a lost claim was never published: the deposit client discarded it.
    if (drafted === null || error instanceof DepositClaimLost) throw error;
    let published: DepositResult | null;
    try {
      published = await repository.settlePending(drafted);
    } catch {
      throw error;
    }
    if (!published) {
      // Not under a claim taken over meanwhile: the pending deposition is then the newer publish's.
      await depositRepo.setPendingDeposition(d.ctx.db, row.meta_id, claimedAt, null);
      throw error;
    }
    d.ctx.log.warn({ err: error, datasetId: row.id, depositionId: published.depositionId }, 'the publish answer was lost, but the record was published: its DOI is stored');
    return published;
  }
}

const UNCONFIRMED = 'An earlier publish of this dataset may have reached Zenodo, which cannot confirm it now: nothing was deleted. Try again later.';

/**
 * The delete of an unsynchronized dataset (the API's), under the deposit claim so that no publish
 * runs meanwhile (its record would outlive the dataset). A deposition an earlier publish left
 * pending (its answer lost) is asked for first: if Zenodo did publish it, its DOI is stored and
 * the dataset, synchronized now, stays (409 with the DOI); a draft is discarded; gone or none, the
 * dataset goes. Zenodo unable to tell: 503, nothing deleted. A delete that ran past the claim's
 * stale time and lost it to a publish deletes nothing and answers as a delete during a publish.
 */
export async function deleteUnsynchronized(d: DatasetDeps, row: repo.DatasetRow): Promise<void> {
  const deleted = await withDepositClaim(d, row, async (claimedAt) => {
    const published = await settledBeforeDelete(d, row);
    if (published) {
      // A publish that took the claim over meanwhile is in charge: it settles that record.
      if (!(await storeDeposit(d, row, claimedAt, published, published.conceptDoi))) return false;
      const message = 'Zenodo had published this dataset after all: it now has its DOI and cannot be deleted.';
      throw conflict(message, { message, doi: published.doi, url: publicUrl(d.ctx.config, published.doi) });
    }
    // Only while the claim is still the delete's own: a publish that took it over (the delete ran
    // past the stale time) is in charge of the dataset, which stays.
    return (await removeDataset(d, row, { depositClaimedAt: claimedAt })) === 'removed';
  });
  if (!deleted?.value) throw await busyAnswer(d, row.id);
}

/** The pending deposition's DOI if Zenodo published it; null when there is none (any more). */
async function settledBeforeDelete(d: DatasetDeps, row: repo.DatasetRow): Promise<DepositResult | null> {
  const pending = await depositRepo.pendingDeposition(d.ctx.db, row.meta_id);
  if (pending === null) return null;
  try {
    const deposit = await d.loadDeposit();
    return await deposit.createDepositRepository(d.ctx.config).settlePending(pending);
  } catch (error) {
    d.ctx.log.warn({ err: error, datasetId: row.id, depositionId: pending }, 'a pending deposition could not be settled before a delete');
    throw new HttpError(503, 'deposit_unavailable', UNCONFIRMED, { message: UNCONFIRMED });
  }
}

/**
 * Rows and files of a dataset (like the API's delete): the rows go first, in one transaction,
 * then the stored files, so a failure at any point never leaves a row without its file (at
 * worst files that no row names). With `depositClaimedAt`, only while the deposit claim is still
 * the one taken then, checked in that transaction: 'taken-over', removing nothing, otherwise.
 * With `keepIfPending`, not when a failed publish left a deposition Zenodo may have published
 * (it could not tell): 'pending', removing nothing, as the dataset would leave that record without
 * its dataset; read under the claim's lock, so it is this claim's own publish's.
 */
export async function removeDataset(
  d: DatasetDeps, row: repo.DatasetRow, options: { staged?: Pick<Claim, 'setSaved'>; depositClaimedAt?: string; keepIfPending?: true } = {},
): Promise<'removed' | 'taken-over' | 'pending'> {
  const { ctx } = d;
  const removed = await ctx.db.transaction().execute(async (trx) => {
    if (options.depositClaimedAt !== undefined && !(await depositRepo.holdOwnClaim(trx, row.meta_id, options.depositClaimedAt))) return 'taken-over';
    if (options.keepIfPending && await depositRepo.pendingDeposition(trx, row.meta_id) !== null) return 'pending';
    // The staged files it was made of are no longer used: a crash before their release puts them
    // back. Their sources go back with them, before the dataset's rows would take them along.
    if (options.staged) {
      await options.staged.setSaved(trx, false);
      await giveBackStaged(trx, row.id);
    }
    await ctx.services.featuremodel.deleteByDataset(trx, row.id);
    await repo.deleteDatasetRows(trx, row);
    return 'removed' as const;
  });
  if (removed !== 'removed') return removed;
  await ctx.services.hubfile.removeDatasetFiles(row.user_id, row.id)
    .catch((e) => ctx.log.warn({ err: e }, 'the files of a removed dataset could not be removed'));
  return removed;
}
