// What the dataset module hands to a deposit repository and what it gets back.
import type { Readable } from 'node:stream';

export interface DepositCreator {
  name: string;
  affiliation: string | null;
  orcid: string | null;
}

export interface DepositFile {
  name: string;
  /** Opens the stored file (the dataset module reads it from its store); it is streamed, never read whole into memory. Undefined when it is missing. */
  open(): Promise<Readable | undefined>;
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
  /** An SPDX licence identifier (src/modules/dataset/licenses.ts). */
  license: string;
  creators: DepositCreator[];
  files: DepositFile[];
  /**
   * A record that is not a dataset (a collection, extensions section 13): the built-in fake names
   * its DOI by this (`collection.<id>`) instead of the dataset id, so the two never collide.
   */
  recordName?: string;
  /** More related identifiers of the record (a collection's member datasets). */
  relatedIdentifiers?: { identifier: string; relation: string; scheme: string }[];
  /**
   * Called with the id of the deposition a publish or new version is about to publish, once its
   * draft exists and before the publish step is sent; the push waits for it (a failure fails the
   * push). The dataset module records the id, so that a publish whose end it never saw (a killed
   * process, a lost answer) can be settled with `settlePending` instead of being made twice.
   */
  onDraft?: (depositionId: number) => Promise<void>;
}

export interface DepositResult {
  depositionId: number;
  doi: string;
  /**
   * The DOI shared by every version of the record (Zenodo's `conceptdoi`); null when the
   * repository did not say (the service then keeps the concept DOI it already knows).
   */
  conceptDoi: string | null;
}

export interface DepositRepository {
  /** `zenodo` for the real API (or a server speaking it), `fake` for the built-in stand-in. */
  readonly kind: 'zenodo' | 'fake';
  /** Creates the deposition, uploads every file, sets the metadata, publishes and answers the DOI. */
  publish(request: DepositRequest): Promise<DepositResult>;
  /**
   * Publishes a new version of the published deposition `depositionId`: opens the new version's
   * draft, replaces its files by the request's, sets the metadata and publishes. Any failure
   * discards the draft (best effort) and throws a DepositError; the published versions stay as they were.
   */
  newVersion(depositionId: number, request: DepositRequest): Promise<DepositResult>;
  /**
   * Replaces the metadata of a published deposition and publishes it again; the DOI stays the
   * same. Files are not touched (the request's files are ignored). On Zenodo: open an edit,
   * set the metadata, publish; a failure after the edit opened discards it (best effort), so the
   * published record keeps its former metadata.
   */
  updateMetadata(depositionId: number, request: DepositRequest): Promise<DepositResult>;
  /**
   * Settles the deposition an earlier publish handed to `onDraft` and never saw the end of.
   * Published: its DOI and concept DOI (nothing is published again). An unpublished draft: it is
   * discarded and null answered, as for a deposition that is gone: the caller publishes afresh.
   * Anything else (no answer, an error answer, a published record without a DOI) is a DepositError.
   */
  settlePending(depositionId: number): Promise<DepositResult | null>;
}

export type DepositStep = 'create' | 'upload' | 'metadata' | 'publish' | 'edit' | 'discard' | 'newversion' | 'delete-file' | 'settle';

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
