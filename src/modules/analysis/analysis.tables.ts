// The analysis module's tables (migration 0020): results keyed by content, the files that
// have each content, and the feature names of each analysed model.
import type { Id } from '../../core/db/database.ts';

/** `running` is internal (claimed by an instance); the API shows it as `pending`. */
export type StoredStatus = 'pending' | 'running' | 'done' | 'partial' | 'failed';

export interface ModelAnalysisTable {
  id: Id;
  sha256: string;
  status: StoredStatus;
  error: string | null;
  /** The engine's result as JSON (done and partial). */
  result: string | null;
  features: number | null;
  constraints: number | null;
  depth: number | null;
  /** Exact decimal string. */
  configurations: string | null;
  config_digits: number | null;
  satisfiable: number | null;
  /** 1 when the model has a dead feature; null when unknown or meaningless (void model). */
  has_dead: number | null;
  language_level: string | null;
  /** The instance that runs it, and when it claimed it or last said it still does (heartbeat). */
  claimed_by: string | null;
  claimed_at: string | null;
  attempts: number;
  created_at: string;
  finished_at: string | null;
}

export interface ModelAnalysisFileTable {
  file_id: number;
  dataset_id: number;
  sha256: string;
  /** The file name (stored files are never renamed), for search results without another lookup. */
  name: string;
  /** Copied from model_analysis when its result is stored (and when the file is linked): the search reads only these rows. */
  analysis_id: number | null;
  status: StoredStatus;
  features: number | null;
  constraints: number | null;
  depth: number | null;
  configurations: string | null;
  config_digits: number | null;
  satisfiable: number | null;
  has_dead: number | null;
  language_level: string | null;
}

export interface ModelFeatureNamesTable {
  analysis_id: number;
  /** Normalized feature names (core's normalizeText, as explore's index) joined by `|`. */
  names_text: string;
}

declare module '../../core/db/database.ts' {
  interface Database {
    model_analysis: ModelAnalysisTable;
    model_analysis_file: ModelAnalysisFileTable;
    model_feature_names: ModelFeatureNamesTable;
  }
}
