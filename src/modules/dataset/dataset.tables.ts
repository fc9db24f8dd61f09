import type { ColumnType, Generated } from 'kysely';
import type { Id, RecordColumns } from '../../core/db/database.ts';

export interface DataSetTable {
  id: Id;
  user_id: number;
  ds_meta_data_id: number;
  created_at: string;
  /** Raised by every write of the dataset's searchable content (the search index compares it). */
  revision: Generated<number>;
  /** The number of its ds_view_record / ds_download_record rows, raised with each new one. */
  view_count: Generated<number>;
  download_count: Generated<number>;
  /** The first version of the dataset's concept; null on the first version itself (migration 0200). */
  concept_id: number | null;
  /** 1 for the first version of a concept. */
  version_number: Generated<number>;
}

export interface DSMetaDataTable {
  id: Id;
  deposition_id: number | null;
  title: string;
  description: string;
  publication_type: string;
  publication_doi: string | null;
  /** Set once the deposit repository assigned a DOI: the dataset is then synchronized. */
  dataset_doi: string | null;
  /**
   * When the DOI was stored, by the same statement (migration 2026_12_06_0100; the datasets
   * published before it carry their creation); null while unsynchronized.
   */
  published_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The DOI shared by every version (the deposit's concept DOI); null when not known. */
  concept_doi: string | null;
  /** Comma-separated (decisions section 4). */
  tags: string | null;
  /** An SPDX identifier of licenses.ts (extensions section 2). */
  license: Generated<string>;
  ds_metrics_id: number | null;
  /** When a publish claimed the deposit (migration 2026_11_27_1000); null when none is under way. */
  deposit_claimed_at: string | null;
  /**
   * The Zenodo deposition a publish is about to publish, recorded before its publish step and
   * cleared with the DOI (migration 2026_11_27_1600): left set, the publish may have happened.
   */
  pending_deposition_id: number | null;
}

export interface DSMetricsTable {
  id: Id;
  number_of_models: number;
  number_of_features: number;
}

export interface AuthorTable {
  id: Id;
  name: string;
  affiliation: string | null;
  orcid: string | null;
  position: number;
  ds_meta_data_id: number | null;
  fm_meta_data_id: number | null;
}

export interface DSRecordTable extends RecordColumns {
  dataset_id: number;
}

/** One metadata edit (extensions section 2): who changed which fields, when. */
export interface DatasetEditTable {
  id: Id;
  dataset_id: number;
  user_id: number;
  edited_at: string;
  /** The changed fields' names, comma-separated. */
  fields: string;
}

/** A staged file an upload is taking (migration 2026_11_25_0100): one row per folder and name. */
export interface StagedClaimTable {
  folder: string;
  name: string;
  claim_id: string;
  claimed_at: string;
  /** Set in the transaction that saved the claim's dataset (migration 2026_11_27_1300): its files are used. */
  saved_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The instance holding the claim (migration 2026_12_05_0440); null for a claim made before it. */
  instance_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A running instance that may hold claims of staged files, dated every few seconds (staging/instances.ts). */
export interface StagingInstanceTable {
  id: string;
  pid_space: string | null;
  pid: number | null;
  heartbeat_at: string;
}

/** One row per file name of a dataset (migration 2026_11_27_1000): its key refuses a second. */
export interface DatasetFileNameTable {
  data_set_id: number;
  name: string;
}

export interface DOIMappingTable {
  id: Id;
  dataset_doi_old: string;
  dataset_doi_new: string;
}

declare module '../../core/db/database.ts' {
  interface Database {
    data_set: DataSetTable;
    ds_meta_data: DSMetaDataTable;
    ds_metrics: DSMetricsTable;
    author: AuthorTable;
    ds_download_record: DSRecordTable;
    ds_view_record: DSRecordTable;
    doi_mapping: DOIMappingTable;
    dataset_edit: DatasetEditTable;
    staged_claim: StagedClaimTable;
    staging_instance: StagingInstanceTable;
    dataset_file_name: DatasetFileNameTable;
  }
}
