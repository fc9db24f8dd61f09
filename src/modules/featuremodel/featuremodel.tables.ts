import type { Id } from '../../core/db/database.ts';

export interface FeatureModelTable {
  id: Id;
  data_set_id: number;
  fm_meta_data_id: number;
}

export interface FMMetaDataTable {
  id: Id;
  uvl_filename: string;
  title: string;
  description: string;
  publication_type: string;
  publication_doi: string | null;
  /** Comma-separated, like the dataset's. */
  tags: string | null;
  uvl_version: string | null;
}

declare module '../../core/db/database.ts' {
  interface Database {
    feature_model: FeatureModelTable;
    fm_meta_data: FMMetaDataTable;
  }
}
