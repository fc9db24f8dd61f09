// The search index, owned by explore (migration 0010) and kept up to date from the
// dataset module's events; the datasets themselves stay in the dataset module's tables.
export interface ExploreSearchTable {
  dataset_id: number;
  /** 1 when the dataset is synchronized and has at least one feature model (explore rule 4). */
  searchable: number;
  created_at: string;
  publication_type: string;
  /** The dataset's tags, normalized, joined by `|` (tags filter). */
  tags_norm: string;
  /** The eleven searchable columns, normalized, joined by `|` (explore rule 2). */
  search_text: string;
  /** The dataset's revision this row was built from (migration 0020). */
  revision: number;
}

declare module '../../core/db/database.ts' {
  interface Database {
    explore_search: ExploreSearchTable;
  }
}
