// The deposit repository behind the dataset upload. The dataset module imports this file only
// at call time (coupling rule 6), so the hub starts without it and only the push can fail.
import { createFakeDeposit } from './fake-deposit.ts';
import { createZenodoClient } from './zenodo.client.ts';
import type { DepositRepository } from './deposit.types.ts';

export type { DepositCreator, DepositFile, DepositRepository, DepositRequest, DepositResult, DepositStep } from './deposit.types.ts';
export { DepositError } from './deposit.types.ts';
export { createZenodoClient, zenodoMetadata, type ZenodoClientOptions } from './zenodo.client.ts';
export { createFakeDeposit, FAKE_DOI_PREFIX, fakeConceptDoi } from './fake-deposit.ts';

export const ZENODO_DEFAULT_API_URL = 'https://zenodo.org/api';

/** Zenodo (or any server speaking its API) when a token is configured; the built-in fake otherwise. */
export function createDepositRepository(config: { zenodoApiUrl: string | undefined; zenodoAccessToken: string | undefined }): DepositRepository {
  if (!config.zenodoAccessToken) return createFakeDeposit();
  return createZenodoClient({ apiUrl: config.zenodoApiUrl ?? ZENODO_DEFAULT_API_URL, accessToken: config.zenodoAccessToken });
}
