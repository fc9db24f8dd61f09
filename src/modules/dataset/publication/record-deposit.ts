// Deposits of records that are not datasets (a collection, extensions section 13) through the
// dataset's deposit repository: Zenodo when configured, the built-in fake otherwise. The files are
// given in memory (a collection's manifest and its models); a failure is a DepositError's message.
import { Readable } from 'node:stream';
import type { DatasetDeps } from '../dataset.deps.ts';

export interface RecordDepositRequest {
  /** Names the fake's DOI (`collection.<id>`), so it never meets a dataset's. */
  recordName: string;
  /** A number the repository keeps with the record (the collection id). */
  recordId: number;
  title: string;
  description: string;
  tags: string[];
  creators: { name: string; affiliation: string | null; orcid: string | null }[];
  files: { name: string; bytes: Buffer }[];
  relatedIdentifiers: { identifier: string; relation: string; scheme: string }[];
  /** The deposition of the version this one follows, for a new version. */
  previousDepositionId: number | null;
  /**
   * The deposition an earlier publish of this record handed to `onDraft` and never saw the end
   * of: settled first (its DOI if it was published), so a lost answer does not make a second record.
   */
  pendingDepositionId: number | null;
  /** Called with the draft's id before the publish step is sent; the caller keeps it. */
  onDraft: (depositionId: number) => Promise<void>;
}

export type RecordDepositOutcome =
  | { status: 'ok'; doi: string; conceptDoi: string | null; depositionId: number }
  | { status: 'failed'; message: string };

export async function depositRecord(d: DatasetDeps, request: RecordDepositRequest): Promise<RecordDepositOutcome> {
  try {
    const deposit = await d.loadDeposit();
    const repository = deposit.createDepositRepository(d.ctx.config);
    if (request.pendingDepositionId !== null) {
      const settled = await repository.settlePending(request.pendingDepositionId);
      if (settled) return { status: 'ok', doi: settled.doi, conceptDoi: settled.conceptDoi, depositionId: settled.depositionId };
    }
    const depositRequest = {
      datasetId: request.recordId, recordName: request.recordName, title: request.title, description: request.description,
      publicationType: 'none', publicationDoi: null, tags: request.tags, license: 'CC-BY-4.0', creators: request.creators,
      relatedIdentifiers: request.relatedIdentifiers, onDraft: request.onDraft,
      files: request.files.map((f) => ({ name: f.name, size: f.bytes.length, open: async () => Readable.from([f.bytes]) })),
    };
    const result = request.previousDepositionId !== null
      ? await repository.newVersion(request.previousDepositionId, depositRequest)
      : await repository.publish(depositRequest);
    return { status: 'ok', doi: result.doi, conceptDoi: result.conceptDoi, depositionId: result.depositionId };
  } catch (error) {
    d.ctx.log.error({ err: error }, 'a record deposit failed');
    const deposit = await d.loadDeposit().catch(() => undefined);
    return { status: 'failed', message: deposit && error instanceof deposit.DepositError ? error.message : 'The deposit service is not available.' };
  }
}
