// The built-in stand-in for Zenodo, used when ZENODO_ACCESS_TOKEN is unset (decisions section 4),
// so that uploads synchronize offline. The DOI number is the dataset id: the database hands out
// each id once, so DOIs never collide, whether after a restart or across instances.
import { DepositError, type DepositRepository, type DepositRequest, type DepositResult } from './deposit.types.ts';

export const FAKE_DOI_PREFIX = '10.1234/fakenodo.';

/** The fake concept DOI of a record first published for dataset `datasetId`. */
export function fakeConceptDoi(datasetId: number): string {
  return `${FAKE_DOI_PREFIX}concept.${datasetId}`;
}

// Like a real upload, a file that cannot be read fails the push.
async function checkFilesReadable(request: DepositRequest): Promise<void> {
  for (const file of request.files) {
    let stream;
    try {
      stream = await file.open();
    } catch (error) {
      throw new DepositError('upload', null, `The file ${file.name} could not be read for the deposit.`, { cause: error });
    }
    if (!stream) throw new DepositError('upload', null, `The file ${file.name} could not be read for the deposit.`);
    stream.destroy();
  }
}

export function createFakeDeposit(): DepositRepository {
  return {
    kind: 'fake',
    async publish(request: DepositRequest): Promise<DepositResult> {
      await checkFilesReadable(request);
      if (request.recordName !== undefined) {
        return { depositionId: request.datasetId, doi: `${FAKE_DOI_PREFIX}${request.recordName}`, conceptDoi: `${FAKE_DOI_PREFIX}concept.${request.recordName}` };
      }
      return { depositionId: request.datasetId, doi: `${FAKE_DOI_PREFIX}${request.datasetId}`, conceptDoi: fakeConceptDoi(request.datasetId) };
    },
    async newVersion(depositionId: number, request: DepositRequest): Promise<DepositResult> {
      if (!Number.isInteger(depositionId) || depositionId <= 0) {
        throw new DepositError('newversion', 404, `The deposition ${depositionId} does not exist.`);
      }
      await checkFilesReadable(request);
      // Keeping no state, the fake cannot know the first version's concept DOI: null tells the
      // service to keep the one it stored at the first publish.
      return { depositionId: request.datasetId, doi: `${FAKE_DOI_PREFIX}${request.recordName ?? request.datasetId}`, conceptDoi: null };
    },
    async updateMetadata(depositionId: number, request: DepositRequest): Promise<DepositResult> {
      // It keeps no records, so it checks what Zenodo would refuse in the metadata itself.
      const missing = [
        request.title.trim() === '' ? 'a title' : null,
        request.description.trim() === '' ? 'a description' : null,
        request.creators.length === 0 || request.creators.some((c) => c.name.trim() === '') ? 'at least one author with a name' : null,
      ].filter((m): m is string => m !== null);
      if (missing.length > 0) {
        throw new DepositError('metadata', 400, `The deposit refused the metadata: it needs ${missing.join(', ')}.`);
      }
      return { depositionId, doi: `${FAKE_DOI_PREFIX}${request.datasetId}`, conceptDoi: null };
    },
    async settlePending(): Promise<DepositResult | null> {
      // It never calls onDraft and keeps no records, so nothing it published can be lost: a
      // deposition is always "gone", and publishing afresh answers the same DOI (the dataset id's).
      return null;
    },
  };
}
