// The built-in stand-in for Zenodo, used when ZENODO_ACCESS_TOKEN is unset (decisions section 4),
// so that uploads synchronize offline. The DOI number is the dataset id: the database hands out
// each id once, so DOIs never collide, whether after a restart or across instances.
import { access, constants } from 'node:fs/promises';
import { DepositError, type DepositRepository, type DepositRequest, type DepositResult } from './deposit.types.ts';

export const FAKE_DOI_PREFIX = '10.1234/fakenodo.';

export function createFakeDeposit(): DepositRepository {
  return {
    kind: 'fake',
    async publish(request: DepositRequest): Promise<DepositResult> {
      // Like a real upload, a file that cannot be read fails the push.
      for (const file of request.files) {
        try {
          await access(file.path, constants.R_OK);
        } catch (error) {
          throw new DepositError('upload', null, `The file ${file.name} could not be read for the deposit.`, { cause: error });
        }
      }
      return { depositionId: request.datasetId, doi: `${FAKE_DOI_PREFIX}${request.datasetId}` };
    },
  };
}
