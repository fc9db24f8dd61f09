// The dataset module's shapes: what its service answers (summaries, list items, outcomes) and the
// addresses of a dataset, shared by the service, the REST part and the routes.
import type { FieldErrors } from '../../core/http/forms.ts';
import type { FeatureModelView } from '../featuremodel/index.ts';
import type { FileOriginal, HubfileView } from '../hubfile/index.ts';
import type { AuthorInput, FeatureModelInput } from './upload-form.ts';
import type { RelatedIdentifier } from './staging/import-sources.ts';

export interface DatasetListItem {
  id: number;
  title: string;
  publicationType: string;
  publicationTypeLabel: string;
  doi: string | null;
  createdAt: string;
  /** The DOI landing page when synchronized, else the owner's unsynchronized view (specification, profile). */
  href: string;
  version: number;
  /** How many versions the family has ("v2 of 3"). */
  versionCount: number;
}

export interface DatasetSummary {
  id: number;
  userId: number;
  createdAt: string;
  title: string;
  description: string;
  publicationType: string;
  publicationTypeLabel: string;
  publicationDoi: string | null;
  doi: string | null;
  /**
   * When the dataset got its DOI (ds_meta_data.published_at, stored with it by setDeposit); null
   * for a draft, and for a published row without it. Dates a citation or a harvested record:
   * `publishedAt ?? createdAt`.
   */
  publishedAt: string | null;
  depositionId: number | null;
  synchronized: boolean;
  tags: string[];
  authors: AuthorInput[];
  /** An SPDX identifier (licenses.ts). */
  license: string;
  numberOfModels: number;
  numberOfFeatures: number;
  featureModels: FeatureModelView[];
  files: HubfileView[];
  totalSize: number;
  totalSizeHuman: string;
  /** The public DOI URL `http://<DOMAIN>/doi/<doi>`; null while unsynchronized. */
  url: string | null;
  /** The deposit repository's record page: `get_zenodo_url()` of the specification. */
  zenodoUrl: string | null;
  downloadUrl: string;
  href: string;
  /** 1 for a concept's first version (extensions section 2, dataset.versions.ts). */
  version: number;
  /** How many versions the family has ("v2 of 3" in lists). */
  versionCount: number;
  conceptId: number;
  conceptDoi: string | null;
  /**
   * Where its models were imported from (extensions section 13): each URL and Zenodo record DOI
   * once, oldest first; empty for a dataset of uploaded files. Changed only with its content.
   */
  importSources: RelatedIdentifier[];
}

export interface StagedCheck {
  filename: string;
  size: number;
  valid: boolean;
  /** At most 20 (staged-checks.ts, MAX_LISTED); `errors_more` counts the rest. */
  errors: string[];
  errors_more: number;
  warnings: string[];
  /** Issue 27: `uvl`, or the format the model was converted from. */
  format: string;
  /** The name of the file as uploaded, for a converted model; null for UVL. */
  original: string | null;
  /** What the conversion could not carry over (empty: nothing was lost, or a UVL upload). */
  losses: string[];
  warnings_more: number;
}

export type UploadOutcome =
  | { status: 'invalid'; errors: FieldErrors }
  | { status: 'ok'; datasetId: number; doi: string; url: string }
  | { status: 'partial'; datasetId: number; message: string };

export type DoiResolution =
  | { kind: 'dataset'; dataset: DatasetSummary }
  | { kind: 'moved'; doi: string }
  | { kind: 'missing' };

/** Where a model's bytes come from: an object of the file store (staged or stored) or a local file (seeders). */
export type ModelOrigin = { key: string } | { file: string };

/** A model ready to be stored: its file read once for the check, the checksum and the feature count. */
export interface PreparedModel {
  input: FeatureModelInput;
  origin: ModelOrigin;
  name: string;
  size: number;
  checksum: string;
  features: number;
  /** Issue 27: the file the model was converted from, placed beside it. */
  original?: { key: string } & FileOriginal;
}

export function datasetHref(id: number, doi: string | null): string {
  return doi ? `/doi/${doiPath(doi)}/` : `/dataset/unsynchronized/${id}/`;
}

/** A DOI placed in a URL path: its slashes stay, characters that would end or break the path are escaped. */
export function doiPath(doi: string): string {
  return doi.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/]/gu, (c) => encodeURIComponent(c));
}
