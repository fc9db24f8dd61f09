// Publishing a collection with a DOI (extensions section 13): the deposit holds a manifest (member
// DOI, file name, SHA-256) and the models, through the dataset module's deposit repository. Every
// member must belong to a published dataset (the manifest names its DOI). A published collection
// changes only by a new version: a copy of its members, open to changes, deposited as the next
// version of the same record (same concept DOI).
import type { ModuleContext } from '../../core/modules.ts';
import { isUniqueViolation } from '../../core/db/connect.ts';
import { badRequest, conflict, HttpError, notFound } from '../../core/http/errors.ts';
import { doiPath } from '../dataset/index.ts';
import * as repo from './collection.repository.ts';
import { fileSha256, memberEntries } from './collection.members.ts';
import { splitTags } from '../../core/tags.ts';
import { PUBLISHED, stalePublishBefore, TAKEN_OVER, UNDER_WAY } from './collection.rules.ts';

export interface ManifestRow { doi: string; file_name: string; deposit_name: string; sha256: string }

const csvField = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

export function manifestCsv(rows: ManifestRow[]): string {
  return ['doi,file_name,deposit_name,sha256', ...rows.map((r) => [r.doi, r.file_name, r.deposit_name, r.sha256].map(csvField).join(','))].join('\r\n') + '\r\n';
}

/** The deposit's files: each member as `<dataset DOI made a name>__<file name>` (a deposit is flat), and manifest.csv. */
async function depositFiles(ctx: ModuleContext, id: number, userId: number): Promise<{ files: { name: string; bytes: Buffer }[]; dois: string[] }> {
  const entries = await memberEntries(ctx, id, userId);
  if (entries.length === 0) throw badRequest('Add models to the collection before publishing it.');
  const unpublished = entries.find((e) => e.doi === null);
  if (unpublished) throw badRequest(`${unpublished.fileName} belongs to a dataset without a DOI: publish it first, or remove the file.`);
  const files: { name: string; bytes: Buffer }[] = [];
  const manifest: ManifestRow[] = [];
  for (const e of entries) {
    const read = await fileSha256(ctx, e.fileId, userId);
    if (!read) throw conflict(`The stored file ${e.fileName} is missing: remove it from the collection.`);
    const name = `${doiPath(e.doi!).replace(/[^A-Za-z0-9._-]+/g, '_')}__${e.fileName}`;
    files.push({ name, bytes: read.bytes });
    manifest.push({ doi: e.doi!, file_name: e.fileName, deposit_name: name, sha256: read.sha256 });
  }
  files.unshift({ name: 'manifest.csv', bytes: Buffer.from(manifestCsv(manifest), 'utf8') });
  return { files, dois: [...new Set(entries.map((e) => e.doi!))] };
}

async function creatorsOf(ctx: ModuleContext, userId: number) {
  const profile = ctx.isEnabled('profile') ? await ctx.services.profile.getByUserId(userId) : undefined;
  const name = profile ? [profile.surname, profile.name].filter((p) => p && p.trim() !== '').join(', ') : '';
  return [{ name: name || `User ${userId}`, affiliation: profile?.affiliation ?? null, orcid: profile?.orcid ?? null }];
}

/** A deposit made under the claim: the DOIs to record, or why it failed. */
type Deposited = { status: 'ok'; doi: string; conceptDoi: string; depositionId: number } | { status: 'failed'; message: string };

/**
 * Deposits the collection and records its DOI; 502 when the deposit repository failed (nothing
 * recorded), 409 while another publish runs. The publish finishes or gives back only the claim it
 * took (its time): one that ran past the stale time and lost it to a newer publish writes nothing
 * more to the collection (afterLostClaim).
 */
export async function publishCollection(ctx: ModuleContext, id: number, userId: number): Promise<{ doi: string }> {
  const found = await repo.findCollection(ctx.db, id);
  if (!found || Number(found.user_id) !== userId) throw notFound(`There is no collection with id ${id} among yours.`);
  if (found.doi !== null) throw conflict(PUBLISHED);
  // Two clicks (or two tabs) must not deposit two records: the second waits for the first's answer.
  const claimedAt = await repo.claimPublish(ctx.db, id, stalePublishBefore());
  if (claimedAt === undefined) throw conflict((await repo.findCollection(ctx.db, id))?.doi ? PUBLISHED : UNDER_WAY);
  let deposited: Deposited;
  try {
    deposited = await depositClaimed(ctx, id, userId, claimedAt);
    if (deposited.status === 'ok' && await repo.recordPublication(ctx.db, id, claimedAt, deposited)) return { doi: deposited.doi };
  } catch (error) {
    await repo.releasePublish(ctx.db, id, claimedAt)
      .catch((e) => ctx.log.warn({ err: e, collectionId: id }, 'a collection publish claim could not be released'));
    throw error;
  }
  // Nothing recorded: the claim goes back, if it is still this publish's.
  const released = await repo.releasePublish(ctx.db, id, claimedAt);
  if (released && deposited.status === 'failed') {
    throw new HttpError(502, 'bad_gateway', `The deposit failed: ${deposited.message} The collection stays unpublished; try again.`);
  }
  return await afterLostClaim(ctx, id, deposited);
}

/** The deposit, under the claim taken at `claimedAt`. */
async function depositClaimed(ctx: ModuleContext, id: number, userId: number, claimedAt: string): Promise<Deposited> {
  // Read again under the claim: an earlier publish may have ended since the first read, leaving
  // the deposition it handed over, which this one must settle rather than deposit a second record.
  const row = (await repo.findCollection(ctx.db, id))!;
  // The members too are read under the claim: an add or remove has committed before it, or refuses.
  const { files, dois } = await depositFiles(ctx, id, userId);
  const previous = row.previous_id === null ? undefined : await repo.findCollection(ctx.db, Number(row.previous_id));
  const outcome = await ctx.services.dataset.depositRecord({
    recordName: `collection.${id}`, recordId: id, title: row.title,
    description: row.description || `A collection of ${files.length - 1} UVL models from ${dois.length} datasets.`,
    tags: splitTags(row.tags), creators: await creatorsOf(ctx, userId), files,
    relatedIdentifiers: dois.map((doi) => ({ identifier: doi, relation: 'hasPart', scheme: 'doi' })),
    previousDepositionId: previous?.deposition_id ?? null,
    // Without a DOI, a deposition id is a draft an earlier publish handed over and never saw the end of.
    pendingDepositionId: row.deposition_id,
    onDraft: async (depositionId) => {
      // Kept only under this publish's claim. One that lost it publishes nothing more: the
      // deposit client discards the draft, and the deposit fails.
      if (!(await repo.setPendingDeposition(ctx.db, id, claimedAt, depositionId))) throw new Error(CLAIM_LOST);
    },
  });
  if (outcome.status === 'failed') return outcome;
  return { ...outcome, conceptDoi: outcome.conceptDoi ?? previous?.concept_doi ?? outcome.doi };
}

const CLAIM_LOST = 'The publish claim of the collection was taken over by a newer publish.';

/**
 * The answer of a publish whose claim went while it ran (past STALE_PUBLISH_CLAIM_MS, a newer
 * publish took it over, or a change cleared it as a dead process's): it recorded nothing, the
 * newer publish is in charge. A record Zenodo published for it had its deposition kept as the
 * collection's pending one under its claim (onDraft), so the publish in charge, or the next,
 * settles it and records its DOI rather than depositing a second record, as after a lost answer.
 * Answers that DOI once the collection has it; otherwise 409, the outcome logged.
 */
async function afterLostClaim(ctx: ModuleContext, id: number, deposited: Deposited): Promise<{ doi: string }> {
  const now = await repo.findCollection(ctx.db, id);
  const record = deposited.status === 'ok' ? deposited : null;
  if (record && now?.doi === record.doi) return { doi: record.doi };
  const handedOver = record !== null && now?.doi === null && Number(now.deposition_id) === record.depositionId;
  const facts = { collectionId: id, doi: record?.doi ?? null, depositionId: record?.depositionId ?? null, collectionDoi: now?.doi ?? null };
  if (record && !handedOver) ctx.log.error(facts, 'a collection publish that lost its claim had a record published that the collection does not name');
  else ctx.log.warn(facts, 'a collection publish lost its claim to a newer one and recorded nothing');
  if (now?.doi) throw conflict(PUBLISHED);
  const settled = handedOver ? ` Zenodo published its record (${record.doi}): the publish now under way, or the next one, records its DOI.` : '';
  throw conflict(`${TAKEN_OVER}${settled}`);
}

/**
 * A new version of a published collection: its members copied into a new, open collection. One
 * per collection (a unique index on previous_id): when it exists already, made by an earlier
 * request or by one at the same moment (a double click), that one is answered, `created` false.
 */
export async function newVersion(ctx: ModuleContext, id: number, userId: number): Promise<{ id: number; created: boolean }> {
  const row = await repo.findCollection(ctx.db, id);
  if (!row || Number(row.user_id) !== userId) throw notFound(`There is no collection with id ${id} among yours.`);
  if (row.doi === null) throw conflict('This collection is not published: change it as it is.');
  const existing = await repo.nextVersionOf(ctx.db, id);
  if (existing) return { id: Number(existing.id), created: false };
  // A published collection's members no longer change: read outside the transaction.
  const members = await repo.memberIds(ctx.db, id);
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const next = await repo.insertCollection(trx, {
        userId, title: row.title, description: row.description, tags: row.tags, query: row.query,
        previousId: id, conceptDoi: row.concept_doi, version: Number(row.version) + 1,
      });
      await repo.addMembers(trx, next, members);
      return { id: next, created: true };
    });
  } catch (error) {
    const made = isUniqueViolation(error) ? await repo.nextVersionOf(ctx.db, id) : undefined;
    if (!made) throw error;
    return { id: Number(made.id), created: false };
  }
}
