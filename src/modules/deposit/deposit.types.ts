// What the dataset module hands to a deposit repository and what it gets back.

export interface DepositCreator {
  name: string;
  affiliation: string | null;
  orcid: string | null;
}

export interface DepositFile {
  name: string;
  /** Where the file is on disk; it is streamed, never read whole into memory. */
  path: string;
  size: number;
}

export interface DepositRequest {
  datasetId: number;
  title: string;
  description: string;
  /** A PublicationType value of decisions section 4; `none` publishes as a plain dataset. */
  publicationType: string;
  publicationDoi: string | null;
  tags: string[];
  creators: DepositCreator[];
  files: DepositFile[];
}

export interface DepositResult {
  depositionId: number;
  doi: string;
}

export interface DepositRepository {
  /** `zenodo` for the real API (or a server speaking it), `fake` for the built-in stand-in. */
  readonly kind: 'zenodo' | 'fake';
  /** Creates the deposition, uploads every file, sets the metadata, publishes and answers the DOI. */
  publish(request: DepositRequest): Promise<DepositResult>;
}

export type DepositStep = 'create' | 'upload' | 'metadata' | 'publish';

/**
 * Every way a push can fail (refused connection, timeout, an error answer, an answer without
 * a DOI) ends here, so that the upload answers `partial` and keeps the dataset (decisions section 4).
 */
export class DepositError extends Error {
  constructor(
    readonly step: DepositStep,
    /** The HTTP status of the deposit repository's answer; null when there was no answer. */
    readonly status: number | null,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DepositError';
  }
}
